package diff

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema/conformance/gen"
)

// The crdschema command and the oracle, built once for the package's
// tests, or prebuilt ones named by DIFFTEST_CRDSCHEMA and DIFFTEST_ORACLE
// (.ci/run builds them once for these tests and for cmd/difftest).
var (
	buildOnce    sync.Once
	buildDir     string
	built        [2]string
	buildErr     error
	prebuiltEnvs = [2]string{"DIFFTEST_CRDSCHEMA", "DIFFTEST_ORACLE"}
)

func commands(t *testing.T) (crdschema, oracle string) {
	t.Helper()
	if c, o := os.Getenv(prebuiltEnvs[0]), os.Getenv(prebuiltEnvs[1]); c != "" && o != "" {
		return c, o
	}
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "difftest-bin"); buildErr == nil {
			built[0], built[1], buildErr = Build(buildDir)
		}
	})
	if buildErr != nil {
		t.Fatalf("cannot build the commands: %v", buildErr)
	}
	return built[0], built[1]
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// TestDifferential runs 200 random cases with a fixed seed through both the
// crdschema command and the oracle and fails on any mismatch. Set
// DIFFTEST_KEEP to a directory to get minimal reproducers.
func TestDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("differential test builds both commands: skipped with -short")
	}
	c, o := commands(t)
	var log strings.Builder
	res, err := Run(Options{Seed: 20261121, N: 200, Crdschema: c, Oracle: o, Keep: os.Getenv("DIFFTEST_KEEP"), Shrink: 100, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cases != 200 {
		t.Errorf("ran %d cases, want 200", res.Cases)
	}
	if res.Mismatched > 0 {
		t.Errorf("%s", log.String())
	}
}

// TestDifferentialRevisions runs 120 random cases of the third edition's
// check batches (warnings: formats and sets at any depth; crd-update:
// check --old on random stored CRDs and edits of them) through both
// commands and fails on any mismatch.
func TestDifferentialRevisions(t *testing.T) {
	if testing.Short() {
		t.Skip("differential test builds both commands: skipped with -short")
	}
	c, o := commands(t)
	var log strings.Builder
	res, err := Run(Options{Seed: 20261125, N: 120, Verbs: gen.RevisionVerbs, Crdschema: c, Oracle: o, Keep: os.Getenv("DIFFTEST_KEEP"), Shrink: 100, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cases != 120 {
		t.Errorf("ran %d cases, want 120", res.Cases)
	}
	if res.Mismatched > 0 {
		t.Errorf("%s", log.String())
	}
}

// TestShrinkHelpers checks the tree edits the minimiser relies on.
func TestShrinkHelpers(t *testing.T) {
	doc := map[string]any{"a": []any{int64(1), int64(2), map[string]any{"b": "c"}}, "d": "e"}
	var ps [][]any
	paths(doc, nil, &ps)
	if len(ps) != 6 {
		t.Fatalf("paths: got %d, want 6: %v", len(ps), ps)
	}
	got := without(doc, []any{"a", 1})
	if l := got.(map[string]any)["a"].([]any); len(l) != 2 || l[1].(map[string]any)["b"] != "c" {
		t.Errorf("without list element: %v", got)
	}
	if len(doc["a"].([]any)) != 3 {
		t.Errorf("without changed its input: %v", doc)
	}
	if got := without(doc, []any{"d"}); len(got.(map[string]any)) != 1 {
		t.Errorf("without key: %v", got)
	}
}

// TestNormPath checks the grouping of paths into mismatch classes.
func TestNormPath(t *testing.T) {
	for in, want := range map[string]string{
		"spec.validation.openAPIV3Schema.properties[foo].properties[bar].type": "spec.validation.openAPIV3Schema.properties[].type",
		"spec.foo.bar[0].metadata.name":                                        "spec.*.*[].metadata.name",
		"":                                                                     `""`,
	} {
		if got := normPath(in); got != want {
			t.Errorf("normPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWithoutCrashedDocuments checks that only the case files the oracle
// could not answer are set aside, with the exit-status difference.
func TestWithoutCrashedDocuments(t *testing.T) {
	ds := []Diff{
		{Key: "f0001.yaml#0", Class: "check: extra document in crdschema's output"},
		{Key: "f0002.yaml#0", Class: "check: crdschema lacks FieldValueInvalid at x"},
		{Key: "*", Class: "check: exit status 0 (oracle) vs 1 (crdschema)"},
	}
	stderr := []byte("oracle: crashed: f0001.yaml#0: panic: boom\nsomething else\n")
	kept, skipped := withoutCrashedDocuments(ds, stderr)
	if len(kept) != 1 || kept[0].Key != "f0002.yaml#0" {
		t.Errorf("kept %v, want only f0002.yaml#0", kept)
	}
	if len(skipped) != 1 || skipped["f0001.yaml"] != "panic: boom" {
		t.Errorf("skipped %v, want f0001.yaml with its reason", skipped)
	}
	if kept, skipped := withoutCrashedDocuments(ds, []byte("no crash\n")); len(kept) != 3 || skipped != nil {
		t.Errorf("without crash lines: kept %d, skipped %v; want all 3 kept", len(kept), skipped)
	}
}

func TestDefaultCoercionTie(t *testing.T) {
	const d = "spec.versions[2].schema.openAPIV3Schema.default"
	common := fieldError{Type: "FieldValueInvalid", Field: d, Detail: "must not have unknown fields"}
	meta := fieldError{Type: "FieldValueInvalid", Field: d + ".metadata"}
	nested := fieldError{Type: "FieldValueInvalid", Field: d + ".status.alpha.apiVersion"}
	other := fieldError{Type: "FieldValueInvalid", Field: "spec.versions[1].schema.openAPIV3Schema.default.metadata"}
	for _, c := range []struct {
		name     string
		exp, got []fieldError
		want     bool
	}{
		{"two resources of one default", []fieldError{common, nested}, []fieldError{common, meta}, true},
		{"the same error", []fieldError{common, meta}, []fieldError{common, meta}, false},
		{"defaults of two versions", []fieldError{common, other}, []fieldError{common, meta}, false},
		{"a missing error", []fieldError{common, meta}, []fieldError{common}, false},
		{"not a coercion error", []fieldError{{Type: "FieldValueRequired", Field: d + ".kind"}}, []fieldError{meta}, false},
		{"a bare schema's root default", []fieldError{{Type: "FieldValueInvalid", Field: "default.apiVersion"}}, []fieldError{{Type: "FieldValueInvalid", Field: "default.metadata"}}, true},
		{"not below a default", []fieldError{{Type: "FieldValueInvalid", Field: "spec.defaultx.metadata"}}, []fieldError{{Type: "FieldValueInvalid", Field: "spec.defaultx.kind"}}, false},
	} {
		if got := defaultCoercionTie(c.exp, c.got); got != c.want {
			t.Errorf("%s: defaultCoercionTie = %v, want %v", c.name, got, c.want)
		}
	}
}
