package celhint

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestItemEnumVariants: a rule over a list gets the list's item of each
// value of its discriminating field twice, with the union member of that
// value (its smallest: required fields only) and without the others'; a
// list of enum strings gets each value twice. The base is left as it was.
func TestItemEnumVariants(t *testing.T) {
	list := schemaNode(t, `{"type": "array", "items": {"type": "object", "required": ["type"], "properties": {
		"type": {"type": "string", "enum": ["Header", "Cors"]},
		"header": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "enum": ["h"]}, "value": {"type": "string"}}},
		"cors": {"type": "object", "properties": {"origin": {"type": "string"}}},
		"note": {"type": "string"}}}}`)
	rule := []string{"self.filter(f, f.type == 'Cors').size() <= 1"}
	base := []any{map[string]any{"type": "Header", "header": map[string]any{"name": "h"}, "note": "n"}}
	got := show2(ItemEnumVariants(list, base, ParseAll(rule), rand.New(rand.NewPCG(1, 2))))
	want := `[{"header":{"name":"h"},"note":"n","type":"Header"},{"header":{"name":"h"},"note":"n","type":"Header"}] ` +
		`[{"cors":{},"note":"n","type":"Cors"},{"cors":{},"note":"n","type":"Cors"}]`
	if got != want {
		t.Errorf("variants from the base's item:\n%s\nwant\n%s", got, want)
	}
	if b, _ := json.Marshal(base); string(b) != `[{"header":{"name":"h"},"note":"n","type":"Header"}]` {
		t.Errorf("base changed: %s", b)
	}
	got = show2(ItemEnumVariants(list, nil, ParseAll(rule), rand.New(rand.NewPCG(1, 2))))
	if !strings.Contains(got, `[{"header":{"name":"h"},"type":"Header"},{"header":{"name":"h"},"type":"Header"}]`) || !strings.Contains(got, `[{"cors":{},"type":"Cors"},{"cors":{},"type":"Cors"}]`) {
		t.Errorf("variants without a base %s: want the smallest item of each type twice", got)
	}
	strs := schemaNode(t, `{"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}`)
	if got := show2(ItemEnumVariants(strs, nil, ParseAll([]string{"self.filter(x, x == 'b').size() <= 1"}), rand.New(rand.NewPCG(1, 2)))); got != `["a","a"] ["b","b"]` {
		t.Errorf("enum strings: %s, want each value twice", got)
	}
	many := schemaNode(t, `{"type": "array", "items": {"type": "integer", "enum": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]}}`)
	if n := len(ItemEnumVariants(many, nil, ParseAll([]string{"self.all(x, x != 3)"}), rand.New(rand.NewPCG(1, 2)))); n != MaxItemEnumVariants {
		t.Errorf("20 enum values: %d variants, want MaxItemEnumVariants (%d)", n, MaxItemEnumVariants)
	}
	if got := ItemEnumVariants(list, base, ParseAll([]string{"self.size() < 3"}), rand.New(rand.NewPCG(1, 2))); len(got) != 0 {
		t.Errorf("a rule ranging over nothing: %d variants, want none", len(got))
	}
}
