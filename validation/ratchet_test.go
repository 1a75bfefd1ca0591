package validation_test

import (
	"reflect"
	"sort"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/validation"
)

// ratchetSchema has every correlation case: plain fields, a preserved
// object (fields the schema does not specify), a map list with one key, a
// map list with two keys, a set, an atomic list, additionalProperties and
// an anyOf whose branch fails on an invalid field.
func ratchetSchema(t *testing.T) *validation.Validator {
	t.Helper()
	item := map[string]any{"type": "object", "properties": map[string]any{
		"name": map[string]any{"type": "string"},
		"port": map[string]any{"type": "number"},
		"v":    map[string]any{"type": "integer", "maximum": int64(10)},
	}}
	return validation.New(compileSchema(t, map[string]any{
		"type": "object",
		"properties": map[string]any{
			"kind": map[string]any{"type": "string", "enum": []any{"Widget"}},
			"a":    map[string]any{"type": "integer", "maximum": int64(10)},
			"b":    map[string]any{"type": "integer", "maximum": int64(10)},
			"free": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true,
				"properties": map[string]any{"n": map[string]any{"type": "integer", "maximum": int64(10)}}},
			"byName": map[string]any{"type": "array", "x-kubernetes-list-type": "map",
				"x-kubernetes-list-map-keys": []any{"name"}, "items": item},
			"byTwo": map[string]any{"type": "array", "x-kubernetes-list-type": "map",
				"x-kubernetes-list-map-keys": []any{"name", "port"}, "items": item},
			"set":    map[string]any{"type": "array", "x-kubernetes-list-type": "set", "items": map[string]any{"type": "integer", "maximum": int64(10)}},
			"atomic": map[string]any{"type": "array", "items": map[string]any{"type": "integer", "maximum": int64(10)}},
			"m":      map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "integer", "maximum": int64(10)}},
			"choice": map[string]any{"type": "object",
				"properties": map[string]any{"x": map[string]any{"type": "integer"}},
				"anyOf":      []any{map[string]any{"properties": map[string]any{"x": map[string]any{"maximum": int64(10)}}}},
			},
		},
	}))
}

func fields(v *validation.Validator, obj, old map[string]any) []string {
	var out []string
	for _, e := range v.ValidateUpdate(obj, old) {
		out = append(out, string(e.Type)+" "+e.Field)
	}
	sort.Strings(out)
	return out
}

// TestRatcheting: each case was also run through the command (apply --old)
// and the apiserver oracle (conformance/), which agree on every one (the
// int/float case in the JSON form 20.5 vs 20).
func TestRatcheting(t *testing.T) {
	v := ratchetSchema(t)
	for _, tc := range []struct {
		name     string
		old, obj map[string]any
		want     []string
	}{
		{"unchanged invalid field ratcheted, changed one reported",
			map[string]any{"a": int64(20), "b": int64(20)},
			map[string]any{"a": int64(20), "b": int64(30)},
			[]string{"FieldValueInvalid b"}},
		{"an invalid field newly set is reported",
			map[string]any{},
			map[string]any{"a": int64(20)},
			[]string{"FieldValueInvalid a"}},
		{"kind at the root is never correlated",
			map[string]any{"kind": "Gadget", "a": int64(1)},
			map[string]any{"kind": "Gadget", "a": int64(2)},
			[]string{"FieldValueNotSupported kind"}},
		{"an unknown preserved field makes its object unequal, the known field still ratchets",
			map[string]any{"free": map[string]any{"n": int64(20), "extra": "x"}},
			map[string]any{"free": map[string]any{"n": int64(20), "extra": "x"}},
			nil},
		{"map list reordered: its items correlate by key",
			map[string]any{"byName": []any{map[string]any{"name": "a", "v": int64(50)}, map[string]any{"name": "b", "v": int64(1)}}},
			map[string]any{"byName": []any{map[string]any{"name": "b", "v": int64(1)}, map[string]any{"name": "a", "v": int64(50)}}},
			nil},
		{"map list item changed: reported at its new index",
			map[string]any{"byName": []any{map[string]any{"name": "a", "v": int64(50)}}},
			map[string]any{"byName": []any{map[string]any{"name": "b", "v": int64(2)}, map[string]any{"name": "a", "v": int64(51)}}},
			[]string{"FieldValueInvalid byName[1].v"}},
		{"map list with a duplicate old key: the first old item is the correlated one",
			map[string]any{"byName": []any{map[string]any{"name": "a", "v": int64(50)}, map[string]any{"name": "a", "v": int64(60)}}},
			map[string]any{"byName": []any{map[string]any{"name": "a", "v": int64(60)}}},
			[]string{"FieldValueInvalid byName[0].v"}},
		{"two keys: floats compared with six decimals",
			map[string]any{"byTwo": []any{map[string]any{"name": "a", "port": 1.0000001, "v": int64(50)}}},
			map[string]any{"byTwo": []any{map[string]any{"name": "a", "port": 1.0000002, "v": int64(50)}}},
			nil},
		{"set items are not correlated: an unchanged invalid item is reported once the set changes",
			map[string]any{"set": []any{int64(50)}},
			map[string]any{"set": []any{int64(50), int64(1)}},
			[]string{"FieldValueInvalid set[0]"}},
		{"an unchanged atomic list ratchets as a whole",
			map[string]any{"atomic": []any{int64(50)}, "a": int64(1)},
			map[string]any{"atomic": []any{int64(50)}, "a": int64(2)},
			nil},
		{"additionalProperties values correlate by key",
			map[string]any{"m": map[string]any{"x": int64(50), "y": int64(1)}},
			map[string]any{"m": map[string]any{"x": int64(50), "y": int64(2), "z": int64(60)}},
			[]string{"FieldValueInvalid m.z"}},
		{"an anyOf branch failing only on an unchanged field passes",
			map[string]any{"choice": map[string]any{"x": int64(50)}, "a": int64(1)},
			map[string]any{"choice": map[string]any{"x": int64(50)}, "a": int64(2)},
			nil},
		{"the anyOf fails once the field changes",
			map[string]any{"choice": map[string]any{"x": int64(50)}},
			map[string]any{"choice": map[string]any{"x": int64(51)}},
			[]string{"FieldValueInvalid <nil>", "FieldValueInvalid choice.x"}},
		{"int 1 and float 1.0 differ",
			map[string]any{"a": 20.0},
			map[string]any{"a": int64(20)},
			[]string{"FieldValueInvalid a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fields(v, tc.obj, tc.old); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors %v, want %v", got, tc.want)
			}
			// Without an old object, or against itself as a create, the
			// same object reports everything.
			if len(tc.want) > 0 && len(v.Validate(tc.obj)) < len(tc.want) {
				t.Errorf("create validation reports fewer errors than the update")
			}
		})
	}
}

// TestRatchetingListTypes: list-type uniqueness is reported only when the
// old object's lists were valid.
func TestRatchetingListTypes(t *testing.T) {
	v := ratchetSchema(t)
	dup := map[string]any{"set": []any{int64(1), int64(1)}}
	if got := fields(v, dup, map[string]any{"set": []any{int64(1)}}); !reflect.DeepEqual(got, []string{"FieldValueDuplicate set[1]"}) {
		t.Errorf("valid old lists: %v, want the duplicate", got)
	}
	if got := fields(v, dup, map[string]any{"set": []any{int64(2), int64(2)}}); got != nil {
		t.Errorf("invalid old lists: %v, want nothing", got)
	}
}

// TestRatchetingAllocatesNothing: an unchanged valid object, and one with
// a changed valid field, are validated without allocating.
func TestRatchetingAllocatesNothing(t *testing.T) {
	s, obj := allocFixtureSchema(t)
	v := validation.New(s)
	old := jsonvalue.DeepCopy(obj).(map[string]any)
	if errs := v.ValidateUpdate(obj, old); len(errs) > 0 {
		t.Fatal(errs)
	}
	if n := testing.AllocsPerRun(100, func() { _ = v.ValidateUpdate(obj, old) }); n != 0 {
		t.Errorf("unchanged: %v allocations per run, want 0", n)
	}
}
