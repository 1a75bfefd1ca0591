package prune_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// corpusObject is an object of the shared corpus with its schema.
type corpusObject struct {
	obj map[string]any
	s   *structural.Schema
}

// loadCorpus reads the corpus CRDs and the apiserver's pruned objects (so
// clean objects), routed by group, kind and version; it skips the benchmark
// when the shared data is absent.
func loadCorpus(b *testing.B) []corpusObject {
	dir := shareddata.Dir(b, "corpus")
	f, err := os.Open(filepath.Join(dir, "expected", "prune.jsonl"))
	if err != nil {
		b.Skipf("shared corpus not found at %s: skipping", dir)
	}
	defer f.Close()
	schemas := map[string]*structural.Schema{}
	crdFiles, _ := filepath.Glob(filepath.Join(dir, "*", "crds", "*"))
	for _, cf := range crdFiles {
		docs, err := readFile(cf)
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
				key := crd.Spec.Group + "/" + v.Name + "/" + crd.Spec.Names.Kind
				if _, ok := schemas[key]; ok {
					continue
				}
				if s, err := structural.New(crd.SchemaFor(v.Name)); err == nil && s != nil {
					schemas[key] = s
				}
			}
		}
	}
	var out []corpusObject
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l struct{ Object json.RawMessage }
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		var obj map[string]any
		if utiljson.Unmarshal(l.Object, &obj) != nil || obj == nil {
			continue
		}
		apiVersion, _ := obj["apiVersion"].(string)
		kind, _ := obj["kind"].(string)
		if !strings.Contains(apiVersion, "/") {
			apiVersion = "/" + apiVersion
		}
		if s, ok := schemas[apiVersion+"/"+kind]; ok {
			out = append(out, corpusObject{obj, s})
		}
	}
	if len(out) == 0 {
		b.Skip("no routable corpus objects")
	}
	return out
}

// BenchmarkPrune prunes every clean corpus object once per iteration,
// without asking for paths: no allocation.
func BenchmarkPrune(b *testing.B) {
	objs := loadCorpus(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, o := range objs {
			prune.Prune(o.obj, o.s, prune.Options{ResourceRoot: true})
		}
	}
	b.ReportMetric(float64(len(objs)), "objects/op")
}

// BenchmarkPruneWithPaths is BenchmarkPrune asking for paths (there are
// none to report: the objects are clean).
func BenchmarkPruneWithPaths(b *testing.B) {
	objs := loadCorpus(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, o := range objs {
			prune.Prune(o.obj, o.s, prune.Options{ResourceRoot: true, ReturnPaths: true})
		}
	}
	b.ReportMetric(float64(len(objs)), "objects/op")
}

// TestPruneCleanAllocatesNothing guards the zero-allocation promise.
func TestPruneCleanAllocatesNothing(t *testing.T) {
	s := buildSchema(t, json.RawMessage(`{"type":"object","properties":{"spec":{"type":"object","properties":{
		"list":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}},
		"m":{"type":"object","additionalProperties":{"type":"integer"}},
		"free":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"x":{"type":"object","properties":{"y":{"type":"string"}}}}}}}}}`))
	var obj any
	if err := utiljson.Unmarshal([]byte(`{"apiVersion":"v1","kind":"K","metadata":{"name":"x"},
		"spec":{"list":[{"a":"b"},{"a":"c"}],"m":{"k":1},"free":{"x":{"y":"z"},"other":[1,2]}}}`), &obj); err != nil {
		t.Fatal(err)
	}
	for _, opts := range []prune.Options{
		{ResourceRoot: true},
		{ResourceRoot: true, ReturnPaths: true},
		{ResourceRoot: true, DropNulls: true},
		{ResourceRoot: true, ReturnPaths: true, DropNulls: true},
	} {
		if n := testing.AllocsPerRun(100, func() {
			if ps := prune.Prune(obj, s, opts); len(ps) > 0 {
				t.Fatalf("pruned %v from a clean object", ps)
			}
		}); n != 0 {
			t.Errorf("%+v: pruning a clean object allocates %v times", opts, n)
		}
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
