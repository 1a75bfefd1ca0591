package crdschema

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/shareddata"
)

// FuzzApply runs the whole pipeline on arbitrary (schema, object) pairs:
// it must never panic, must leave its input alone, and a rejected object
// must come with an error.
func FuzzApply(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer","maximum":10,"default":1}}}}}`),
		[]byte(`{"apiVersion":"a/v1","kind":"A","metadata":{"name":"x"},"spec":{"replicas":15,"x":1}}`))
	f.Fuzz(func(t *testing.T, schemaJSON, objJSON []byte) {
		p := &model.Props{}
		if err := model.DecodeProps(schemaJSON, p); err != nil {
			return
		}
		s, err := compileSchema(p)
		if err != nil {
			return
		}
		var obj map[string]any
		if err := kjson.Unmarshal(objJSON, &obj); err != nil {
			return
		}
		before := deepCopyMap(obj)
		r := s.Apply(obj)
		if r.Object == nil && len(r.Errors) == 0 {
			t.Fatal("rejected without an error")
		}
		s.Prune(obj)
		s.Default(obj)
		s.Validate(obj)
		if !reflect.DeepEqual(obj, before) {
			t.Fatalf("input changed: %v, was %v", obj, before)
		}
	})
}

// corpusPair is one corpus example with the schema it is routed to.
type corpusPair struct {
	s   *Schema
	obj map[string]any
}

// corpusPairs routes the examples of the shared corpus (beside the
// checkout) to their CRD versions.
func corpusPairs(b *testing.B) []corpusPair {
	corpus := shareddata.Dir(b, "corpus")
	projects, err := os.ReadDir(corpus)
	if err != nil {
		b.Fatal(err)
	}
	var out []corpusPair
	for _, p := range projects {
		crds := map[string]*CRD{} // by group/kind
		for _, d := range readDocs(b, filepath.Join(corpus, p.Name(), "crds")) {
			if !d.IsCRD() {
				continue
			}
			c, err := d.CRD()
			if err != nil {
				continue
			}
			gk := c.GroupKind()
			key := gk.Group + "/" + gk.Kind
			if _, ok := crds[key]; !ok {
				crds[key] = c
			}
		}
		for _, d := range readDocs(b, filepath.Join(corpus, p.Name(), "examples")) {
			kind, _ := d.Object["kind"].(string)
			av, _ := d.Object["apiVersion"].(string)
			group, version, ok := strings.Cut(av, "/")
			if !ok {
				continue
			}
			c := crds[group+"/"+kind]
			if c == nil || len(c.Errors()) > 0 {
				continue
			}
			s, err := c.Version(version)
			if err != nil {
				continue
			}
			out = append(out, corpusPair{s, d.Object})
		}
	}
	if len(out) == 0 {
		b.Skip("no routable corpus examples")
	}
	return out
}

// readDocs reads the documents of every file under dir.
func readDocs(b *testing.B, dir string) []Document {
	var out []Document
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		ds, _ := ReadDocuments(path, data)
		out = append(out, ds...)
		return nil
	})
	return out
}

// BenchmarkApply applies every routable corpus example once per iteration.
func BenchmarkApply(b *testing.B) {
	pairs := corpusPairs(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pairs {
			p.s.Apply(p.obj)
		}
	}
	b.ReportMetric(float64(len(pairs)), "objects/op")
}
