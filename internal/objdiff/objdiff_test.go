package objdiff

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objpath"
)

// diff is Walk's visits as "kind path value" lines.
func diff(a, b any, same func(a, b any) bool) string {
	var out []string
	Walk(a, b, same, func(at objpath.Steps, k Kind, bv any) {
		out = append(out, fmt.Sprintf("%s %s %v", [...]string{"-", "~", "+"}[k], at, bv))
	})
	return strings.Join(out, "; ")
}

// numbersByValue is the leaf equality of a JSON Patch.
func numbersByValue(a, b any) bool {
	if ai, ok := a.(int64); ok {
		if bf, ok := b.(float64); ok {
			return float64(ai) == bf
		}
	}
	return jsonvalue.Equal(a, b)
}

func TestWalk(t *testing.T) {
	for _, c := range []struct {
		a, b any
		same func(a, b any) bool
		want string
	}{
		{map[string]any{}, map[string]any{}, jsonvalue.Equal, ""},
		{int64(1), int64(1), jsonvalue.Equal, ""},
		{int64(1), "1", jsonvalue.Equal, "~  1"},
		// Keys of both in sorted order at every level: removed, added
		// and changed interleaved; deeper fields before later keys.
		{
			map[string]any{"b": int64(1), "d": map[string]any{"x": true, "z": nil}, "f": "gone"},
			map[string]any{"a": "new", "b": int64(2), "d": map[string]any{"y": "in", "z": nil}, "e": []any{}},
			jsonvalue.Equal,
			"+ a new; ~ b 2; - d.x <nil>; + d.y in; + e []; - f <nil>",
		},
		// Lists of the same length item by item, of another length whole.
		{
			map[string]any{"l": []any{int64(1), map[string]any{"k": "v"}}, "m": []any{int64(1)}},
			map[string]any{"l": []any{int64(1), map[string]any{"k": "w"}}, "m": []any{int64(1), int64(2)}},
			jsonvalue.Equal,
			"~ l[1].k w; ~ m [1 2]",
		},
		// An object against a list or a scalar: changed whole.
		{map[string]any{"o": map[string]any{}}, map[string]any{"o": []any{}}, jsonvalue.Equal, "~ o []"},
		// Leaves as same says.
		{map[string]any{"n": int64(2)}, map[string]any{"n": 2.0}, jsonvalue.Equal, "~ n 2"},
		{map[string]any{"n": int64(2)}, map[string]any{"n": 2.0}, numbersByValue, ""},
		// Siblings reuse the path's slots: each path is its own.
		{
			map[string]any{"a": map[string]any{"b": map[string]any{"c": int64(1)}}, "x": []any{[]any{int64(1)}, int64(2)}},
			map[string]any{"a": map[string]any{"b": map[string]any{"c": int64(2)}}, "x": []any{[]any{int64(3)}, int64(4)}},
			jsonvalue.Equal,
			"~ a.b.c 2; ~ x[0][0] 3; ~ x[1] 4",
		},
	} {
		before := fmt.Sprint(c.a, c.b)
		if got := diff(c.a, c.b, c.same); got != c.want {
			t.Errorf("Walk(%v, %v) = %q, want %q", c.a, c.b, got, c.want)
		}
		if after := fmt.Sprint(c.a, c.b); after != before {
			t.Errorf("Walk changed its inputs: %s, was %s", after, before)
		}
	}
}

// TestWalkPathIsAView: at is valid during the call only; a caller keeping
// it copies it.
func TestWalkPathIsAView(t *testing.T) {
	var kept []objpath.Steps
	Walk(map[string]any{"a": int64(1), "b": int64(1)}, map[string]any{"a": int64(2), "b": int64(2)}, jsonvalue.Equal, func(at objpath.Steps, _ Kind, _ any) {
		kept = append(kept, append(objpath.Steps(nil), at...))
	})
	if len(kept) != 2 || kept[0].String() != "a" || kept[1].String() != "b" || reflect.DeepEqual(kept[0], kept[1]) {
		t.Errorf("kept paths %v", kept)
	}
}
