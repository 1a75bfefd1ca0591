package serving_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dlclark/regexp2"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/golden"
	"github.com/crdschema/crdschema/internal/sample"
	"github.com/crdschema/crdschema/internal/shareddata"
)

// editorFlagGroups is what yaml-language-server 2.0.0 takes out of a
// pattern before compiling it (safeCreateUnicodeRegExp in
// src/languageservice/utils/strings.ts): every (?i), (?ms), ... made a
// flag of the whole expression.
var editorFlagGroups = regexp.MustCompile(`\(\?([ims]+)\)`)

// editorRegexp compiles a schema's pattern as yaml-language-server does:
// flag groups taken out, then new RegExp(pattern, flags + 'u'), falling
// back to no u flag. regexp2's ECMAScript mode stands in for V8
// (TestPatternsInNode checks the corpus with V8 itself).
func editorRegexp(pattern string) (*regexp2.Regexp, bool, error) {
	opts := regexp2.RegexOptions(regexp2.ECMAScript)
	pattern = editorFlagGroups.ReplaceAllStringFunc(pattern, func(g string) string {
		if strings.Contains(g, "i") {
			opts |= regexp2.IgnoreCase
		}
		if strings.Contains(g, "m") {
			opts |= regexp2.Multiline
		}
		if strings.Contains(g, "s") {
			opts |= regexp2.Singleline
		}
		return ""
	})
	re, err := regexp2.Compile(pattern, opts|regexp2.Unicode)
	if err == nil {
		re.MatchTimeout = 10 * time.Second
		return re, true, nil
	}
	re, err = regexp2.Compile(pattern, opts)
	if err != nil {
		return nil, false, err
	}
	re.MatchTimeout = 10 * time.Second
	return re, false, nil
}

// nearMissRunes replace a character of a matching value: case and
// folding partners (ſ, the Kelvin sign), line breaks ECMA's "." and m
// flag treat differently from RE2's, spaces \s differs on, letters of
// other scripts and an astral character.
var nearMissRunes = []rune{'A', 'a', 'Z', 'z', 'k', 'K', 's', 'S', '0', '9', '-', '.', '_', '/', ' ', '\t', '\v', '\r', '\n', '\u2028', '\u00a0', '\ufeff', '\u017f', '\u212a', 'é', 'Σ', 'ς', '😀', '\u0301', '('}

// patternValues are values to compare the engines on: strings built for
// the pattern and near misses of each.
func patternValues(pattern string) []string {
	var out []string
	for i := range 6 {
		s, ok := sample.PatternString(pattern, rand.New(rand.NewPCG(uint64(i), 33)))
		if !ok {
			continue
		}
		out = append(out, nearMisses(s, rand.New(rand.NewPCG(uint64(i), 34)))...)
	}
	out = append(out, "", "a", "A", "0", "\n", "a\nb", "a\rb", "ſ", "\u212a", "é")
	slices.Sort(out)
	return slices.Compact(out)
}

func nearMisses(s string, r *rand.Rand) []string {
	out := []string{s, s + s, s + "\n", "\n" + s, s + "\r", strings.ToUpper(s), strings.ToLower(s), "x" + s, s + "x"}
	rs := []rune(s)
	if len(rs) == 0 {
		return out
	}
	for _, i := range []int{0, len(rs) / 2, len(rs) - 1} {
		out = append(out, string(slices.Delete(slices.Clone(rs), i, i+1)))
	}
	for _, n := range nearMissRunes {
		c := slices.Clone(rs)
		c[r.IntN(len(c))] = n
		out = append(out, string(c))
	}
	return out
}

// agreement compares, on the values built for the RE2 pattern, what the
// apiserver (Go's regexp on original) accepts with what the written
// pattern makes kubeconform (Go's regexp) and yaml-language-server
// (ECMA-262) accept. It returns the number of values checked.
func agreement(t *testing.T, original, written string) (checked int, cases []patternCase) {
	t.Helper()
	want := regexp.MustCompile(original)
	kc, err := regexp.Compile(written)
	if err != nil {
		t.Errorf("%q written as %q: Go's regexp: %v", original, written, err)
		return 0, nil
	}
	ed, unicodeMode, err := editorRegexp(written)
	if err != nil || !unicodeMode {
		t.Errorf("%q written as %q: not an ECMA-262 pattern with the u flag (%v)", original, written, err)
		return 0, nil
	}
	for _, v := range patternValues(original) {
		w := want.MatchString(v)
		e, err := ed.MatchString(v)
		if err != nil {
			t.Errorf("%q: %v", written, err)
			continue
		}
		if k := kc.MatchString(v); k != w || e != w {
			t.Errorf("%q written as %q: on %q the apiserver says %v, Go's regexp %v, ECMA-262 %v", original, written, v, w, k, e)
		}
		checked++
		cases = append(cases, patternCase{Pattern: written, Value: v, Want: w})
	}
	return checked, cases
}

// patternCase is one value for TestPatternsInNode.
type patternCase struct {
	Pattern string `json:"pattern"`
	Value   string `json:"value"`
	Want    bool   `json:"want"`
}

// writtenPatterns walks a JSON Schema and calls f with the RE2 pattern of
// every node that has one and what was written for it ("" when the
// pattern is kept as x-kubernetes-pattern-re2 only).
func writtenPatterns(v any, f func(original, written string)) {
	switch v := v.(type) {
	case map[string]any:
		written, _ := v["pattern"].(string)
		original, _ := v["x-kubernetes-pattern-re2"].(string)
		if original == "" {
			original = written
		}
		if original != "" {
			f(original, written)
		}
		for k, c := range v {
			if k != "enum" && k != "default" {
				writtenPatterns(c, f)
			}
		}
	case []any:
		for _, c := range v {
			writtenPatterns(c, f)
		}
	}
}

// TestPatternProbes pins what the exporter writes for the RE2-only
// constructs (testdata/patterns/*.yaml: a CRD with one property per
// construct) and checks each written pattern on values built for it.
func TestPatternProbes(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "patterns"), func(t *testing.T, path string, data []byte) string {
		crd, err := crdschema.LoadCRD(data)
		if err != nil {
			t.Fatal(err)
		}
		s, err := crd.JSONSchema(crd.ServedVersions()[0], false)
		if err != nil {
			t.Fatal(err)
		}
		spec := at(s, "properties", "spec", "properties").(map[string]any)
		var b strings.Builder
		var cases []patternCase
		for _, name := range slices.Sorted(maps.Keys(spec)) {
			node := spec[name].(map[string]any)
			original, _ := node["x-kubernetes-pattern-re2"].(string)
			written, _ := node["pattern"].(string)
			if original == "" {
				original = written
			}
			fmt.Fprintf(&b, "%s: %s\n", name, original)
			switch {
			case written == "":
				fmt.Fprintf(&b, "  not asserted: %s\n", node["description"])
			case written == original:
				b.WriteString("  written as is\n")
			default:
				fmt.Fprintf(&b, "  written as %s\n", written)
			}
			if written != "" {
				n, c := agreement(t, original, written)
				cases = append(cases, c...)
				fmt.Fprintf(&b, "  %d values, the engines agree\n", n)
			}
		}
		t.Run("V8", func(t *testing.T) { inNode(t, cases) })
		return b.String()
	})
}

// corpusPatterns returns every pattern the exporter writes for the corpus
// CRDs (every served version, plain and strict), by original, and how
// many nodes carry one.
func corpusPatterns(t *testing.T) (map[string]string, int) {
	dir := shareddata.Dir(t, "corpus")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "crds", "*.yaml"))
	if len(files) == 0 {
		shareddata.Missing(t, filepath.Join(dir, "*", "crds"))
	}
	written := map[string]string{}
	nodes := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		crds, err := crdschema.LoadCRDs(f, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range crds {
			schemaPatterns(t, c, func(original, w string) {
				nodes++
				if prev, ok := written[original]; ok && prev != w {
					t.Errorf("%q written as %q and as %q", original, prev, w)
				}
				written[original] = w
			})
		}
	}
	return written, nodes
}

// schemaPatterns calls f for every pattern of the JSON Schemas written
// for a CRD the apiserver accepts: every served version, plain and strict.
func schemaPatterns(t *testing.T, c *crdschema.CRD, f func(original, written string)) {
	if len(c.Errors()) > 0 {
		return
	}
	for _, v := range c.ServedVersions() {
		for _, strict := range []bool{false, true} {
			s, err := c.JSONSchema(v, strict)
			if err != nil {
				t.Fatal(err)
			}
			writtenPatterns(s, f)
		}
	}
}

// TestPatternsAgreeOnTheCorpus compiles every pattern the exporter writes
// for the corpus CRDs with Go's regexp (kubeconform) and with an
// ECMA-262 engine as yaml-language-server compiles it, and checks on
// values built for each pattern, and near misses, that both accept
// exactly what the apiserver accepts.
func TestPatternsAgreeOnTheCorpus(t *testing.T) {
	written, nodes := corpusPatterns(t)
	asIs, rewritten, kept, checked := 0, 0, 0, 0
	var cases []patternCase
	for _, original := range slices.Sorted(maps.Keys(written)) {
		w := written[original]
		switch {
		case w == "":
			kept++
			t.Logf("kept as x-kubernetes-pattern-re2: %s", original)
			continue
		case w == original:
			asIs++
		default:
			rewritten++
			t.Logf("rewritten: %s\n    as %s", original, w)
		}
		n, c := agreement(t, original, w)
		checked += n
		cases = append(cases, c...)
	}
	t.Logf("%d nodes with a pattern, %d distinct patterns: %d written as is, %d rewritten, %d kept as x-kubernetes-pattern-re2; %d values checked, engines agreeing on all",
		nodes, len(written), asIs, rewritten, kept, checked)
	if len(written) < 100 || kept > 0 {
		t.Errorf("%d distinct patterns, %d not asserted: the corpus has about 130, every one with a shared form", len(written), kept)
	}
	t.Run("V8", func(t *testing.T) { inNode(t, cases) })
}

// inNode runs the cases through V8 itself, with yaml-language-server's
// safeCreateUnicodeRegExp, when node is on PATH (it is on the project's
// machines).
func inNode(t *testing.T, cases []patternCase) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on PATH: skipping the V8 cross-check (regexp2 stands in for it)")
	}
	in := filepath.Join(t.TempDir(), "cases.json")
	data, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, "-e", nodeCheck, in).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != fmt.Sprintf("%d agree", len(cases)) {
		t.Errorf("V8 disagrees:\n%s", got)
	}
}

// nodeCheck is yaml-language-server 2.0.0's safeCreateUnicodeRegExp and
// its pattern check (regex.test(value)), over the cases in argv[1].
const nodeCheck = `
const cases = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'));
function safeCreateUnicodeRegExp(pattern) {
  let flags = '';
  pattern = pattern.replace(/\(\?([ims]+)\)/g, (_m, mods) => {
    for (const m of mods) if (!flags.includes(m)) flags += m;
    return '';
  });
  try { return new RegExp(pattern, flags + 'u'); } catch {
    try { return new RegExp(pattern, flags); } catch { return undefined; } }
}
let ok = 0;
const bad = [];
const seen = new Map();
for (const c of cases) {
  let re = seen.get(c.pattern);
  if (re === undefined) { re = safeCreateUnicodeRegExp(c.pattern); seen.set(c.pattern, re); }
  if (!re || !re.unicode) { bad.push('not compiled with u: ' + c.pattern); continue; }
  if (re.test(c.value) === c.want) ok++; else bad.push(JSON.stringify(c));
}
console.log(bad.length ? bad.slice(0, 20).join('\n') : ok + ' agree');
`
