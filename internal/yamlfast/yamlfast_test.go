package yamlfast

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/internal/jsonfast"
	"github.com/crdschema/crdschema/internal/shareddata"
)

// agree fails when Decode accepts data but disagrees with YAMLToJSON and
// apimachinery's decoder, on the value or on the JSON. It reports whether
// Decode declined.
func agree(t testing.TB, data []byte) (declined bool) {
	t.Helper()
	in := string(data)
	got, ok := Decode(data)
	if in != string(data) {
		t.Fatal("Decode modified its input")
	}
	if !ok {
		return true
	}
	want, js := exact(t, data)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode(%q):\n got %#v\nwant %#v", data, got, want)
	}
	if got != nil {
		enc, ok := jsonfast.Encode(got)
		if !ok || string(enc) != string(js) {
			t.Fatalf("Decode(%q): JSON %s, YAMLToJSON %s", data, enc, js)
		}
	}
	return false
}

// exact reads data, which Decode accepted, as YAMLToJSON and
// apimachinery's decoder do: the value and the JSON.
func exact(t testing.TB, data []byte) (v any, js []byte) {
	t.Helper()
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatalf("Decode accepted %q, YAMLToJSON failed: %v", data, err)
	}
	if err := kjson.Unmarshal(js, &v); err != nil {
		t.Fatalf("Decode accepted %q, the JSON decoder failed: %v", data, err)
	}
	return v, js
}

var seeds = []string{
	"a: 1\nb: yes\nc: ~\nd: 0x1F\ne: 1.0\nf: 1e3\ng: 0o17\nh: 1_000\ni: +12\nj: 1e400\nk: 0755\nl: -0\nm: 9223372036854775807\nn: 9223372036854775808\no: 1.5e-7\np: 1e21\n",
	"a: 2001-12-14\nb: 2001-12-14T21:59:43.10-05:00\nc: 2001-12-14 21:59:43.10\nd: 0000-1111\ne: 1234-5\n2001-12-14: x\non: 1\n1: 2\n0x10: 3\n",
	"b: .metadata.name\nc: .e5\nd: ._5\ne: .\nf: .5x\nh: .status.conditions[?(@.type==\"Ready\")].status\n", "a: .5e3\ng: .0_1\n",
	"a: .5\nb: .inf\nc: 2001-12-14\nd: 0b101\ne: -0.0\nf: On\ng: NULL\nh: nul\ni: 1.2.3\nj: -\nk: +\nl: 12:30\n",
	"kind: FooList\nitems:\n- a: 1\n  b:\n  - x\n  -\n    - q\n- c: [] # c\n  d: {}\n",
	"a: plain text\n  continued here\n\n  after a blank\nb: 'single ''quoted''\n  folded'\nc: \"double \\t \\u00e9 \\x41\\\n  joined\\\n\n  x\"\n",
	"a: |\n  literal\n   indented\n\n  end\nb: >-\n  folded\n  text\n\n   more\n  last\nc: |+\n  keep\n\nd: x\n",
	"a: >\n  x\n\n  y\n    z\n  w\n", "a:\n  b: |2-\n\n\n      x\n     y\n\n  c: >+1\n    z\n   w\n\nd: { }\ne: [ ]\nf: |0\n  x\n", "a:\n  - |\n    x\n  - b\n", "a: x:y\nb: http://z\n", "\"a\": 1\n'b': 2\n", "key: value # comment\n# trailing\n",
	"a: b: c\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "? a\n: b\n", "a: 1\na: 2\n", "y: 1\n", "1: a\n", "a:\n  b: 1\n c: 2\n", "a: [1, 2]\n",
	"a: \"unterminated\n", "a: \"\\UFFFFFFFF\"\n", "a: \"\\U80000041\"\n", "a: \"\\U0010FFFF \\U00110000\"\n", "a: [x, \"y\", 'z', 1, -1, 1.5, yes, ~, a b ]\nb: [a,]\nc: [a # x]\n", "a: [x, \"y\", 'z', 1, -1, 1.5, yes, ~, a b ] # c\n", "a: ['x''y']\n", "a:\n- - x\n  - - y\n    - z\n- - - w\n", "a: |\n\n   x\n  y\n", "a: 'x'#c\n", "a: \"\\/\"\n", "a: <tag>&amp;\n", "a: \"\\u2028\\L\\N\\_\\P\\e\\0\"\n",
	"metadata:\n  name: x\n  annotations:\n    a.b/c: \"true\"\nspec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        description: 'It is\n          long'\n        type: object\n",
}

func TestDecodeSeeds(t *testing.T) {
	accepted := 0
	for _, s := range seeds {
		if !agree(t, []byte(s)) {
			accepted++
		}
	}
	if accepted < len(seeds)/3 {
		t.Errorf("Decode accepted only %d of %d seeds", accepted, len(seeds))
	}
}

// TestDecodeCorpus compares Decode with sigs.k8s.io/yaml on every YAML
// document of the shared corpus, conformance batches and findings and of
// testdata.
// The roots are directories below ../shared, not ../shared itself, which
// may be a symbolic link that WalkDir would not follow. The corpus CRDs,
// as generators write them, must almost all take the fast path; the other
// inputs are full of deliberately odd YAML, where declining is right.
func TestDecodeCorpus(t *testing.T) {
	var files []string
	corpus := shareddata.Optional(t, "corpus")
	conformance := shareddata.Optional(t, "conformance")
	findings := shareddata.Optional(t, "findings")
	for _, root := range []string{corpus, conformance, findings, "../../testdata", "../../schema/testdata"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skip("no YAML files")
	}
	docs, declined, crdDocs, crdDeclined := 0, 0, 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		corpusCRD := strings.Contains(filepath.ToSlash(f), "shared/corpus/") && strings.Contains(filepath.ToSlash(f), "/crds/")
		for _, doc := range strings.Split(strings.TrimPrefix(string(data), "---\n"), "\n---\n") {
			d := agree(t, []byte(doc))
			docs++
			if d {
				declined++
			}
			if corpusCRD {
				crdDocs++
				if d {
					crdDeclined++
				}
			}
		}
	}
	t.Logf("Decode declined %d of %d documents (%d files); %d of %d corpus CRD documents", declined, docs, len(files), crdDeclined, crdDocs)
	if crdDocs == 0 {
		t.Log("../shared/corpus absent: the decline rate on generated CRDs is not checked")
		return
	}
	if crdDeclined*50 > crdDocs {
		t.Errorf("Decode declined %d of %d corpus CRD documents", crdDeclined, crdDocs)
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		agree(t, data)
	})
}

// TestIsYAMLFloatMatchesItsRegexp holds isYAMLFloat to the regular
// expression its doc comment quotes (yaml.v2's), on every string of up to
// five characters over the characters the expression cares about.
func TestIsYAMLFloatMatchesItsRegexp(t *testing.T) {
	re := regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	const alphabet = "+-.eE07x"
	var walk func(s string)
	walk = func(s string) {
		if got, want := isYAMLFloat(s), re.MatchString(s); got != want {
			t.Errorf("isYAMLFloat(%q) = %v, the expression says %v", s, got, want)
		}
		if len(s) == 5 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			walk(s + alphabet[i:i+1])
		}
	}
	walk("")
}

// TestNonPrintable8 holds the eight-byte test to the byte-by-byte one,
// for every byte value in every position among printable neighbours and
// for random words: the lowest byte it marks is the first byte out of
// range.
func TestNonPrintable8(t *testing.T) {
	first := func(x uint64) int {
		for i := 0; i < 8; i++ {
			if c := byte(x >> (8 * i)); c < 0x20 || c >= 0x7f {
				return i
			}
		}
		return 8
	}
	check := func(x uint64) {
		got := 8
		if m := nonPrintable8(x); m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if want := first(x); got != want {
			t.Fatalf("nonPrintable8(%#016x) marks byte %d first, want %d", x, got, want)
		}
	}
	const fill = 0x4141414141414141 // "AAAAAAAA"
	for pos := 0; pos < 8; pos++ {
		for b := 0; b < 256; b++ {
			for _, around := range []uint64{fill, 0x2020202020202020, 0x7e7e7e7e7e7e7e7e, 0} {
				check(around&^(0xff<<(8*pos)) | uint64(b)<<(8*pos))
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1_000_000 {
		check(r.Uint64())
		// Mostly printable words, with one or two bytes changed.
		x := fill | r.Uint64()&0x1f1f1f1f1f1f1f1f
		x ^= uint64(r.IntN(256)) << (8 * r.IntN(8))
		check(x)
	}
}

// TestColonOrHash8 holds the word test to the byte test: the lowest byte
// it marks is the first ':' or '#'.
func TestColonOrHash8(t *testing.T) {
	first := func(x uint64) int {
		for i := 0; i < 8; i++ {
			if c := byte(x >> (8 * i)); c == ':' || c == '#' {
				return i
			}
		}
		return 8
	}
	check := func(x uint64) {
		got := 8
		if m := colonOrHash8(x); m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if want := first(x); got != want {
			t.Fatalf("colonOrHash8(%#016x) marks byte %d first, want %d", x, got, want)
		}
	}
	for pos := 0; pos < 8; pos++ {
		for b := 0; b < 256; b++ {
			for _, around := range []uint64{0x4141414141414141, 0x3a3a3a3a3a3a3a3a, 0x2323232323232323, 0, ^uint64(0)} {
				check(around&^(0xff<<(8*pos)) | uint64(b)<<(8*pos))
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 1_000_000 {
		check(r.Uint64())
		x := 0x4141414141414141 | r.Uint64()&0x1f1f1f1f1f1f1f1f
		x ^= uint64(r.IntN(256)) << (8 * r.IntN(8))
		check(x)
	}
}

// TestColonOrHash finds the first ':' or '#' of every slice of a line,
// from every offset, with and without bytes past the slice's end (which
// it must ignore) up to its capacity.
func TestColonOrHash(t *testing.T) {
	const line = "ab:c#d::e ##f: g#:hijklmnopqrstu:vw#xyz0123456789"
	for _, tail := range []string{"", ":#:#:#:#:#", "zzzzzzzzzz"} {
		data := []byte(line + tail)
		for n := 0; n <= len(line); n++ {
			for from := 0; from <= n; from++ {
				want := from + strings.IndexAny(line[from:n]+":", ":#")
				for _, s := range [][]byte{data[:n], data[:n:n]} {
					if got := colonOrHash(s, from); got != want {
						t.Fatalf("colonOrHash(%q (cap %d), %d) = %d, want %d", s, cap(s), from, got, want)
					}
				}
			}
		}
	}
}

// TestDecodeDeclinesAtEveryColumn puts a character the fast path declines
// (a tab, a carriage return, DEL, a C1 control, a line separator) at
// every column of a line's indentation and text, so that each word and
// byte position of the scans of a line meets one.
func TestDecodeDeclinesAtEveryColumn(t *testing.T) {
	for _, bad := range []string{"\t", "\r", "\x7f", "\x00", "\u0085", "\u2028"} {
		for indent := 0; indent <= 40; indent += 2 {
			line := strings.Repeat(" ", indent) + "key: " + strings.Repeat("v", 37)
			for col := 0; col < len(line); col++ {
				doc := "root:\n" + strings.Repeat(" ", indent) + "a: b\n" + line[:col] + bad + line[col+1:] + "\n"
				if indent == 0 {
					doc = "a: b\n" + line[:col] + bad + line[col+1:] + "\n"
				}
				if _, ok := Decode([]byte(doc)); ok {
					t.Fatalf("Decode read %q", doc)
				}
				agree(t, []byte(doc))
			}
		}
	}
}

// TestDecodeResultsShareNothingReused decodes every seed, then every seed
// again, and checks that the first results are still what the exact
// reader gives: nothing of a result lies in the buffers the next Decode
// reuses (the line table, the scratch buffer of multi-line scalars, the
// short scalar table).
func TestDecodeResultsShareNothingReused(t *testing.T) {
	// Two documents of one multi-line scalar each: aliasing the scratch
	// buffer shows only across documents.
	docs := []string{"a: one\n  two\n", "a: xxx\n  yyy\n"}
	for _, s := range seeds {
		docs = append(docs, s, strings.ReplaceAll(s, "a", "Z"))
	}
	firsts := make([]any, len(docs))
	for i, d := range docs {
		firsts[i], _ = Decode([]byte(d))
	}
	for i := len(docs) - 1; i >= 0; i-- {
		Decode([]byte(docs[i]))
	}
	// Compared with the exact reader, not with Decode again: decoding d
	// again would write its text back into a reused buffer.
	for i, d := range docs {
		if firsts[i] == nil {
			continue // declined (or empty)
		}
		if want, _ := exact(t, []byte(d)); !reflect.DeepEqual(firsts[i], want) {
			t.Fatalf("Decode(%q) gave %#v, after other documents; the exact reader %#v", d, firsts[i], want)
		}
		agree(t, []byte(d))
	}
}

// TestDecodeDepth reads mappings and sequences nested up to maxDepth
// levels, declines one level more, and gives each level back when its
// collection ends: siblings nested deeply are read.
func TestDecodeDepth(t *testing.T) {
	// lines lines of "k:" each indented one more, or of "- k:" each a
	// compact sequence of mappings after the first (two levels a line).
	nested := func(lines int, seq bool) string {
		var b strings.Builder
		b.WriteString("k:")
		for i := 1; i < lines; i++ {
			if seq {
				b.WriteString("\n" + strings.Repeat(" ", 2*(i-1)) + "- k:")
			} else {
				b.WriteString("\n" + strings.Repeat(" ", i) + "k:")
			}
		}
		return b.String() + " v\n"
	}
	for _, seq := range []bool{false, true} {
		lines := maxDepth // levels
		if seq {
			lines = (maxDepth + 1) / 2 // 1 + 2*(lines-1) levels
		}
		if !agree(t, []byte(nested(lines+1, seq))) {
			t.Errorf("seq %v: Decode read %d lines", seq, lines+1)
		}
		if agree(t, []byte(nested(lines, seq))) {
			t.Errorf("seq %v: Decode declined %d lines", seq, lines)
		}
		deep := nested(lines*2/3, seq)
		siblings := deep + strings.Replace(deep, "k:", "j:", 1) + strings.Replace(deep, "k:", "i:", 1)
		if agree(t, []byte(siblings)) {
			t.Errorf("seq %v: Decode declined three siblings of %d lines", seq, lines*2/3)
		}
	}
}

// TestDecodeConcurrent decodes the seeds from eight goroutines at once
// (they share the pool of parsers) and compares with reading them one by
// one; run with -race.
func TestDecodeConcurrent(t *testing.T) {
	want := make([]any, len(seeds))
	for i, s := range seeds {
		want[i], _ = Decode([]byte(s))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 50; round++ {
				for i, s := range seeds {
					if got, _ := Decode([]byte(s)); !reflect.DeepEqual(got, want[i]) {
						errs <- s
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for s := range errs {
		t.Errorf("Decode(%q) read differently at once", s)
	}
}

// TestDecodeDeclinesRepeatedKey: a mapping with a key twice is left to the
// exact reader, which reports it (yaml.v2 alone keeps the last value, so
// agree cannot tell), at the root, nested, in a sequence entry and spelt
// two ways.
func TestDecodeDeclinesRepeatedKey(t *testing.T) {
	for _, doc := range []string{"a: 1\na: 2\n", "a: 1\nb:\n  c: 1\n  d: 2\n  c: 3\n", "a:\n- b: 1\n  b: 1\n", "a: 1\n\"a\": 2\n", "type: x\ntype: y\n"} {
		if v, ok := Decode([]byte(doc)); ok {
			t.Errorf("Decode(%q) read %#v", doc, v)
		}
	}
}
