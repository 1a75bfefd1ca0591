package defaulting

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// corpusCase is one corpus example routed to its schema.
type corpusCase struct {
	obj map[string]any
	s   *structural.Schema
}

// loadCorpus routes the corpus examples to the schemas of their projects'
// CRDs (by group, kind and version), with pruned defaults.
func loadCorpus(b *testing.B) []corpusCase {
	b.Helper()
	corpusDir := shareddata.Dir(b, "corpus")
	projects, err := os.ReadDir(corpusDir)
	if err != nil {
		b.Fatal(err)
	}
	var out []corpusCase
	for _, p := range projects {
		if !p.IsDir() {
			continue
		}
		dir := filepath.Join(corpusDir, p.Name())
		schemas := map[string]*structural.Schema{}
		crdFiles, _ := filepath.Glob(filepath.Join(dir, "crds", "*.yaml"))
		for _, f := range crdFiles {
			docs, err := readFile(f)
			if err != nil {
				continue
			}
			for _, d := range docs {
				if d.Object == nil || !model.IsCRD(d.Object) {
					continue
				}
				crd, err := model.DecodeCRD(d.JSON())
				if err != nil {
					continue
				}
				for _, v := range crd.Spec.Versions {
					s, err := structural.New(crd.SchemaFor(v.Name))
					if err != nil || s == nil {
						continue
					}
					schemas[crd.Spec.Group+"/"+v.Name+"/"+crd.Spec.Names.Kind] = PruneDefaults(s, nil)
				}
			}
		}
		exFiles, _ := filepath.Glob(filepath.Join(dir, "examples", "*.yaml"))
		for _, f := range exFiles {
			docs, err := readFile(f)
			if err != nil {
				continue
			}
			for _, d := range docs {
				if d.Object == nil {
					continue
				}
				apiVersion, _ := d.Object["apiVersion"].(string)
				kind, _ := d.Object["kind"].(string)
				if !strings.Contains(apiVersion, "/") {
					apiVersion = "/" + apiVersion
				}
				if s := schemas[apiVersion+"/"+kind]; s != nil {
					out = append(out, corpusCase{d.Object, s})
				}
			}
		}
	}
	if len(out) == 0 {
		b.Skip("no corpus objects routed")
	}
	return out
}

// BenchmarkDefault runs DropNulls and Default over the corpus examples:
// "fresh" on copies of the objects as written ("fresh-one-walk" with
// DropNullsAndDefault), "defaulted" on objects that
// were already defaulted (nothing left to do: no allocations).
func BenchmarkDefault(b *testing.B) {
	cases := loadCorpus(b)
	b.Run("fresh", func(b *testing.B) {
		b.ReportAllocs()
		objs := make([]any, len(cases))
		for b.Loop() {
			b.StopTimer()
			for i, c := range cases {
				objs[i] = jsonvalue.DeepCopy(c.obj)
			}
			b.StartTimer()
			for i, c := range cases {
				prune.DropNulls(objs[i], c.s)
				Default(objs[i], c.s)
			}
		}
	})
	b.Run("fresh-one-walk", func(b *testing.B) {
		b.ReportAllocs()
		objs := make([]any, len(cases))
		for b.Loop() {
			b.StopTimer()
			for i, c := range cases {
				objs[i] = jsonvalue.DeepCopy(c.obj)
			}
			b.StartTimer()
			for i, c := range cases {
				DropNullsAndDefault(objs[i], c.s)
			}
		}
	})
	b.Run("defaulted", func(b *testing.B) {
		objs := make([]any, len(cases))
		for i, c := range cases {
			objs[i] = jsonvalue.DeepCopy(c.obj)
			prune.DropNulls(objs[i], c.s)
			Default(objs[i], c.s)
		}
		b.ReportAllocs()
		for b.Loop() {
			for i, c := range cases {
				prune.DropNulls(objs[i], c.s)
				Default(objs[i], c.s)
			}
		}
	})
}

// TestNothingToDefaultAllocatesNothing checks the zero-allocation promise on
// a small object that needs no change.
func TestNothingToDefaultAllocatesNothing(t *testing.T) {
	s := PruneDefaults(mustSchema(t, cronTabSchema), nil)
	obj := mustObject(t, `{apiVersion: v1, kind: CronTab, metadata: {name: x}, spec: {cronSpec: "1 * * * *", replicas: 2, image: i, other: [1, {a: null}]}}`)
	if n := testing.AllocsPerRun(100, func() {
		prune.DropNulls(obj, s)
		Default(obj, s)
	}); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { DropNullsAndDefault(obj, s) }); n != 0 {
		t.Errorf("DropNullsAndDefault: %v allocations, want 0", n)
	}
}

// readFile reads the documents of a file.
func readFile(name string) ([]model.Document, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return schema.ReadDocuments(name, data)
}
