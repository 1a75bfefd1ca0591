package celhint

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// TestEditVariants: a string a rule compares with its lowerAscii(),
// upperAscii(), trim() or replace() copy gets the strings near the
// base's that the function changes; a map whose keys a rule reads so
// gets such a key; nothing the function keeps, nothing at a split's
// part, and the base is left as it was.
func TestEditVariants(t *testing.T) {
	node := schemaNode(t, `{"type": "object", "properties": {
		"plural": {"type": "string"}, "shout": {"type": "string"}, "title": {"type": "string"},
		"slug": {"type": "string"}, "digits": {"type": "string"}, "n": {"type": "integer"},
		"aliases": {"type": "array", "items": {"type": "string"}},
		"labels": {"type": "object", "additionalProperties": {"type": "string", "enum": ["v"]}}}}`)
	base := map[string]any{"plural": "widgets", "shout": "LOUD", "title": "t", "slug": "a-b", "digits": "12", "n": int64(1), "aliases": []any{"ab"}}
	before, _ := json.Marshal(base)
	r := func() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
	tests := []struct{ rule, want string }{
		{"self.plural == self.plural.lowerAscii()", `{"plural":"Widgets"} {"plural":"WIDGETS"}`},
		{"self.shout == self.shout.upperAscii()", `{"shout":"lOUD"} {"shout":"loud"}`},
		{"self.title == self.title.trim()", `{"title":" t"} {"title":"t "}`},
		{"self.slug == self.slug.replace(' ', '-')", `{"slug":"a-b "}`},
		{"self.slug.replace('-', '-') == self.slug", ``},
		{"self.digits == self.digits.lowerAscii()", `{"digits":"12A"}`},
		{"self.labels.all(k, k == k.lowerAscii())", `{"labels":{"K":"v"}}`},
		{"self.aliases.all(x, x == x.lowerAscii())", `{"aliases":["Ab"]} {"aliases":["AB"]}`},
		{"self.plural.split('/')[0].lowerAscii() == 'a'", ``},
		{"self.plural.startsWith('a') && self.n > 0", ``},
	}
	for _, tt := range tests {
		var got []any
		for _, v := range EditVariants(node, base, ParseAll([]string{tt.rule}), r()) {
			got = append(got, changed(base, v.(map[string]any)))
		}
		if s := show2(got); s != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.rule, s, tt.want)
		}
	}
	if after, _ := json.Marshal(base); string(after) != string(before) {
		t.Errorf("base changed: %s, was %s", after, before)
	}
	many := []string{"self.plural == self.plural.lowerAscii()", "self.shout == self.shout.upperAscii()", "self.title == self.title.trim()",
		"self.slug == self.slug.lowerAscii().trim()", "self.digits == self.digits.upperAscii()"}
	if n := len(EditVariants(node, base, ParseAll(many), r())); n != MaxEditVariants {
		t.Errorf("five edited fields: %d variants, want MaxEditVariants (%d)", n, MaxEditVariants)
	}
	if got := EditVariants(node, nil, ParseAll([]string{"self.title == self.title.trim()"}), r()); len(got) != 2 {
		t.Errorf("no base: %s, want a sampled title with a space before and after", show2(got))
	}
}

// changed is the fields of v that differ from base.
func changed(base, v map[string]any) map[string]any {
	out := map[string]any{}
	for k, x := range v {
		a, _ := json.Marshal(x)
		b, _ := json.Marshal(base[k])
		if string(a) != string(b) {
			out[k] = x
		}
	}
	return out
}
