package intorstring_test

import (
	"testing"

	"github.com/crdschema/crdschema/intorstring"
	"github.com/crdschema/crdschema/schema"
)

func decode(t *testing.T, js string) *schema.Props {
	t.Helper()
	p, err := schema.Decode([]byte(js))
	if err != nil {
		t.Fatalf("decode %s: %v", js, err)
	}
	return p
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
		})
	}
	if intorstring.IsAnyOfPattern(nil) || intorstring.IsAllOfPattern(nil) {
		t.Error("nil matched")
	}
}
