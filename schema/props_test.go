package schema

import (
	"encoding/json"
	"testing"
)

// TestFillNullProperties decodes a tree with null properties at every kind
// of nesting with encoding/json (which leaves them nil) and checks that
// FillNullProperties makes each an empty schema, as Decode does.
func TestFillNullProperties(t *testing.T) {
	const doc = `{"properties": {"a": null, "b": {"properties": {"c": null}}},
	"items": {"properties": {"d": null}},
	"allOf": [{"properties": {"e": null}}],
	"not": {"properties": {"f": null}},
	"additionalProperties": {"properties": {"g": null}},
	"patternProperties": {"^x": {"properties": {"h": null}}},
	"dependencies": {"y": {"properties": {"i": null}}}}`
	var p Props
	if err := json.Unmarshal([]byte(doc), &p); err != nil {
		t.Fatal(err)
	}
	p.FillNullProperties()
	decoded, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for name, props := range map[string]map[string]*Props{
		"a": p.Properties, "c": p.Properties["b"].Properties,
		"d": p.Items.Schema.Properties, "e": p.AllOf[0].Properties,
		"f": p.Not.Properties, "g": p.AdditionalProperties.Schema.Properties,
		"h": p.PatternProperties["^x"].Properties, "i": p.Dependencies["y"].Schema.Properties,
	} {
		if c, ok := props[name]; !ok || c == nil {
			t.Errorf("property %s: %v, want an empty schema", name, c)
		}
	}
	got, _ := json.Marshal(&p)
	want, _ := json.Marshal(decoded)
	if string(got) != string(want) {
		t.Errorf("filled\n %s\nDecode\n %s", got, want)
	}
	(*Props)(nil).FillNullProperties()
}
