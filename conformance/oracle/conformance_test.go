package oracle_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema/conformance/oracle"
)

// sharedDir is oracle.SharedDir (explain_test.go): one place decides
// where the shared data is and what its absence does.
var sharedDir = oracle.SharedDir

// errorLine is one error of an output line.
type errorLine struct {
	Type   string `json:"type"`
	Field  string `json:"field"`
	Detail string `json:"detail"`
}

// outputLine is one JSON line of check or of an object verb.
type outputLine struct {
	File     string      `json:"file"`
	Document int         `json:"document"`
	Kind     string      `json:"kind"`
	Name     string      `json:"name"`
	Object   interface{} `json:"object"`
	Pruned   []string    `json:"pruned"`
	Errors   []errorLine `json:"errors"`
	// Operation is CREATE or UPDATE on lines of apply --old and check
	// --old.
	Operation string `json:"operation"`
	// Warnings are check's warnings (nil in answers recorded before the
	// third edition).
	Warnings []string `json:"warnings"`
	// Objects are convert --review's converted objects; parseLines
	// compares them as the line's object.
	Objects []interface{} `json:"objects"`
}

type lineKey struct {
	file string
	doc  int
}

func parseLines(data []byte) ([]outputLine, error) {
	var out []outputLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l outputLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%v in %q", err, sc.Text())
		}
		if l.Objects != nil {
			l.Object = map[string]interface{}{"objects": l.Objects}
		}
		out = append(out, l)
	}
	return out, sc.Err()
}

// tally counts the outcome of comparisons.
type tally struct {
	Lines      int // expected lines compared
	Mismatches int // missing or extra lines, different results
	Details    int // same (type, field) pairs, different detail wording
	CELDetails int // detail differences in CEL compilation errors only
	Exit       int // wrong exit status
	CostTies   int // equal-cost choices of the rules named for an excessive total cost
}

func (a *tally) add(b tally) {
	a.Lines += b.Lines
	a.Mismatches += b.Mismatches
	a.Details += b.Details
	a.CELDetails += b.CELDetails
	a.Exit += b.Exit
	a.CostTies += b.CostTies
}

func (a tally) String() string {
	return fmt.Sprintf("%d lines, %d mismatches, %d detail differences, %d CEL detail differences (compiler output, evaluation order), %d wrong exit statuses, %d equal-cost rule choices",
		a.Lines, a.Mismatches, a.Details, a.CELDetails, a.Exit, a.CostTies)
}

type pair struct{ typ, field string }

// contributedDetail is the apiserver's error on the costliest rules of a
// schema whose total estimated cost exceeds the limit.
const contributedDetail = "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"

// costTie reports whether two answers differ only in which fields carry
// the contributedDetail error, as many on each side: among rules of equal
// cost the apiserver names those it meets first in its random map order,
// so both answers are the apiserver's.
func costTie(want, got []errorLine) bool {
	split := func(errs []errorLine) (map[pair]bool, int) {
		rest, n := map[pair]bool{}, 0
		for _, e := range errs {
			if e.Type == "FieldValueForbidden" && e.Detail == contributedDetail {
				n++
				continue
			}
			rest[pair{e.Type, e.Field}] = true
		}
		return rest, n
	}
	wr, wn := split(want)
	gr, gn := split(got)
	return wn > 0 && wn == gn && reflect.DeepEqual(wr, gr)
}

func pairSet(errs []errorLine) map[pair]bool {
	m := map[pair]bool{}
	for _, e := range errs {
		m[pair{e.Type, e.Field}] = true
	}
	return m
}

func sortErrors(errs []errorLine) []errorLine {
	out := append([]errorLine(nil), errs...)
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		return a.Detail < b.Detail
	})
	return out
}

var celCompile = regexp.MustCompile(`compil`)

// compareDetails reports whether the details of two error lists with the same
// (type, field) pairs agree, and whether all differences are in CEL
// compilation errors.
func compareDetails(exp, got []errorLine) (same, celOnly bool) {
	e, g := sortErrors(exp), sortErrors(got)
	if len(e) == len(g) {
		// Answers recorded before docs/cli.md gave Duplicate errors the
		// duplicated value as detail have an empty one there: the
		// apiserver's own detail. The value is then not compared.
		e = slices.Clone(e)
		for i := range e {
			if e[i].Type == "FieldValueDuplicate" && e[i].Detail == "" && g[i].Type == e[i].Type && g[i].Field == e[i].Field {
				e[i].Detail = g[i].Detail
			}
		}
	}
	if reflect.DeepEqual(e, g) {
		return true, false
	}
	if len(e) != len(g) {
		return false, false
	}
	celOnly = true
	for i := range e {
		if e[i] != g[i] && !(celCompile.MatchString(e[i].Detail) && celCompile.MatchString(g[i].Detail)) && !celEvaluationOrder(e[i], g[i]) {
			celOnly = false
		}
	}
	return false, celOnly
}

// celEvaluationOrder reports whether two errors of the same type and field
// differ only as two runs of the apiserver's CEL evaluation may: a rule
// comparing objects (self == oldSelf) meets their entries in map order,
// so it may fail plainly or on an entry whose value does not fit the
// schema ("invalid data, ... evaluating rule: <message>").
func celEvaluationOrder(a, b errorLine) bool {
	return a.Type == b.Type && a.Field == b.Field &&
		(strings.Contains(a.Detail, " evaluating rule: ") || strings.Contains(b.Detail, " evaluating rule: "))
}

func routingOnly(errs []errorLine) bool {
	for _, e := range errs {
		if e.Field != "kind" && e.Field != "apiVersion" {
			return false
		}
	}
	return true
}

// compareOutputs compares output lines by the rules of the conformance
// README, logging every difference through logf.
func compareOutputs(check bool, expData, gotData []byte, logf func(string, ...interface{})) tally {
	var tl tally
	exp, err := parseLines(expData)
	if err != nil {
		logf("expected output: %v", err)
		tl.Mismatches++
		return tl
	}
	got, err := parseLines(gotData)
	if err != nil {
		logf("oracle output: %v", err)
		tl.Mismatches++
		return tl
	}
	gotBy := map[lineKey]outputLine{}
	for _, g := range got {
		gotBy[lineKey{g.File, g.Document}] = g
	}
	seen := map[lineKey]bool{}
	for _, e := range exp {
		k := lineKey{e.File, e.Document}
		seen[k] = true
		tl.Lines++
		g, ok := gotBy[k]
		if !ok {
			tl.Mismatches++
			logf("%s document %d: missing", e.File, e.Document)
			continue
		}
		var problems []string
		if e.Operation != g.Operation {
			problems = append(problems, fmt.Sprintf("operation %q, want %q", g.Operation, e.Operation))
		}
		checkPairs := true
		if check {
			if e.Warnings != nil && !reflect.DeepEqual(e.Warnings, g.Warnings) {
				problems = append(problems, fmt.Sprintf("warnings %q, want %q", g.Warnings, e.Warnings))
			}
			if e.Kind != g.Kind || e.Name != g.Name {
				problems = append(problems, fmt.Sprintf("kind/name %s %q, want %s %q", g.Kind, g.Name, e.Kind, e.Name))
			}
		} else if e.Object == nil {
			checkPairs = false
			switch {
			case g.Object != nil:
				problems = append(problems, "object should be null")
			case len(g.Errors) == 0:
				problems = append(problems, "an object that is null needs an error")
			case !routingOnly(e.Errors):
				common := false
				gp := pairSet(g.Errors)
				for p := range pairSet(e.Errors) {
					common = common || gp[p]
				}
				if !common {
					problems = append(problems, fmt.Sprintf("rejected with errors %v, want one of %v", g.Errors, e.Errors))
				}
			}
		} else {
			if !reflect.DeepEqual(e.Object, g.Object) {
				eb, _ := json.Marshal(e.Object)
				gb, _ := json.Marshal(g.Object)
				problems = append(problems, fmt.Sprintf("object\n\tgot  %s\n\twant %s", gb, eb))
			}
			if !reflect.DeepEqual(append([]string{}, e.Pruned...), append([]string{}, g.Pruned...)) {
				problems = append(problems, fmt.Sprintf("pruned %q, want %q", g.Pruned, e.Pruned))
			}
		}
		if checkPairs && !reflect.DeepEqual(pairSet(e.Errors), pairSet(g.Errors)) && costTie(e.Errors, g.Errors) {
			tl.CostTies++
			continue
		}
		if checkPairs && !reflect.DeepEqual(pairSet(e.Errors), pairSet(g.Errors)) {
			problems = append(problems, fmt.Sprintf("errors\n\tgot  %v\n\twant %v", sortErrors(g.Errors), sortErrors(e.Errors)))
		}
		if len(problems) > 0 {
			tl.Mismatches++
			logf("%s document %d: %s", e.File, e.Document, strings.Join(problems, "; "))
			continue
		}
		if !reflect.DeepEqual(pairSet(e.Errors), pairSet(g.Errors)) {
			continue // a rejected or unroutable object with other, admissible errors
		}
		if same, celOnly := compareDetails(e.Errors, g.Errors); !same {
			if celOnly {
				tl.CELDetails++
			} else {
				tl.Details++
				logf("%s document %d: details\n\tgot  %v\n\twant %v", e.File, e.Document, sortErrors(g.Errors), sortErrors(e.Errors))
			}
		}
	}
	for _, g := range got {
		if k := (lineKey{g.File, g.Document}); !seen[k] {
			tl.Mismatches++
			logf("%s document %d: unexpected line", g.File, g.Document)
		}
	}
	return tl
}

var stderrLocation = regexp.MustCompile(`([^\s:]+):(\d+):`)

// run runs the oracle in dir.
func run(dir string, args []string) (stdout, stderr []byte, status int) {
	var out, errOut bytes.Buffer
	status = oracle.Run(context.Background(), oracle.Env{Dir: dir, Stdout: &out, Stderr: &errOut}, args)
	return out.Bytes(), errOut.Bytes(), status
}

// TestRandomBatches replays every batch of shared/conformance/random-*/ and
// compares the oracle's answers with the apiserver's.
func TestRandomBatches(t *testing.T) {
	shared := sharedDir(t)
	batches, err := filepath.Glob(filepath.Join(shared, "conformance", "random-*", "*", "args.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(batches) == 0 {
		t.Skip("no conformance batches")
	}
	var mu sync.Mutex
	byKind := map[string]*tally{}
	t.Run("batch", func(t *testing.T) {
		for _, argsFile := range batches {
			dir := filepath.Dir(argsFile)
			name := filepath.Base(filepath.Dir(dir)) + "/" + filepath.Base(dir)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				argsData, err := os.ReadFile(argsFile)
				if err != nil {
					t.Fatal(err)
				}
				var args []string
				for _, l := range strings.Split(string(argsData), "\n") {
					if l = strings.TrimRight(l, "\r"); l != "" {
						args = append(args, l)
					}
				}
				expected, err := os.ReadFile(filepath.Join(dir, "expected.jsonl"))
				if err != nil {
					t.Fatal(err)
				}
				exitData, err := os.ReadFile(filepath.Join(dir, "exit.txt"))
				if err != nil {
					t.Fatal(err)
				}
				wantExit, err := strconv.Atoi(strings.TrimSpace(string(exitData)))
				if err != nil {
					t.Fatal(err)
				}
				stdout, stderr, status := run(dir, args)
				tl := compareVerb(args[0], expected, stdout, t.Errorf)
				if status != wantExit {
					tl.Exit++
					t.Errorf("exit status %d, want %d; stderr:\n%s", status, wantExit, stderr)
				}
				if wantStderr, err := os.ReadFile(filepath.Join(dir, "stderr.txt")); err == nil {
					for _, m := range stderrLocation.FindAllStringSubmatch(string(wantStderr), -1) {
						if !strings.Contains(string(stderr), m[0]) {
							tl.Mismatches++
							t.Errorf("standard error does not name %s; got:\n%s", m[0], stderr)
						}
					}
				}
				if tl.CELDetails > 0 {
					t.Logf("%d CEL compile error details differ", tl.CELDetails)
				}
				mu.Lock()
				// The batch's kind is its directory name without the
				// number: crd-update-003 is a crd-update batch.
				base := filepath.Base(dir)
				kind := base[:max(strings.LastIndex(base, "-"), 0)]
				if byKind[kind] == nil {
					byKind[kind] = &tally{}
				}
				byKind[kind].add(tl)
				mu.Unlock()
			})
		}
	})
	var kinds []string
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var total tally
	for _, k := range kinds {
		t.Logf("%-10s %v", k, *byKind[k])
		total.add(*byKind[k])
	}
	t.Logf("%-10s %v", "total", total)
}

// TestCorpus runs the commands of shared/corpus/expected/README.md and
// compares the oracle's answers with the apiserver's.
func TestCorpus(t *testing.T) {
	shared := sharedDir(t)
	if testing.Short() {
		t.Skip("corpus replay skipped in -short mode")
	}
	corpus := filepath.Join(shared, "corpus")
	if _, err := os.Stat(filepath.Join(corpus, "expected")); err != nil {
		t.Skip("no corpus expectations")
	}
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	var crdDirs, projects []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if st, err := os.Stat(filepath.Join(corpus, e.Name(), "crds")); err == nil && st.IsDir() {
			crdDirs = append(crdDirs, e.Name()+"/crds")
		}
		if ex, err := os.ReadDir(filepath.Join(corpus, e.Name(), "examples")); err == nil && len(ex) > 0 {
			projects = append(projects, e.Name())
		}
	}
	sort.Strings(crdDirs)
	sort.Strings(projects)

	files := []struct {
		name string
		run  func() []byte
	}{
		{"check.jsonl", func() []byte {
			out, _, _ := run(corpus, append([]string{"check", "-o", "json"}, crdDirs...))
			return out
		}},
	}
	for _, v := range []struct{ file, verb, flag string }{
		{"prune.jsonl", "prune", ""},
		{"default.jsonl", "default", ""},
		{"apply.jsonl", "apply", ""},
		{"apply-nocel.jsonl", "apply", "--no-cel"},
	} {
		files = append(files, struct {
			name string
			run  func() []byte
		}{v.file, func() []byte {
			var all []byte
			for _, p := range projects {
				args := []string{v.verb, "--crd", p + "/crds", "-o", "json", p + "/examples"}
				if v.flag != "" {
					args = append(args, v.flag)
				}
				out, _, _ := run(corpus, args)
				all = append(all, out...)
			}
			return all
		}})
	}

	var mu sync.Mutex
	results := map[string]tally{}
	t.Run("file", func(t *testing.T) {
		for _, f := range files {
			t.Run(f.name, func(t *testing.T) {
				t.Parallel()
				expected, err := os.ReadFile(filepath.Join(corpus, "expected", f.name))
				if err != nil {
					t.Skipf("%v", err)
				}
				tl := compareOutputs(f.name == "check.jsonl", expected, f.run(), t.Errorf)
				if tl.CELDetails > 0 {
					t.Logf("%d CEL compile error details differ", tl.CELDetails)
				}
				mu.Lock()
				results[f.name] = tl
				mu.Unlock()
			})
		}
	})
	var names []string
	for n := range results {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%-18s %v", n, results[n])
	}
}
