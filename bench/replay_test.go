package bench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/revision"
	"github.com/crdschema/crdschema/schema"
)

// replayCase is one corpus example and the two revisions of its CRD.
type replayCase struct {
	old, new *crdschema.CRD
	obj      map[string]any
}

// replayCorpus is every corpus example of a CRD the apiserver accepts, with
// a new revision of that CRD made by revise (its JSON document, changed in
// place); examples whose kind no CRD of their project defines are left
// out.
func replayCorpus(tb testing.TB, revise func(doc map[string]any)) []replayCase {
	tb.Helper()
	dir := corpusDir()
	if _, err := os.Stat(dir); err != nil {
		corpusMissing(tb, err)
	}
	type pair struct{ old, new *crdschema.CRD }
	pairs := map[[2]string]pair{}
	crdFiles, _ := filepath.Glob(filepath.Join(dir, "*", "crds", "*.yaml"))
	sort.Strings(crdFiles)
	for _, f := range crdFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		old, err := crdschema.LoadCRD(data)
		if err != nil || len(old.Errors()) > 0 {
			continue
		}
		docs, err := schema.ReadDocuments(f, data)
		if err != nil {
			tb.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(docs[0].JSON(), &doc); err != nil {
			tb.Fatal(err)
		}
		revise(doc)
		revised, _ := json.Marshal(doc)
		next, err := crdschema.LoadCRD(revised)
		if err != nil {
			tb.Fatalf("%s revised: %v", f, err)
		}
		if len(next.Errors()) > 0 {
			// The revision the apiserver would reject (a CEL rule now
			// over its cost budget, say) is left out.
			continue
		}
		k := [2]string{filepath.Base(filepath.Dir(filepath.Dir(f))), groupKindOf(old)}
		if _, ok := pairs[k]; !ok {
			pairs[k] = pair{old, next}
		}
	}
	var cases []replayCase
	examples, _ := filepath.Glob(filepath.Join(dir, "*", "examples", "*.yaml"))
	sort.Strings(examples)
	for _, f := range examples {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		docs, err := crdschema.ReadDocuments(f, data)
		if err != nil {
			continue
		}
		project := filepath.Base(filepath.Dir(filepath.Dir(f)))
		for _, d := range docs {
			av, _ := d.Object["apiVersion"].(string)
			kind, _ := d.Object["kind"].(string)
			group := av
			for i := len(av) - 1; i >= 0; i-- {
				if av[i] == '/' {
					group = av[:i]
					break
				}
			}
			if p, ok := pairs[[2]string{project, group + "/" + kind}]; ok {
				cases = append(cases, replayCase{p.old, p.new, d.Object})
			}
		}
	}
	if len(cases) == 0 {
		tb.Fatal("no corpus example to replay")
	}
	return cases
}

func groupKindOf(c *crdschema.CRD) string {
	gk := c.GroupKind()
	return gk.Group + "/" + gk.Kind
}

// reapply leaves the CRD as it is: the revision is the CRD re-applied.
func reapply(map[string]any) {}

// addMaxLength gives every string field of every version's schema that
// has no maxLength, enum, format, pattern or default a maxLength of 8 (except the
// root's apiVersion and kind, which ratcheting never covers): a
// tightening that ratcheting lets unchanged objects keep.
func addMaxLength(doc map[string]any) {
	spec, _ := doc["spec"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	for _, v := range versions {
		vm, _ := v.(map[string]any)
		sch, _ := vm["schema"].(map[string]any)
		tightenRoot(sch["openAPIV3Schema"])
	}
	if val, ok := spec["validation"].(map[string]any); ok {
		tightenRoot(val["openAPIV3Schema"])
	}
}

func tightenRoot(v any) {
	root, _ := v.(map[string]any)
	props, _ := root["properties"].(map[string]any)
	for k, p := range props {
		if k != "apiVersion" && k != "kind" {
			tightenStrings(p)
		}
	}
}

func tightenStrings(v any) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	if m["type"] == "string" && m["maxLength"] == nil && m["enum"] == nil && m["format"] == nil && m["pattern"] == nil && m["default"] == nil {
		m["maxLength"] = 8
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for _, p := range props {
			tightenStrings(p)
		}
	}
	tightenStrings(m["items"])
	tightenStrings(m["additionalProperties"])
}

// replayTally counts what a replay of every case found.
type replayTally struct {
	objects, notReplayed, lossy, failUpdate, newUpdate, failCreate, newCreate int
}

func tally(cases []replayCase) replayTally {
	var t replayTally
	ctx := context.Background()
	for _, c := range cases {
		r := revision.Replay(ctx, c.old, c.new, c.obj)
		t.objects++
		if len(r.Errors) > 0 {
			t.notReplayed++
			continue
		}
		t.lossy += b2i(len(r.Losses) > 0)
		t.failUpdate += b2i(len(r.Update) > 0)
		t.newUpdate += b2i(len(r.Update) > 0 && len(r.OldUpdate) == 0)
		t.failCreate += b2i(len(r.Create) > 0)
		t.newCreate += b2i(len(r.Create) > 0 && len(r.OldCreate) == 0)
	}
	return t
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestReplayReapply: a CRD re-applied as its own new revision does
// nothing to any corpus example: no loss, no new failure (what fails
// already fails under both).
func TestReplayReapply(t *testing.T) {
	t.Parallel()
	got := tally(replayCorpus(t, reapply))
	t.Logf("re-apply: %+v", got)
	if got.lossy+got.newUpdate+got.newCreate > 0 {
		t.Errorf("re-applying the same CRD changes something: %+v", got)
	}
}

// TestReplayMaxLength: a maxLength added to every string field is
// ratcheted for every unchanged corpus example (no new update failure)
// and loses nothing; creates of long values newly fail.
func TestReplayMaxLength(t *testing.T) {
	t.Parallel()
	got := tally(replayCorpus(t, addMaxLength))
	t.Logf("maxLength 8: %+v", got)
	if got.lossy+got.newUpdate > 0 {
		t.Errorf("a maxLength loses data or fails unchanged updates: %+v", got)
	}
	if got.newCreate == 0 {
		t.Errorf("no create newly fails: %+v", got)
	}
}

// BenchmarkReplay replays every corpus example under a new revision of its
// CRD (revision.Replay: the store under the old revision, reads at every
// served version under both, the unchanged update and the create under
// both): the CRD re-applied (reapply) and every string field given a
// maxLength (maxlength).
func BenchmarkReplay(b *testing.B) {
	for _, bc := range []struct {
		name   string
		revise func(map[string]any)
	}{{"reapply", reapply}, {"maxlength", addMaxLength}} {
		b.Run(bc.name+"/crdschema", func(b *testing.B) {
			cases := replayCorpus(b, bc.revise)
			t := tally(cases) // compiles every schema once, outside the timer
			b.ReportAllocs()
			b.ResetTimer()
			ctx := context.Background()
			for b.Loop() {
				for _, c := range cases {
					revision.Replay(ctx, c.old, c.new, c.obj)
				}
			}
			b.ReportMetric(float64(len(cases)*b.N)/b.Elapsed().Seconds(), "objects/s")
			b.ReportMetric(float64(t.lossy), "lossy")
			b.ReportMetric(float64(t.newUpdate), "new-update-fails")
			b.ReportMetric(float64(t.newCreate), "new-create-fails")
		})
	}
}
