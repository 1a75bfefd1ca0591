package serving_test

import (
	"testing"
	"time"

	"github.com/crdschema/crdschema/serving"
)

// TestRowOddValues feeds the table values no decoder makes and paths of
// every kind: no panic, and the cells the rules give.
func TestRowOddValues(t *testing.T) {
	cols := []serving.Column{
		{Name: "A", Type: "integer", JSONPath: ".a"},
		{Name: "B", Type: "string", JSONPath: ".b[*]"},
		{Name: "C", Type: "number", JSONPath: ".c"},
		{Name: "D", Type: "date", JSONPath: ".d"},
		{Name: "E", Type: "string", JSONPath: ".e"},
		{Name: "F", Type: "string", JSONPath: "..x"},
		{Name: "G", Type: "string", JSONPath: ".g[?(@.k==\"v\")].k"},
		{Name: "H", Type: "boolean", JSONPath: ".h[::0]"},
	}
	tab := serving.NewTable(cols)
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	obj := map[string]any{
		"metadata": "not a map",
		"a":        2.9,
		"b":        []any{map[string]any{"z": 1.0, "a": nil}, "second"},
		"c":        int64(3),
		"d":        "2026-11-24T23:59:30Z",
		"e":        nil,
		"g":        []any{map[string]any{"k": "v"}},
		"h":        []any{true},
	}
	cells, err := tab.Row(obj, now)
	if err != nil {
		t.Fatal(err)
	}
	want := []any{"", int64(2), `{"a":null,"z":1}`, float64(3), "30s", "<no value>", nil, "v", nil}
	if len(cells) != len(want) {
		t.Fatalf("cells %#v", cells)
	}
	for i := range want {
		if cells[i] != want[i] {
			t.Errorf("column %d: %#v, want %#v", i, cells[i], want[i])
		}
	}
	if _, err := tab.Row(map[string]any{"items": []any{}}, now); err == nil {
		t.Error("an object with an items array is a list to the table code")
	}
}
