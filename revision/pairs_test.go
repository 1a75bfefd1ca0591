package revision_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/revision"
)

// pairExpectation is a release pair's expected.json (testdata/pairs/README.md).
type pairExpectation struct {
	Changes []expectedChange `json:"changes"`
}

// expectedChange is one change of a release pair and its right class.
type expectedChange struct {
	CRD      string   `json:"crd"`
	Kind     string   `json:"kind"`
	Versions []string `json:"versions"`
	Field    string   `json:"field"`
	Match    string   `json:"match"`
	Class    string   `json:"class"`
	// Static, when given, is whether the class must come from the
	// schemas alone (true) or from probes (false).
	Static *bool  `json:"static"`
	Reason string `json:"reason"`
}

// loadPairCRDs loads every CRD of a pair's side folder, by name.
func loadPairCRDs(t *testing.T, dir string) map[string]*crdschema.CRD {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	out := map[string]*crdschema.CRD{}
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
			out[c.Name()] = c
		}
	}
	return out
}

// pairChange is a Change with the name of its CRD.
type pairChange struct {
	crd string
	revision.Change
}

// scorePair compares Changes on a release pair with its expected classes:
// the expected changes Changes gets right, the wrong ones (with what it
// said) and the changes it reports that no expected entry names.
func scorePair(t *testing.T, dir string) (right int, wrong, unexpected []string, static, reported int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp pairExpectation
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	got := pairChanges(t, dir)
	used := make([]bool, len(got))
	for _, e := range exp.Changes {
		if said, ok := matchExpected(e, got, used); ok {
			right++
		} else {
			wrong = append(wrong, fmt.Sprintf("%s %s %s %s %q: want %s, got %s", e.CRD, e.Kind, strings.Join(e.Versions, ","), e.Field, e.Match, e.Class, said))
		}
	}
	wrong = append(wrong, probesAgree(t, dir, exp.Changes)...)
	for i, g := range got {
		reported++
		if g.Static {
			static++
		}
		if !used[i] {
			unexpected = append(unexpected, fmt.Sprintf("%s %s %s %s: %s: %s", g.crd, g.Kind, g.Version, g.Path, g.Class, g.Detail))
		}
	}
	return right, wrong, unexpected, static, reported
}

// pairChanges are the changes Changes reports for every CRD of a pair
// both sides have, by CRD name.
func pairChanges(t *testing.T, dir string) []pairChange {
	t.Helper()
	olds, news := loadPairCRDs(t, filepath.Join(dir, "old")), loadPairCRDs(t, filepath.Join(dir, "new"))
	names := make([]string, 0, len(news))
	for name := range news {
		names = append(names, name)
	}
	sort.Strings(names)
	var got []pairChange
	for _, name := range names {
		if olds[name] == nil {
			continue
		}
		for _, c := range revision.Changes(olds[name], news[name]) {
			got = append(got, pairChange{name, c})
		}
	}
	return got
}

// matchExpected marks in used the reported changes e names and reports
// whether they have its class (and its static, when given) in every one
// of its versions; else what they said.
func matchExpected(e expectedChange, got []pairChange, used []bool) (string, bool) {
	versions := e.Versions
	if len(versions) == 0 {
		versions = []string{""}
	}
	var classes []string
	seen := map[string]bool{}
	for i, g := range got {
		if g.crd != e.CRD || g.Kind != e.Kind || g.Path != e.Field || !slices.Contains(versions, g.Version) || !strings.Contains(g.Detail, e.Match) {
			continue
		}
		used[i], seen[g.Version] = true, true
		if e.Static != nil && g.Static != *e.Static {
			classes = append(classes, fmt.Sprintf("static %v", g.Static))
		}
		if !slices.Contains(classes, g.Class) {
			classes = append(classes, g.Class)
		}
	}
	if len(seen) == len(versions) && len(classes) == 1 && classes[0] == e.Class {
		return "", true
	}
	if len(classes) == 0 {
		return "not reported", false
	}
	return strings.Join(classes, ", "), false
}

// probesAgree checks the probes of a pair (probes/*/probe.json, run with
// the apiserver's code by conformance/oracle's TestMadeUpPairProbes)
// against its expected changes: same kind and field, same class.
func probesAgree(t *testing.T, dir string, changes []expectedChange) (bad []string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "probes", "*", "probe.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var p struct{ Kind, Field, Class string }
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if p.Kind == "" || p.Field == "" || p.Class == "" {
			bad = append(bad, fmt.Sprintf("probe %s: kind, field and class are required", f))
			continue
		}
		if !slices.ContainsFunc(changes, func(e expectedChange) bool { return e.Kind == p.Kind && e.Field == p.Field && e.Class == p.Class }) {
			bad = append(bad, fmt.Sprintf("probe %s: no expected %s %s of class %s", f, p.Kind, p.Field, p.Class))
		}
	}
	return bad
}

// scorePairs scores every release pair under root and logs the result.
func scorePairs(t *testing.T, root string) (right, total, static, reported int, bad []string) {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(root, "*", "expected.json"))
	if len(dirs) == 0 {
		t.Fatalf("no release pairs under %s", root)
	}
	for _, f := range dirs {
		dir := filepath.Dir(f)
		r, wrong, unexpected, st, rep := scorePair(t, dir)
		right, total, static, reported = right+r, total+r+len(wrong), static+st, reported+rep
		for _, w := range wrong {
			bad = append(bad, filepath.Base(dir)+": "+w)
		}
		for _, u := range unexpected {
			bad = append(bad, filepath.Base(dir)+": unexpected "+u)
		}
	}
	t.Logf("%s: %d/%d changes classified right; %d of %d reported changes static", root, right, total, static, reported)
	return right, total, static, reported, bad
}

// revisionsEnv names the directory of the real release pairs: fetched
// material, never in the repository (README.md there; the session keeps
// it in /work/notes/30-revisions), with revisions/ (the pairs the fixes of
// issue 30 were developed on) and revisions-heldout/ (the kept-aside
// projects).
const revisionsEnv = "CRDSCHEMA_REVISIONS"

// realPairs is the folder sub of $CRDSCHEMA_REVISIONS; the test is skipped,
// saying so, when the variable is unset or the folder absent (also under
// CRDSCHEMA_REQUIRE_SHARED=1: CI never has the real pairs, and the made-up
// ones of testdata/pairs cover each shape they showed).
func realPairs(t *testing.T, sub string) string {
	t.Helper()
	root := os.Getenv(revisionsEnv)
	if root == "" {
		t.Skipf("%s is not set: the real release pairs (kept outside the repository) are not scored", revisionsEnv)
	}
	dir := filepath.Join(root, sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s=%s has no %s: the real release pairs are not scored", revisionsEnv, root, sub)
	}
	return dir
}

// checkPairs fails the test for every change classified wrong or not
// expected, and, with maxStatic, for more than 5% of the reported changes
// static (the made-up pairs pin instead which of their changes are). It
// returns the number of expected changes.
func checkPairs(t *testing.T, root string, maxStatic bool) int {
	t.Helper()
	_, total, static, reported, bad := scorePairs(t, root)
	for _, b := range bad {
		t.Error(b)
	}
	if maxStatic && static*20 > reported {
		t.Errorf("%d of %d changes static, more than 5%%", static, reported)
	}
	return total
}

// The made-up pairs' expected changes and probes: a pair, a change or a
// probe lost fails TestReleasePairs/made-up.
const (
	madeUpChanges = 62
	madeUpProbes  = 33
)

// checkMadeUpPairs checks the made-up pairs and that none of their
// expected changes or probes is lost.
func checkMadeUpPairs(t *testing.T) {
	root := filepath.Join("testdata", "pairs")
	if total := checkPairs(t, root, false); total != madeUpChanges {
		t.Errorf("%d expected changes in the made-up pairs, want %d", total, madeUpChanges)
	}
	if probes, _ := filepath.Glob(filepath.Join(root, "*", "probes", "*", "probe.json")); len(probes) != madeUpProbes {
		t.Errorf("%d probes in the made-up pairs, want %d", len(probes), madeUpProbes)
	}
}

// TestReleasePairs: on release pairs of CRDs, every change is reported
// with the class the apiserver's code shows, and at most 5% of the
// reported changes are static. "made-up" are ours (testdata/pairs, group
// toys.crdschema.dev: each change kind and class the real pairs showed);
// "real" are consecutive releases of public projects ($CRDSCHEMA_REVISIONS).
func TestReleasePairs(t *testing.T) {
	t.Run("made-up", checkMadeUpPairs)
	t.Run("real", func(t *testing.T) { checkPairs(t, realPairs(t, "revisions"), true) })
}

// TestHeldOutPairs scores the real pairs of the projects issue 30 kept
// aside (revisions-heldout: cert-manager, gateway-api, kueue), whose
// classes were written before the fixes and are never used to develop:
// the score may not drop below heldOutRight.
func TestHeldOutPairs(t *testing.T) {
	right, total, _, _, bad := scorePairs(t, realPairs(t, "revisions-heldout"))
	for _, b := range bad {
		t.Log(b)
	}
	if right < heldOutRight {
		t.Errorf("%d/%d held-out changes right, was %d", right, total, heldOutRight)
	}
}

// heldOutRight is the held-out score when issue 30 closed (13/21 before).
const heldOutRight = 21
