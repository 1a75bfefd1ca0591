package objpath

import (
	"fmt"
	"testing"
)

// TestNested: the scale subresource's accessors, with the messages of
// apimachinery's unstructured helpers.
func TestNested(t *testing.T) {
	obj := map[string]any{
		"spec":   map[string]any{"count": 2.0, "n": int64(3), "null": nil, "s": "x", "l": []any{}},
		"status": nil,
		"kind":   int64(1),
	}
	for _, c := range []struct {
		path, int64s, strs string
	}{
		{".spec.n", "3 true <nil>", `"" false .spec.n accessor error: 3 is of the type int64, expected string`},
		{".spec.count", "0 false .spec.count accessor error: 2 is of the type float64, expected int64", `"" false .spec.count accessor error: 2 is of the type float64, expected string`},
		{".spec.s", "0 false .spec.s accessor error: x is of the type string, expected int64", `"x" true <nil>`},
		{".spec.null", "0 false .spec.null accessor error: <nil> is of the type <nil>, expected int64", `"" false .spec.null accessor error: <nil> is of the type <nil>, expected string`},
		{".spec.missing", "0 false <nil>", `"" false <nil>`},
		{".status.replicas", "0 false <nil>", `"" false <nil>`},
		{".spec.null.x", "0 false <nil>", `"" false <nil>`},
		{".spec.s.x.y", "0 false .spec.s.x accessor error: x is of the type string, expected map[string]interface{}", `"" false .spec.s.x accessor error: x is of the type string, expected map[string]interface{}`},
		{".spec.l.x", "0 false .spec.l.x accessor error: [] is of the type []interface {}, expected map[string]interface{}", `"" false .spec.l.x accessor error: [] is of the type []interface {}, expected map[string]interface{}`},
		{"kind", "1 true <nil>", `"" false .kind accessor error: 1 is of the type int64, expected string`},
	} {
		i, found, err := NestedInt64(obj, c.path)
		if got := fmt.Sprint(i, " ", found, " ", err); got != c.int64s {
			t.Errorf("NestedInt64(%q) = %s, want %s", c.path, got, c.int64s)
		}
		s, found, err := NestedString(obj, c.path)
		if got := fmt.Sprintf("%q %v %v", s, found, err); got != c.strs {
			t.Errorf("NestedString(%q) = %s, want %s", c.path, got, c.strs)
		}
	}
}
