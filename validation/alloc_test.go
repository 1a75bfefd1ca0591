package validation_test

import (
	"testing"

	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// A valid object is validated without a single allocation: paths are built
// only for errors.
func TestValidObjectAllocatesNothing(t *testing.T) {
	s, obj := allocFixtureSchema(t)
	for _, v := range []*validation.Validator{validation.New(s), validation.NewForDefaults(s)} {
		if errs := v.Validate(obj); len(errs) != 0 {
			t.Fatalf("object should be valid: %v", errs)
		}
		if n := testing.AllocsPerRun(100, func() { _ = v.ValidateValue(nil, obj) }); n != 0 {
			t.Errorf("ValidateValue: %v allocations per run, want 0", n)
		}
		if n := testing.AllocsPerRun(100, func() { _ = v.Validate(obj) }); n != 0 {
			t.Errorf("Validate: %v allocations per run, want 0", n)
		}
	}
}

// allocFixtureSchema is a corpus-like schema (nested objects, lists of
// both list types, int-or-string, formats, patterns, enums, oneOf) and a
// valid object for it.
func allocFixtureSchema(t testing.TB) (*structural.Schema, map[string]any) {
	s := compileSchema(t, map[string]any{
		"type": "object",
		"properties": map[string]any{
			"apiVersion": map[string]any{"type": "string"},
			"kind":       map[string]any{"type": "string"},
			"metadata":   map[string]any{"type": "object"},
			"spec": map[string]any{
				"type":     "object",
				"required": []any{"replicas"},
				"properties": map[string]any{
					"replicas": map[string]any{"type": "integer", "format": "int32", "minimum": 0, "maximum": 100},
					"ratio":    map[string]any{"type": "number", "multipleOf": 0.5},
					"image":    map[string]any{"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[a-z0-9./:-]+$"},
					"mode":     map[string]any{"type": "string", "enum": []any{"a", "b"}},
					"port":     map[string]any{"x-kubernetes-int-or-string": true},
					"when":     map[string]any{"type": "string", "format": "uuid"},
					"labels":   map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
					"tags": map[string]any{"type": "array", "x-kubernetes-list-type": "set", "maxItems": 8,
						"items": map[string]any{"type": "string"}},
					"ports": map[string]any{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"port", "protocol"},
						"items": map[string]any{"type": "object", "required": []any{"port"}, "properties": map[string]any{
							"port":     map[string]any{"type": "integer"},
							"protocol": map[string]any{"type": "string", "default": "TCP"},
						}}},
					"containers": map[string]any{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"name"},
						"items": map[string]any{"type": "object", "properties": map[string]any{
							"name": map[string]any{"type": "string"},
							"args": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
						}}},
					"choice": map[string]any{"type": "object", "properties": map[string]any{
						"a": map[string]any{"type": "string"}, "b": map[string]any{"type": "string"},
					}, "oneOf": []any{map[string]any{"required": []any{"a"}}, map[string]any{"required": []any{"b"}}}},
				},
			},
		},
	})
	obj := map[string]any{
		"apiVersion": "example.com/v1", "kind": "Thing",
		"metadata": map[string]any{"name": "x"},
		"spec": map[string]any{
			"replicas": int64(3), "ratio": 1.5, "image": "registry.example.com/app:1.0", "mode": "a",
			"port": "http", "when": "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
			"labels": map[string]any{"app": "x", "tier": "web"},
			"tags":   []any{"a", "b", "c"},
			"ports": []any{
				map[string]any{"port": int64(80), "protocol": "TCP"},
				map[string]any{"port": int64(80), "protocol": "UDP"},
				map[string]any{"port": int64(443), "protocol": "TCP"},
			},
			"containers": []any{
				map[string]any{"name": "a", "args": []any{"x", "y"}},
				map[string]any{"name": "b"},
			},
			"choice": map[string]any{"a": "x"},
		},
	}
	return s, obj
}
