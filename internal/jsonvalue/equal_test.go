package jsonvalue

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/internal/semantic"
)

// TestEqualAgreesWithReflection checks the two fast walkers against what
// they stand for: Equal against reflect.DeepEqual, SemanticEqual against
// apimachinery's semantic equality (internal/semantic.Equal) of the values
// with every empty list or object taken as null, as they are once decoded
// into typed fields; on every pair of a table of JSON values with nil and
// empty lists and objects, numbers of both kinds, nesting and shared
// backing arrays.
func TestEqualAgreesWithReflection(t *testing.T) {
	shared := []any{"a", int64(1)}
	sharedMap := map[string]any{"k": "v"}
	values := []any{
		nil, "", "a", int64(1), int64(2), float64(1), 1.5, true, false,
		[]any(nil), []any{}, []any{nil}, []any{"a", int64(1)}, shared, shared[:1],
		map[string]any(nil), map[string]any{}, map[string]any{"k": "v"}, sharedMap,
		map[string]any{"k": nil}, map[string]any{"k": []any{}}, map[string]any{"k": []any(nil)},
		map[string]any{"k": map[string]any{"x": []any{int64(1), 1.5}}},
		json.Number("1"), []string{"a"},
	}
	for i, a := range values {
		for j, b := range values {
			if got, want := Equal(a, b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("Equal(values[%d]=%#v, values[%d]=%#v) = %v, want %v (reflect.DeepEqual)", i, a, j, b, got, want)
			}
			// SemanticEqual compares Go values that are not plain JSON
			// (json.Number, []string) by their JSON forms.
			pa, _ := Plain(a, MaxDepth)
			pb, _ := Plain(b, MaxDepth)
			want := semantic.Equal(emptyAsNull(pa), emptyAsNull(pb))
			if listVsObject(pa, pb) || listVsObject(pb, pa) {
				want = false // a list never equals an object, empty or not (a nil one is null)
			}
			if got := SemanticEqual(a, b); got != want {
				t.Errorf("SemanticEqual(values[%d]=%#v, values[%d]=%#v) = %v, want %v (semantic.Equal)", i, a, j, b, got, want)
			}
		}
	}
}

// emptyAsNull replaces every empty (or nil) list and object in v by null.
func emptyAsNull(v any) any {
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			return nil
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = emptyAsNull(e)
		}
		return out
	case map[string]any:
		if len(x) == 0 {
			return nil
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = emptyAsNull(e)
		}
		return out
	}
	return v
}

// listVsObject reports whether a is a list and b an object.
func listVsObject(a, b any) bool {
	_, isList := a.([]any)
	_, isObject := b.(map[string]any)
	return isList && isObject
}
