package intorstring_test

import (
	"encoding/json"
	"testing"

	"github.com/crdschema/crdschema/intorstring"
	"github.com/crdschema/crdschema/schema"
)

func decode(t *testing.T, js string) *schema.Props {
	t.Helper()
	var p schema.Props
	if err := schema.DecodeProps([]byte(js), &p); err != nil {
		t.Fatalf("decode %s: %v", js, err)
	}
	return &p
}

func TestPatterns(t *testing.T) {
	const ios = `[{"type":"integer"},{"type":"string"}]`
	cases := []struct {
		name         string
		js           string
		anyOf, allOf bool
	}{
		{"anyOf", `{"anyOf":` + ios + `}`, true, false},
		{"anyOf with flag", `{"x-kubernetes-int-or-string":true,"anyOf":` + ios + `}`, true, false},
		{"anyOf beside other keywords", `{"type":"string","maxLength":3,"anyOf":` + ios + `}`, true, false},
		{"allOf", `{"allOf":[{"anyOf":` + ios + `}]}`, false, true},
		{"allOf with more", `{"allOf":[{"anyOf":` + ios + `,"pattern":"x"},{"maxLength":3}]}`, false, true},
		{"both", `{"anyOf":` + ios + `,"allOf":[{"anyOf":` + ios + `}]}`, true, true},
		{"null extras are absent", `{"anyOf":[{"type":"integer","default":null,"example":null,"enum":[],"allOf":[],"items":null},{"type":"string","additionalProperties":false}]}`, true, false},

		{"empty", `{}`, false, false},
		{"reversed", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, false, false},
		{"one", `{"anyOf":[{"type":"integer"}]}`, false, false},
		{"three", `{"anyOf":[{"type":"integer"},{"type":"string"},{"type":"string"}]}`, false, false},
		{"number", `{"anyOf":[{"type":"number"},{"type":"string"}]}`, false, false},
		{"format", `{"anyOf":[{"type":"integer","format":"int32"},{"type":"string"}]}`, false, false},
		{"description", `{"anyOf":[{"type":"integer"},{"type":"string","description":"s"}]}`, false, false},
		{"empty properties", `{"anyOf":[{"type":"integer","properties":{}},{"type":"string"}]}`, false, false},
		{"empty required", `{"anyOf":[{"type":"integer"},{"type":"string","required":[]}]}`, false, false},
		{"empty list-map-keys", `{"anyOf":[{"type":"integer","x-kubernetes-list-map-keys":[]},{"type":"string"}]}`, false, false},
		{"empty validations", `{"anyOf":[{"type":"integer"},{"type":"string","x-kubernetes-validations":[]}]}`, false, false},
		{"empty externalDocs", `{"anyOf":[{"type":"integer","externalDocs":{}},{"type":"string"}]}`, false, false},
		{"additionalProperties true", `{"anyOf":[{"type":"integer","additionalProperties":true},{"type":"string"}]}`, false, false},
		{"nullable", `{"anyOf":[{"type":"integer","nullable":true},{"type":"string"}]}`, false, false},
		{"default", `{"anyOf":[{"type":"integer","default":1},{"type":"string"}]}`, false, false},
		{"list type", `{"anyOf":[{"type":"integer"},{"type":"string","x-kubernetes-list-type":"atomic"}]}`, false, false},
		{"preserve", `{"anyOf":[{"type":"integer","x-kubernetes-preserve-unknown-fields":true},{"type":"string"}]}`, false, false},
		{"oneOf", `{"oneOf":` + ios + `}`, false, false},
		{"allOf second", `{"allOf":[{},{"anyOf":` + ios + `}]}`, false, false},
		{"allOf nested", `{"allOf":[{"allOf":[{"anyOf":` + ios + `}]}]}`, false, false},
		{"allOf near-miss", `{"allOf":[{"anyOf":[{"type":"integer","minimum":0},{"type":"string"}]}]}`, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := decode(t, c.js)
			if got := intorstring.IsAnyOfPattern(p); got != c.anyOf {
				t.Errorf("IsAnyOfPattern = %v, want %v", got, c.anyOf)
			}
			if got := intorstring.IsAllOfPattern(p); got != c.allOf {
				t.Errorf("IsAllOfPattern = %v, want %v", got, c.allOf)
			}
			if got := intorstring.IsPattern(p); got != (c.anyOf || c.allOf) {
				t.Errorf("IsPattern = %v", got)
			}
		})
	}
	if intorstring.IsAnyOfPattern(nil) || intorstring.IsAllOfPattern(nil) {
		t.Error("nil matched")
	}
}

func TestIsValue(t *testing.T) {
	for _, v := range []any{"", "50%", int64(-3), 0, 2.0, float64(1 << 40)} {
		if !intorstring.IsValue(v) {
			t.Errorf("IsValue(%#v) = false", v)
		}
	}
	for _, v := range []any{nil, true, 1.5, map[string]any{}, []any{}} {
		if intorstring.IsValue(v) {
			t.Errorf("IsValue(%#v) = true", v)
		}
	}
}

func marshal(t *testing.T, p *schema.Props) string {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestUnfold(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"x-kubernetes-int-or-string":true}`,
			`{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}`},
		{`{"x-kubernetes-int-or-string":true,"anyOf":[{"maxLength":3}]}`,
			`{"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]}],"anyOf":[{"maxLength":3}],"x-kubernetes-int-or-string":true}`},
		{`{"x-kubernetes-int-or-string":true,"anyOf":[{"maxLength":3}],"allOf":[{"minLength":1}]}`,
			`{"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]},{"minLength":1}],"anyOf":[{"maxLength":3}],"x-kubernetes-int-or-string":true}`},
		// already in a pattern, or no flag: unchanged
		{`{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}`,
			`{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}`},
		{`{"type":"string"}`, `{"type":"string"}`},
	}
	for _, c := range cases {
		p := decode(t, c.in)
		before := marshal(t, p)
		got := marshal(t, intorstring.Unfold(p))
		if got != c.want {
			t.Errorf("Unfold(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
		if marshal(t, p) != before {
			t.Errorf("Unfold(%s) modified its argument", c.in)
		}
	}
	if intorstring.Unfold(nil) != nil {
		t.Error("Unfold(nil) != nil")
	}
}

func TestUnfoldAll(t *testing.T) {
	in := `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true},"b":{"type":"string"},` +
		`"l":{"type":"array","items":{"x-kubernetes-int-or-string":true}},` +
		`"m":{"type":"object","additionalProperties":{"x-kubernetes-int-or-string":true}}},` +
		`"anyOf":[{"properties":{"b":{"x-kubernetes-int-or-string":true}}}]}`
	want := `{"type":"object","anyOf":[{"properties":{"b":{"x-kubernetes-int-or-string":true}}}],"properties":{` +
		`"a":{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true},"b":{"type":"string"},` +
		`"l":{"type":"array","items":{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}},` +
		`"m":{"type":"object","additionalProperties":{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}}}}`
	p := decode(t, in)
	before := marshal(t, p)
	if got := marshal(t, intorstring.UnfoldAll(p)); got != want {
		t.Errorf("UnfoldAll\n got %s\nwant %s", got, want)
	}
	if marshal(t, p) != before {
		t.Error("UnfoldAll modified its argument")
	}
	q := decode(t, `{"type":"object","properties":{"b":{"type":"string"}}}`)
	if intorstring.UnfoldAll(q) != q {
		t.Error("UnfoldAll copied a tree without int-or-string")
	}
}
