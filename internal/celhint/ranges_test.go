package celhint

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRanges: Parse records what one-variable comprehensions range over,
// once each, and not the range of a two-variable one.
func TestRanges(t *testing.T) {
	tests := []struct{ rule, want string }{
		{"self.all(k, k.matches('^a$'))", "[]"},
		{"self.all(a, self.exists_one(b, a == b))", "[]"},
		{"self.spec.items.all(x, x.name != '') && self.tags.exists(t, t == 'a')", "[spec.items] [tags]"},
		{"self.all(i, v, v > i)", ""},
	}
	for _, tt := range tests {
		h, ok := Parse(tt.rule)
		if !ok {
			t.Fatalf("%s: does not parse", tt.rule)
		}
		var got []string
		for _, r := range h.Ranges {
			got = append(got, "["+r.String()+"]")
		}
		if s := strings.Join(got, " "); s != tt.want {
			t.Errorf("%s: ranges %s, want %s", tt.rule, s, tt.want)
		}
	}
}

// TestRangeVariants: a uniqueness rule over a list gets the list's item
// twice and twice but for an optional field; a rule over a map's keys
// gets keys that fail its function and strings of the size it names
// before its separator. The base is left as it was.
func TestRangeVariants(t *testing.T) {
	list := schemaNode(t, `{"type": "array", "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "section": {"type": "string"}}}}`)
	base := []any{map[string]any{"name": "a"}}
	got := show2(RangeVariants(list, base, ParseAll([]string{"self.all(x, self.exists_one(y, x.name == y.name))"}), rand.New(rand.NewPCG(1, 2))))
	if !strings.Contains(got, `[{"name":"a"},{"name":"a"}]`) || !strings.Contains(got, `[{"name":"a"},{"name":"a","section":`) {
		t.Errorf("list variants %s: want the item twice, and twice with a section in the second copy", got)
	}
	if b, _ := json.Marshal(base); string(b) != `[{"name":"a"}]` {
		t.Errorf("base changed: %s", b)
	}
	// Each variant is a new value: changing one leaves the base as it was.
	for _, v := range RangeVariants(list, base, ParseAll([]string{"self.all(x, self.exists_one(y, x.name == y.name))"}), rand.New(rand.NewPCG(1, 2))) {
		for _, item := range v.([]any) {
			item.(map[string]any)["name"] = "changed"
		}
	}
	if b, _ := json.Marshal(base); string(b) != `[{"name":"a"}]` {
		t.Errorf("a variant shares the base: %s", b)
	}
	m := schemaNode(t, `{"type": "object", "additionalProperties": {"type": "string"}}`)
	got = show2(RangeVariants(m, map[string]any{"a": "x"}, ParseAll([]string{"self.all(k, k.matches('^[a-z]+$'))", "self.all(k, k.split('/')[0].size() < 3)"}), rand.New(rand.NewPCG(1, 2))))
	if !strings.Contains(got, `"":`) || !strings.Contains(got, `"aaaa/a":`) {
		t.Errorf("map variants %s: want an empty key (fails matches) and aaaa/a (a prefix of size 4)", got)
	}
	if n := len(RangeVariants(m, nil, ParseAll([]string{"self.all(k, k.size() < 1 || k.size() < 2 || k.size() < 3 || k.size() < 4 || k.size() < 5 || k.size() < 6 || k.size() < 7 || k.size() < 8 || k.size() < 9 || k.size() < 10 || k.size() < 11 || k.size() < 12 || k.size() < 13 || k.size() < 14 || k.size() < 15 || k.size() < 16 || k.size() < 17 || k.size() < 18 || k.size() < 19 || k.size() < 20 || k.contains('/'))"}), rand.New(rand.NewPCG(1, 2)))); n != MaxRangeVariants {
		t.Errorf("%d variants, want MaxRangeVariants (%d)", n, MaxRangeVariants)
	}
}

// show2 writes values as JSON, space-separated.
func show2(vs []any) string {
	var out []string
	for _, v := range vs {
		b, _ := json.Marshal(v)
		out = append(out, string(b))
	}
	return strings.Join(out, " ")
}
