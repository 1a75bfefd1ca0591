package validation_test

import (
	"path/filepath"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// BenchmarkValidate measures the walk on the corpus-like fixture of
// alloc_test.go: valid (paths never rendered), and invalid at several
// depths (paths rendered for errors: additionalProperties values, list
// items, list-type duplicates, a required key, a oneOf).
func BenchmarkValidate(b *testing.B) {
	s, obj := allocFixtureSchema(b)
	v := validation.New(s)
	bad := jsonvalue.DeepCopy(obj).(map[string]any)
	spec := bad["spec"].(map[string]any)
	delete(spec, "replicas")
	spec["labels"] = map[string]any{"app": int64(1), "tier": true}
	spec["tags"] = []any{"a", "a", int64(3)}
	spec["ports"] = []any{map[string]any{"port": int64(80)}, map[string]any{"port": int64(80)}, map[string]any{"protocol": "UDP"}}
	spec["choice"] = map[string]any{"a": "x", "b": "y"}
	if len(v.Validate(bad)) == 0 {
		b.Fatal("the invalid object validates")
	}
	b.Run("valid", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_ = v.Validate(obj)
		}
	})
	b.Run("invalid", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_ = v.Validate(bad)
		}
	})
}

// BenchmarkNewCorpus makes the validator of every corpus version schema
// (New compiles nothing but scans the whole schema: which nodes have list
// types below them, and whether the walk implements every keyword of
// each node's junctors).
func BenchmarkNewCorpus(b *testing.B) {
	var schemas []*structural.Schema
	for _, crd := range loadCRDs(b, filepath.Join(shareddata.Dir(b, "corpus"))) {
		for _, v := range crd.Spec.Versions {
			if p := crd.SchemaFor(v.Name); p != nil {
				if s, err := structural.New(p); err == nil {
					schemas = append(schemas, s)
				}
			}
		}
	}
	if len(schemas) < 100 {
		b.Fatalf("only %d corpus version schemas", len(schemas))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range schemas {
			validation.New(s)
		}
	}
}
