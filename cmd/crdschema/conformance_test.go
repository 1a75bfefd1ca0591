package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema/internal/shareddata"
)

// requireShared returns the shared test data beside the checkout, with its
// conformance batches; the test skips without it (fails in CI: see package
// shareddata).
func requireShared(t *testing.T) string {
	t.Helper()
	shareddata.Dir(t, "conformance")
	abs, err := filepath.Abs(shareddata.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// line is one line of the contract's JSON output, for any verb.
type line struct {
	File     string          `json:"file"`
	Document int             `json:"document"`
	Kind     string          `json:"kind"`
	Name     string          `json:"name"`
	Object   json.RawMessage `json:"object"`
	Pruned   []string        `json:"pruned"`
	Errors   []jsonError     `json:"errors"`
	// Operation is CREATE or UPDATE on lines of apply --old and check
	// --old.
	Operation string `json:"operation"`
	// Warnings are check's warnings (third edition); nil in answers
	// recorded before.
	Warnings []string `json:"warnings"`
}

func parseLines(t *testing.T, data []byte) []line {
	t.Helper()
	var out []line
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("bad JSON line %q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	return out
}

// errorFilter selects the errors a comparison looks at.
type errorFilter func(l line, e jsonError) bool

func allErrors(line, jsonError) bool { return true }

// schemaErrors keeps the errors under openAPIV3Schema and every error of a
// bare schema: what the schema-level check is answerable for.
func schemaErrors(l line, e jsonError) bool {
	return l.Kind == "Schema" || strings.Contains(e.Field, "openAPIV3Schema")
}

// tally counts a comparison's outcome.
type tally struct {
	docs, mismatches, detailDiffs int
	// costTies counts documents whose errors differ only in which rules
	// are named as contributing to a schema's excessive total cost, among
	// rules of equal cost: the apiserver picks among those in its random
	// map order, so either answer is the apiserver's.
	costTies int
	// duplicateValues counts Duplicate errors whose recorded detail is
	// empty and whose detail here is the duplicated value (docs/cli.md).
	duplicateValues int
	examples        []string
}

func (tl *tally) fail(format string, args ...any) {
	tl.mismatches++
	if len(tl.examples) < 15 {
		tl.examples = append(tl.examples, fmt.Sprintf(format, args...))
	}
}

// selfTypeName matches the type name the apiserver generates for a rule's
// self (selfType followed by the nanoseconds of the compile time), which
// differs on every compilation.
var selfTypeName = regexp.MustCompile(`selfType[0-9]+`)

func pairSet(l line, errs []jsonError, keep errorFilter) map[string]string {
	m := map[string]string{}
	for _, e := range errs {
		if keep(l, e) {
			m[e.Type+" "+e.Field] = selfTypeName.ReplaceAllString(e.Detail, "selfType")
		}
	}
	return m
}

// compareLines compares got with want by the rules of the shared
// conformance README.
func compareLines(verb string, got, want []line, keep errorFilter, tl *tally) {
	key := func(l line) string { return l.File + "#" + strconv.Itoa(l.Document) }
	gm := map[string]line{}
	for _, l := range got {
		gm[key(l)] = l
	}
	for _, w := range want {
		tl.docs++
		g, ok := gm[key(w)]
		if !ok {
			tl.fail("%s: missing output line", key(w))
			continue
		}
		compareLine(verb, key(w), g, w, keep, tl)
	}
}

// compareLine compares the line got with the line want of document k.
func compareLine(verb, k string, g, w line, keep errorFilter, tl *tally) {
	if g.Operation != w.Operation {
		tl.fail("%s: operation %q, want %q", k, g.Operation, w.Operation)
		return
	}
	if w.Warnings != nil && !slices.Equal(g.Warnings, w.Warnings) {
		tl.fail("%s: warnings %q, want %q", k, g.Warnings, w.Warnings)
		return
	}
	wp, gp := pairSet(w, w.Errors, keep), pairSet(w, g.Errors, keep)
	if isCheckVerb(verb) {
		if g.Kind != w.Kind || g.Name != w.Name {
			tl.fail("%s: kind/name %s/%s, want %s/%s", k, g.Kind, g.Name, w.Kind, w.Name)
			return
		}
	} else if done := compareObject(k, g, w, wp, gp, tl); done {
		return
	}
	if !sameKeys(wp, gp) && costTie(w, g, keep) {
		tl.costTies++
		return
	}
	if !sameKeys(wp, gp) {
		tl.fail("%s: errors\n got %v\nwant %v", k, slices.Sorted(maps.Keys(gp)), slices.Sorted(maps.Keys(wp)))
		return
	}
	compareDetails(k, wp, gp, tl)
}

// compareObject compares the objects and pruned lists of an object verb's
// lines; done is set when the comparison of the line is over (a mismatch,
// or a rejected object whose errors were checked).
func compareObject(k string, g, w line, wp, gp map[string]string, tl *tally) (done bool) {
	wantNull := len(w.Object) == 0 || string(w.Object) == "null"
	gotNull := len(g.Object) == 0 || string(g.Object) == "null"
	switch {
	case wantNull != gotNull:
		tl.fail("%s: object null=%v, want null=%v (errors %v, want %v)", k, gotNull, wantNull, g.Errors, w.Errors)
	case wantNull:
		// Rejected or unroutable: one of the expected errors suffices,
		// with the same pruned list (a read that fails lists what it
		// pruned before).
		if !reflect.DeepEqual(nonNil(g.Pruned), nonNil(w.Pruned)) {
			tl.fail("%s: pruned %q, want %q (rejected)", k, g.Pruned, w.Pruned)
			return true
		}
		for p := range gp {
			if _, ok := wp[p]; ok {
				return true
			}
		}
		tl.fail("%s: errors %v, want one of %v", k, g.Errors, w.Errors)
	case !jsonEqual(g.Object, w.Object):
		tl.fail("%s: object\n got %s\nwant %s", k, g.Object, w.Object)
	case !reflect.DeepEqual(nonNil(g.Pruned), nonNil(w.Pruned)):
		tl.fail("%s: pruned %q, want %q", k, g.Pruned, w.Pruned)
	default:
		return false
	}
	return true
}

// compareDetails counts the errors whose detail wording differs.
func compareDetails(k string, wp, gp map[string]string, tl *tally) {
	for p, d := range wp {
		if d == "" && gp[p] != "" && strings.HasPrefix(p, "FieldValueDuplicate ") {
			// Recorded before docs/cli.md gave Duplicate errors the
			// duplicated value as detail: the apiserver's own detail
			// is empty. Counted apart, not as a wording difference.
			tl.duplicateValues++
			continue
		}
		if gp[p] != d {
			if os.Getenv("DETAILDEBUG") != "" {
				fmt.Printf("DETAIL %s %s\n got %s\nwant %s\n", k, p, gp[p], d)
			}
			tl.detailDiffs++
		}
	}
}

// isCheckVerb reports whether batches of verb (a batch name's prefix) are
// check runs: per document errors, no objects.
func isCheckVerb(verb string) bool {
	return verb == "check" || verb == "warnings" || verb == "crd-update"
}

// contributedDetail is the apiserver's error on the costliest rules of a
// schema whose total estimated cost exceeds the limit.
const contributedDetail = "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"

// costTie reports whether got and want differ only in which fields carry
// the contributedDetail error, with as many of them on each side.
func costTie(want, got line, keep errorFilter) bool {
	split := func(errs []jsonError) (rest map[string]bool, contributed int) {
		rest = map[string]bool{}
		for _, e := range errs {
			switch {
			case !keep(want, e):
			case e.Type == "FieldValueForbidden" && e.Detail == contributedDetail:
				contributed++
			default:
				rest[e.Type+" "+e.Field+" "+selfTypeName.ReplaceAllString(e.Detail, "selfType")] = true
			}
		}
		return rest, contributed
	}
	wr, wc := split(want.Errors)
	gr, gc := split(got.Errors)
	return wc > 0 && wc == gc && maps.Equal(wr, gr)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func sameKeys(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

// jsonEqual compares two JSON documents as values (1 equals 1.0).
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// runIn runs the command with args inside dir and returns stdout and
// status, without changing the working directory (so that the replays run
// in parallel): the operands that name files or directories in dir are
// given as absolute paths, and dir's prefix is taken out of the output
// again, which then names them as a run inside dir does. A run is made once
// per test binary: tests that compare the same run with the apiserver's
// answers differently (the check batches and the corpus check: schema
// errors, all errors, warnings) share it.
func runIn(t *testing.T, dir string, args []string) ([]byte, int) {
	t.Helper()
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	key := dir + "\x00" + strings.Join(args, "\x00")
	r, _ := runs.LoadOrStore(key, &ranCommand{})
	rc := r.(*ranCommand)
	rc.once.Do(func() {
		abs := slices.Clone(args)
		var given []string // absolute path, then the operand as given
		for i, a := range args {
			if a == "-" || strings.HasPrefix(a, "-") || filepath.IsAbs(a) {
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, a)); err == nil {
				abs[i] = filepath.Join(dir, a)
				given = append(given, abs[i], filepath.Clean(a))
			}
		}
		var out, errb bytes.Buffer
		rc.status = run(abs, strings.NewReader(""), &out, &errb)
		rc.stdout = asGiven(out.Bytes(), given)
	})
	return rc.stdout, rc.status
}

// asGiven replaces in out each absolute path of pairs (absolute, as given)
// by the path as given, the longest first; below "." a path is named as
// the command names it, without "./".
func asGiven(out []byte, pairs []string) []byte {
	idx := make([]int, 0, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		idx = append(idx, i)
	}
	slices.SortStableFunc(idx, func(a, b int) int { return len(pairs[b]) - len(pairs[a]) })
	for _, i := range idx {
		if pairs[i+1] == "." {
			out = bytes.ReplaceAll(out, []byte(pairs[i]+string(filepath.Separator)), nil)
		}
		out = bytes.ReplaceAll(out, []byte(pairs[i]), []byte(pairs[i+1]))
	}
	return out
}

// runs holds the runs of runIn by directory and arguments.
var runs sync.Map

type ranCommand struct {
	once   sync.Once
	stdout []byte
	status int
}

// replayBatches replays every batch of the given verb and returns the tally.
func replayBatches(t *testing.T, verb string, keep errorFilter) *tally {
	shared := requireShared(t)
	dirs, _ := filepath.Glob(filepath.Join(shared, "conformance", "random-*", verb+"-*"))
	if len(dirs) == 0 {
		shareddata.Missing(t, filepath.Join(shared, "conformance", "random-*", verb+"-*"))
	}
	return replayDirs(t, verb, dirs, keep)
}

// replayDirs replays batch folders (args.txt, expected.jsonl, exit.txt).
func replayDirs(t *testing.T, verb string, dirs []string, keep errorFilter) *tally {
	tl := &tally{}
	for _, dir := range dirs {
		argsData, err := os.ReadFile(filepath.Join(dir, "args.txt"))
		if err != nil {
			t.Fatal(err)
		}
		args := strings.Fields(string(argsData))
		wantData, _ := os.ReadFile(filepath.Join(dir, "expected.jsonl"))
		exitData, _ := os.ReadFile(filepath.Join(dir, "exit.txt"))
		wantExit, _ := strconv.Atoi(strings.TrimSpace(string(exitData)))
		got, status := runIn(t, dir, args)
		name := filepath.Base(dir)
		if (status == 2) != (wantExit == 2) || (keep == nil && status != wantExit) {
			tl.fail("%s: exit %d, want %d", name, status, wantExit)
		}
		before := len(tl.examples)
		compareLines(verb, parseLines(t, got), parseLines(t, wantData), orAll(keep), tl)
		for i := before; i < len(tl.examples); i++ {
			tl.examples[i] = name + "/" + tl.examples[i]
		}
	}
	return tl
}

func orAll(f errorFilter) errorFilter {
	if f == nil {
		return allErrors
	}
	return f
}

func report(t *testing.T, what string, tl *tally) {
	t.Helper()
	t.Logf("%s: %d documents, %d mismatches, %d detail differences (besides %d duplicated values in Duplicate details), %d equal-cost choices of the rules contributing to an excessive total cost", what, tl.docs, tl.mismatches, tl.detailDiffs, tl.duplicateValues, tl.costTies)
	for _, e := range tl.examples {
		t.Log(e)
	}
	if tl.mismatches > 0 {
		t.Errorf("%s: %d of %d documents differ from the apiserver's answers", what, tl.mismatches, tl.docs)
	}
}

// TestConformanceCheckSchemaErrors replays the check batches comparing the
// schema-level errors (under openAPIV3Schema, and all errors of bare
// schemas) and exit 2.
func TestConformanceCheckSchemaErrors(t *testing.T) {
	t.Parallel()
	report(t, "check batches (schema errors)", replayBatches(t, "check", schemaErrors))
}

// TestConformanceCheck replays the check batches comparing every error and
// the exit status.
func TestConformanceCheck(t *testing.T) {
	t.Parallel()
	report(t, "check batches", replayBatches(t, "check", nil))
}

// TestConformancePrune replays the prune batches.
func TestConformancePrune(t *testing.T) {
	t.Parallel()
	report(t, "prune batches", replayBatches(t, "prune", nil))
}

// TestConformanceDefault replays the default batches.
func TestConformanceDefault(t *testing.T) {
	t.Parallel()
	report(t, "default batches", replayBatches(t, "default", nil))
}

// TestConformanceUpdate replays the update batches (apply --old, some
// with --subresource status).
func TestConformanceUpdate(t *testing.T) {
	t.Parallel()
	report(t, "update batches", replayBatches(t, "update", nil))
}

// TestConformanceApply replays the apply batches.
func TestConformanceApply(t *testing.T) {
	t.Parallel()
	report(t, "apply batches", replayBatches(t, "apply", nil))
}

// TestConformanceWarnings replays the warnings batches: check with the
// apiserver's warnings.
func TestConformanceWarnings(t *testing.T) {
	t.Parallel()
	report(t, "warnings batches", replayBatches(t, "warnings", nil))
}

// TestConformanceCRDUpdate replays the crd-update batches: check --old,
// random edits of stored CRDs.
func TestConformanceCRDUpdate(t *testing.T) {
	t.Parallel()
	report(t, "crd-update batches", replayBatches(t, "crd-update", nil))
}

// TestCorpusCRDReapply replays every corpus CRD applied again over itself
// (check --old): all are accepted, the 21 a create rejects included.
func TestCorpusCRDReapply(t *testing.T) {
	t.Parallel()
	dir := shareddata.Dir(t, "conformance", "corpus-20261125", "crd-update-reapply")
	tl := replayDirs(t, "crd-update", []string{dir}, nil)
	report(t, "corpus re-apply", tl)
	if tl.docs != 326 {
		t.Errorf("%d corpus CRDs replayed, want 326", tl.docs)
	}
}

// TestCorpusWarnings compares the warnings and errors of every corpus CRD
// with the apiserver's (expected/warnings.jsonl).
func TestCorpusWarnings(t *testing.T) {
	t.Parallel()
	corpus := filepath.Join(requireShared(t), "corpus")
	want, err := os.ReadFile(filepath.Join(corpus, "expected", "warnings.jsonl"))
	if err != nil {
		shareddata.Missing(t, err.Error())
	}
	dirs, _ := filepath.Glob(filepath.Join(corpus, "*", "crds"))
	args := []string{"check", "-o", "json"}
	for _, d := range dirs {
		rel, _ := filepath.Rel(corpus, d)
		args = append(args, rel)
	}
	got, _ := runIn(t, corpus, args)
	tl := &tally{}
	wantLines := parseLines(t, want)
	compareLines("check", parseLines(t, got), wantLines, allErrors, tl)
	report(t, "corpus warnings", tl)
	withWarnings := 0
	for _, l := range wantLines {
		if len(l.Warnings) > 0 {
			withWarnings++
		}
	}
	if withWarnings == 0 {
		t.Error("no corpus CRD has warnings: the comparison tests nothing")
	}
}

// corpusProjects lists the corpus projects that have examples, in the order
// the expected files were produced.
func corpusProjects(t *testing.T, corpus string) []string {
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "expected" {
			continue
		}
		if ex, _ := os.ReadDir(filepath.Join(corpus, e.Name(), "examples")); len(ex) > 0 {
			out = append(out, e.Name())
		}
	}
	return out
}

func corpusCheck(t *testing.T, keep errorFilter) *tally {
	corpus := filepath.Join(requireShared(t), "corpus")
	want, err := os.ReadFile(filepath.Join(corpus, "expected", "check.jsonl"))
	if err != nil {
		shareddata.Missing(t, err.Error())
	}
	dirs, _ := filepath.Glob(filepath.Join(corpus, "*", "crds"))
	args := []string{"check", "-o", "json"}
	for _, d := range dirs {
		rel, _ := filepath.Rel(corpus, d)
		args = append(args, rel)
	}
	got, _ := runIn(t, corpus, args)
	tl := &tally{}
	compareLines("check", parseLines(t, got), parseLines(t, want), keep, tl)
	return tl
}

// TestCorpusCheckSchemaErrors compares the schema-level errors of every
// corpus CRD with the apiserver's.
func TestCorpusCheckSchemaErrors(t *testing.T) {
	t.Parallel()
	report(t, "corpus check (schema errors)", corpusCheck(t, schemaErrors))
}

// TestCorpusCheck compares every error of every corpus CRD.
func TestCorpusCheck(t *testing.T) {
	t.Parallel()
	report(t, "corpus check", corpusCheck(t, allErrors))
}

func corpusVerb(t *testing.T, verb, expected string, extra ...string) *tally {
	corpus := filepath.Join(requireShared(t), "corpus")
	want, err := os.ReadFile(filepath.Join(corpus, "expected", expected))
	if err != nil {
		shareddata.Missing(t, err.Error())
	}
	var got []byte
	for _, p := range corpusProjects(t, corpus) {
		args := append([]string{verb}, extra...)
		args = append(args, "--crd", p+"/crds", "-o", "json", p+"/examples")
		out, _ := runIn(t, corpus, args)
		got = append(got, out...)
	}
	wantLines := parseLines(t, want)
	tl := &tally{}
	compareLines(verb, parseLines(t, got), wantLines, allErrors, tl)
	return tl
}

// TestCorpusPrune compares pruning every corpus example with the apiserver.
func TestCorpusPrune(t *testing.T) {
	t.Parallel()
	report(t, "corpus prune", corpusVerb(t, "prune", "prune.jsonl"))
}

// TestCorpusDefault compares defaulting every corpus example.
func TestCorpusDefault(t *testing.T) {
	t.Parallel()
	report(t, "corpus default", corpusVerb(t, "default", "default.jsonl"))
}

// TestCorpusApply compares apply of every corpus example with the
// apiserver's answers for the real CRDs, CEL rules included.
func TestCorpusApply(t *testing.T) {
	t.Parallel()
	report(t, "corpus apply", corpusVerb(t, "apply", "apply.jsonl"))
}

// TestRegressions replays the differences the differential tester found,
// fixed since: testdata/regressions/<case>/ holds the inputs, the arguments
// and the oracle's (the apiserver code's) answers, in the batch format. A
// case whose inputs are shared findings names them in shared.txt instead
// ("<file> <path under ../shared>" a line); it runs in a temporary copy
// with those files, and skips saying so without ../shared.
func TestRegressions(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "regressions"))
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := filepath.Glob(filepath.Join(root, "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no regression cases found: %v", err)
	}
	for _, abs := range dirs {
		t.Run(filepath.Base(abs), func(t *testing.T) {
			dir := withSharedInputs(t, abs)
			args, err := os.ReadFile(filepath.Join(dir, "args.txt"))
			if err != nil {
				t.Fatal(err)
			}
			verb := strings.Fields(string(args))[0]
			report(t, filepath.Base(abs), replayDirs(t, verb, []string{dir}, nil))
		})
	}
}

// withSharedInputs returns dir, or, when dir has a shared.txt, a
// temporary copy of dir holding the shared files it names, one a line:
// "<file> <path under ../shared> <sha256>" (see sharedFile).
func withSharedInputs(t *testing.T, dir string) string {
	t.Helper()
	list, err := os.ReadFile(filepath.Join(dir, "shared.txt"))
	if errors.Is(err, fs.ErrNotExist) {
		return dir
	}
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(t.TempDir(), filepath.Base(dir))
	if err := os.CopyFS(tmp, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(list)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != filepath.Base(f[0]) {
			t.Fatalf("%s/shared.txt: %q is not \"<file> <path under ../shared> <sha256>\"", dir, line)
		}
		if err := os.WriteFile(filepath.Join(tmp, f[0]), sharedFile(t, f[1], f[2]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return tmp
}

// sharedFile returns the contents of the file at path (slash-separated,
// under ../shared) that a test's goldens were written from. Without it
// the test is skipped saying so (it fails under CRDSCHEMA_REQUIRE_SHARED=1);
// a file whose sha256 is not sum fails it: the goldens would no longer be
// the answers for their inputs.
func sharedFile(t *testing.T, path, sum string) []byte {
	t.Helper()
	p, ok := shareddata.Path(strings.Split(path, "/")...)
	if !ok {
		shareddata.Missing(t, p)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := sha256.Sum256(data); hex.EncodeToString(got[:]) != sum {
		t.Fatalf("the shared file %s changed (sha256 %x; the goldens were written from %s)", path, got, sum)
	}
	return data
}

// TestConformanceConvert replays the convert batches: the public random
// set (multi-version CRDs, strategies None and Webhook) and every corpus
// example read at each served version of its project's CRDs.
func TestConformanceConvert(t *testing.T) {
	t.Parallel()
	report(t, "convert batches", replayBatches(t, "convert", nil))
	shared := requireShared(t)
	dirs, _ := filepath.Glob(filepath.Join(shared, "conformance", "corpus-*", "convert-*"))
	if len(dirs) == 0 {
		shareddata.Missing(t, filepath.Join(shared, "conformance", "corpus-*", "convert-*"))
	}
	report(t, "corpus convert batches", replayDirs(t, "convert", dirs, nil))
}

// TestConformanceReview replays the convert --review batches: the
// converted objects equal as JSON, the same (type, field) error pairs.
func TestConformanceReview(t *testing.T) {
	t.Parallel()
	report(t, "review batches", replayReviewBatches(t))
}

// reviewLine is one line of convert --review.
type reviewResult struct {
	File     string          `json:"file"`
	Document int             `json:"document"`
	Objects  json.RawMessage `json:"objects"`
	Errors   []jsonError     `json:"errors"`
}

func replayReviewBatches(t *testing.T) *tally {
	shared := requireShared(t)
	dirs, _ := filepath.Glob(filepath.Join(shared, "conformance", "random-*", "review-*"))
	if len(dirs) == 0 {
		shareddata.Missing(t, filepath.Join(shared, "conformance", "random-*", "review-*"))
	}
	tl := &tally{}
	parse := func(data []byte) map[string]reviewResult {
		m := map[string]reviewResult{}
		for _, l := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) == 0 {
				continue
			}
			var r reviewResult
			if err := json.Unmarshal(l, &r); err != nil {
				t.Fatalf("bad JSON line %q: %v", l, err)
			}
			m[r.File+"#"+strconv.Itoa(r.Document)] = r
		}
		return m
	}
	for _, dir := range dirs {
		argsData, _ := os.ReadFile(filepath.Join(dir, "args.txt"))
		wantData, _ := os.ReadFile(filepath.Join(dir, "expected.jsonl"))
		exitData, _ := os.ReadFile(filepath.Join(dir, "exit.txt"))
		wantExit, _ := strconv.Atoi(strings.TrimSpace(string(exitData)))
		got, status := runIn(t, dir, strings.Fields(string(argsData)))
		name := filepath.Base(dir)
		if status != wantExit {
			tl.fail("%s: exit %d, want %d", name, status, wantExit)
		}
		gm := parse(got)
		for k, w := range parse(wantData) {
			tl.docs++
			g, ok := gm[k]
			switch {
			case !ok:
				tl.fail("%s/%s: missing output line", name, k)
			case !jsonEqual(g.Objects, w.Objects):
				tl.fail("%s/%s: objects\n got %s\nwant %s (errors %v, want %v)", name, k, g.Objects, w.Objects, g.Errors, w.Errors)
			case !sameKeys(pairSet(line{}, g.Errors, allErrors), pairSet(line{}, w.Errors, allErrors)):
				tl.fail("%s/%s: errors\n got %v\nwant %v", name, k, g.Errors, w.Errors)
			default:
				gp, wp := pairSet(line{}, g.Errors, allErrors), pairSet(line{}, w.Errors, allErrors)
				for e, d := range wp {
					if gp[e] != d {
						if os.Getenv("DETAILDEBUG") != "" {
							fmt.Printf("DETAIL %s %s\n got %s\nwant %s\n", k, e, gp[e], d)
						}
						tl.detailDiffs++
					}
				}
			}
		}
	}
	return tl
}
