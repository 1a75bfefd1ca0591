package validation_test

import (
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/validation"
)

func TestNilAndZeroValidatorsAcceptEverything(t *testing.T) {
	var v *validation.Validator
	if errs := v.Validate(map[string]any{"a": 1}); len(errs) != 0 {
		t.Errorf("nil validator: %v", errs)
	}
	if errs := validation.New(nil).Validate("x"); len(errs) != 0 {
		t.Errorf("New(nil): %v", errs)
	}
}

func TestForDefaultsKeepsIntOrStringUnfoldedOnlyInJunctors(t *testing.T) {
	s := compileSchema(t, map[string]any{
		"type": "object",
		"properties": map[string]any{
			"port": map[string]any{"x-kubernetes-int-or-string": true},
		},
	})
	port := s.Properties["port"]
	// The resource validator unfolds int-or-string to the types integer,string.
	if errs := validation.New(port).ValidateValue(field.NewPath("spec", "port", "default"), 1.5); len(errs) != 1 ||
		errs[0].Field != "spec.port.default" {
		t.Errorf("New: %v", errs)
	}
	// The structural conversion used for defaults does not.
	if errs := validation.NewForDefaults(port).ValidateValue(field.NewPath("default"), 1.5); len(errs) != 0 {
		t.Errorf("NewForDefaults: %v", errs)
	}
}

func TestBasePath(t *testing.T) {
	s := compileSchema(t, map[string]any{
		"type":       "object",
		"properties": map[string]any{"n": map[string]any{"type": "integer", "maximum": 3}},
	})
	errs := validation.NewForDefaults(s).ValidateValue(field.NewPath("properties").Key("spec").Child("default"), map[string]any{"n": int64(4)})
	if len(errs) != 1 || errs[0].Field != "properties[spec].default.n" || errs[0].Detail != "n in body should be less than or equal to 3" {
		t.Errorf("got %v", errs)
	}
}

func TestConcurrentUse(t *testing.T) {
	s := compileSchema(t, map[string]any{
		"type": "object",
		"properties": map[string]any{
			"spec": map[string]any{"type": "object", "properties": map[string]any{
				"r": map[string]any{"type": "integer", "maximum": 10},
				"l": map[string]any{"type": "array", "x-kubernetes-list-type": "set", "items": map[string]any{"type": "string"}},
			}},
		},
	})
	v := validation.New(s)
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				obj := map[string]any{"spec": map[string]any{"r": int64(11), "l": []any{"a", "a"}}}
				if errs := v.Validate(obj); len(errs) != 2 {
					t.Errorf("got %v", errs)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// Odd Go values never make the validator panic.
func TestNoPanicOnOddValues(t *testing.T) {
	s := compileSchema(t, map[string]any{
		"type": "object",
		"properties": map[string]any{
			"m": map[string]any{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"k"},
				"items": map[string]any{"type": "object", "properties": map[string]any{"k": map[string]any{"type": "string"}}, "required": []any{"k"}}},
			"s": map[string]any{"type": "array", "x-kubernetes-list-type": "set", "items": map[string]any{"type": "string"}},
		},
	})
	v := validation.New(s)
	for _, obj := range []any{
		nil, 1, "x", []any{nil},
		map[string]any{"m": []any{nil, nil, map[string]any{"k": []any{1}}, map[string]any{"k": []any{1}}}},
		map[string]any{"s": []any{[]string{"a"}, []string{"a"}, struct{}{}, map[int]int{}}},
		map[string]any{"m": map[string]any{"x": []int{1}}, "s": 3.5},
	} {
		_ = v.Validate(obj)
	}
}
