package bench

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/validation"
)

// synthSchema is a synthetic schema for generated objects: a map-keyed list
// of items mixing every kind of node (strings with pattern and maxLength,
// bounded integers, enums, defaults, maps, nested lists and objects,
// int-or-string, nullable).
const synthSchema = `{
 "type": "object",
 "properties": {
  "spec": {
   "type": "object",
   "properties": {
    "items": {
     "type": "array",
     "x-kubernetes-list-type": "map",
     "x-kubernetes-list-map-keys": ["name"],
     "items": {
      "type": "object",
      "required": ["name"],
      "properties": {
       "name": {"type": "string", "maxLength": 63, "pattern": "^[a-z0-9-]+$"},
       "replicas": {"type": "integer", "minimum": 0, "maximum": 1000, "default": 1},
       "image": {"type": "string"},
       "enabled": {"type": "boolean", "default": true},
       "ratio": {"type": "number", "nullable": true},
       "mode": {"type": "string", "enum": ["A", "B", "C"], "default": "A"},
       "port": {"x-kubernetes-int-or-string": true},
       "labels": {"type": "object", "additionalProperties": {"type": "string"}},
       "ports": {
        "type": "array",
        "items": {
         "type": "object",
         "properties": {
          "port": {"type": "integer", "format": "int32"},
          "protocol": {"type": "string", "default": "TCP"}
         }
        }
       },
       "nested": {
        "type": "object",
        "properties": {
         "a": {"type": "string"},
         "b": {"type": "object", "properties": {"c": {"type": "integer", "default": 3}}}
        }
       }
      }
     }
    }
   }
  }
 }
}`

// genSizes are the sizes of the generated objects, in JSON bytes.
var genSizes = []struct {
	name  string
	bytes int
}{{"10KB", 10 << 10}, {"100KB", 100 << 10}, {"1MB", 1 << 20}, {"10MB", 10 << 20}}

// genItem is the i-th list item: every 4th has an unknown field to prune,
// every 3rd a null to drop, odd ones leave their defaults out.
func genItem(i int) map[string]any {
	it := map[string]any{
		"name":   fmt.Sprintf("item-%d", i),
		"image":  fmt.Sprintf("registry.example.com/team/image-%d:v1.2.%d", i%97, i%13),
		"port":   int64(8080 + i%100),
		"labels": map[string]any{"app": "bench", "tier": fmt.Sprintf("t%d", i%5)},
		"ports":  []any{map[string]any{"port": int64(80)}, map[string]any{"port": int64(443), "protocol": "TCP"}},
		"nested": map[string]any{"a": "x", "b": map[string]any{}},
	}
	if i%2 == 0 {
		it["replicas"], it["enabled"], it["mode"], it["ratio"] = int64(i%1000), false, "B", 0.5
	}
	if i%3 == 0 {
		it["ratio"] = nil
		it["nested"].(map[string]any)["a"] = nil
	}
	if i%4 == 0 {
		it["unknownField"] = map[string]any{"x": int64(1), "y": []any{"a", "b"}}
	}
	return it
}

// genObject builds a resource of about size JSON bytes.
func genObject(size int) (map[string]any, []byte) {
	var items []any
	n := 0
	for n < size {
		it := genItem(len(items))
		data, _ := json.Marshal(it)
		n += len(data) + 1
		items = append(items, it)
	}
	obj := map[string]any{
		"apiVersion": "bench.example.com/v1",
		"kind":       "Synth",
		"metadata":   map[string]any{"name": "synth", "namespace": "default", "labels": map[string]any{"a": "b"}},
		"spec":       map[string]any{"items": items},
	}
	data, err := json.Marshal(obj)
	if err != nil {
		panic(err)
	}
	// Decode again so that numbers are int64, as both sides decode them.
	docs, err := schema.ReadDocuments("gen", data)
	if err != nil {
		panic(err)
	}
	return docs[0].Object, data
}

// synthVersion compiles synthSchema on both sides.
var synthVersion = sync.OnceValues(func() (*version, error) {
	cs, err := crdschema.ParseSchema([]byte(synthSchema))
	if err != nil {
		return nil, err
	}
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal([]byte(synthSchema), &v1); err != nil {
		return nil, err
	}
	in := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, in, nil); err != nil {
		return nil, err
	}
	ref, err := structuralschema.NewStructural(in)
	if err != nil {
		return nil, err
	}
	served := ref.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(served); err != nil {
		return nil, err
	}
	refValid, _, err := apiservervalidation.NewSchemaValidator(in)
	if err != nil {
		return nil, err
	}
	return &version{
		cs: cs, csServed: defaulting.PruneDefaults(cs.Structural(), nil), csValues: validation.New(cs.Structural()),
		ref: ref, refServed: served, refProps: in, refValid: refValid, namespace: true,
	}, nil
})

// genSet is one generated object of a size, as read and after the create
// pipeline.
type genSet struct{ raw, clean *objSet }

var genSets sync.Map // size -> *genSet

func genSetFor(b *testing.B, size int) *genSet {
	if s, ok := genSets.Load(size); ok {
		return s.(*genSet)
	}
	v, err := synthVersion()
	if err != nil {
		b.Fatal(err)
	}
	obj, data := genObject(size)
	r := v.cs.Apply(obj)
	if r.Object == nil || len(r.Errors) > 0 {
		b.Fatalf("generated object rejected: %v", r.Errors)
	}
	rs := v.refSchema()
	mk := func(o map[string]any) *objSet {
		return &objSet{objs: []map[string]any{o}, vs: []*version{v}, rs: []*refSchema{rs}, json: [][]byte{data}, bytes: int64(len(data))}
	}
	s := &genSet{raw: mk(obj), clean: mk(r.Object)}
	genSets.Store(size, s)
	return s
}

// BenchmarkSize runs every object operation on one generated object of
// 10 KB, 100 KB, 1 MB and 10 MB against the synthetic schema, for ns/byte
// at each size (linearity). Walk, Prune and Default work on the object as
// generated (unknown fields, nulls, missing defaults); Validate on the
// object after the create pipeline; Pipeline from its JSON bytes.
func BenchmarkSize(b *testing.B) {
	for _, sz := range genSizes {
		b.Run("Walk/"+sz.name, func(b *testing.B) { benchWalk(b, genSetFor(b, sz.bytes).raw) })
		b.Run("Prune/"+sz.name, func(b *testing.B) { benchPrune(b, genSetFor(b, sz.bytes).raw, false, true) })
		b.Run("PrunePaths/"+sz.name, func(b *testing.B) { benchPrune(b, genSetFor(b, sz.bytes).raw, true, true) })
		b.Run("Default/"+sz.name, func(b *testing.B) { benchDefault(b, genSetFor(b, sz.bytes).raw, true) })
		b.Run("Validate/"+sz.name, func(b *testing.B) { benchValidate(b, genSetFor(b, sz.bytes).clean) })
		b.Run("Pipeline/"+sz.name, func(b *testing.B) { benchPipeline(b, genSetFor(b, sz.bytes).raw) })
	}
}
