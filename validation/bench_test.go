package validation_test

import (
	"testing"

	"github.com/crdschema/crdschema/internal/jsonvalue"
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
