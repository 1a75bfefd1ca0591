package validation_test

import (
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// fuzzSeeds pair schemas covering every keyword the compiler implements
// (and some it hands to the engine) with values near their edges.
var fuzzSeeds = [][2]string{
	{`{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":10,"multipleOf":2},"f":{"type":"number","format":"float","exclusiveMaximum":true,"maximum":2.5},"i32":{"type":"integer","format":"int32"}},"required":["n","x"]}`,
		`{"n":11,"f":2.5,"i32":4294967296,"z":null}`},
	{`{"type":"object","properties":{"s":{"type":"string","minLength":2,"maxLength":3,"pattern":"^[a-z]+$"},"d":{"type":"string","format":"date-time"},"e":{"type":"string","enum":["a","b"]}}}`,
		`{"s":"ÿÿÿÿ","d":"yesterday","e":"c"}`},
	{`{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"}},"additionalProperties":false},"minItems":2,"maxItems":3,"uniqueItems":true}`,
		`[{"k":"a"},{"k":"a","x":1},{"k":1},{}]`},
	{`{"type":"object","additionalProperties":{"type":"integer","nullable":true},"minProperties":1,"maxProperties":2}`,
		`{"a":1.0,"b":null,"c":1.5}`},
	{`{"anyOf":[{"type":"string"},{"type":"integer","minimum":5}],"oneOf":[{"required":["a"]},{"required":["b"]}],"allOf":[{"type":"object"},{"minProperties":3}],"not":{"required":["c"]}}`,
		`{"a":1,"b":2,"c":3}`},
	{`{"type":"object","properties":{"v":{"anyOf":[{"type":"object","properties":{"x":{"type":"integer"}}},{"oneOf":[{"type":"string"},{"type":"string","maxLength":1}]}],"allOf":[{"not":{"type":"boolean"}},{"anyOf":[{"enum":[1,"1",true]},{"minimum":0}]}]}}}`,
		`{"v":{"x":"1"}}`},
	{`{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}],"pattern":"^\\d+%?$","maximum":100}`,
		`"50%%"`},
	{`{"type":"object","properties":{"m":{"type":"integer","multipleOf":0.5,"enum":[1,2.5,"A"]},"q":{"type":"number","multipleOf":0.1,"minimum":-1.5,"exclusiveMinimum":true}}}`,
		`{"m":65,"q":-1.5}`},
	{`{"type":"object","properties":{"a":{"type":"array","items":{"type":"array","items":{"type":"number","nullable":true}}},"b":{"type":"boolean","enum":[true]},"c":{"type":"object","nullable":true,"properties":{"d":{"type":"string","format":"byte"}}}}}`,
		`{"a":[[1,null,"x"],null,[true]],"b":false,"c":{"d":"!!"}}`},
	{`{"type":"object","patternProperties":{"^x":{"type":"string"}},"dependencies":{"a":["b"]}}`,
		`{"xa":1,"a":2}`},
	{`{"type":"string","format":"int64","enum":[{"a":[1]},["x"]]}`,
		`{"a":[1]}`},
	{`{"type":"integer","format":"date","not":{"type":"integer"},"enum":[9007199254740993]}`,
		`1e300`},
	{`{"properties":{"":{"properties":{"a":{"type":"string"}},"required":["b"]},"IMPORTANT!x":{"type":"string"}},"anyOf":[{"properties":{"IMPORTANT!x":{"type":"integer"}}}]}`,
		`{"":{"a":1},"IMPORTANT!x":true}`},
	{`{"type":"object","properties":{"p":{"type":"string","pattern":"(unclosed"},"u":{"type":"string","format":"uuid"},"h":{"type":"string","format":"hostname","maxLength":5}}}`,
		`{"p":"x","u":"nope","h":"-bad-host-"}`},
}

func FuzzCompiledValidator(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, schemaJSON, valueJSON string) {
		if len(schemaJSON) > 4096 || len(valueJSON) > 4096 {
			return
		}
		var p model.Props
		if err := model.DecodeProps([]byte(schemaJSON), &p); err != nil {
			return
		}
		var value any
		if err := kjson.Unmarshal([]byte(valueJSON), &value); err != nil {
			return
		}
		vs := []*validation.Validator{validation.NewFromProps(&p)}
		if s, err := structural.New(&p); err == nil {
			vs = append(vs, validation.New(s), validation.NewForDefaults(s))
		}
		for _, v := range vs {
			for _, base := range []*field.Path{nil, field.NewPath("spec", "default")} {
				if diff, ok := sameAsEngine(v, base, value); !ok {
					t.Fatalf("schema %s\nvalue %s\n%s", schemaJSON, valueJSON, diff)
				}
			}
		}
	})
}
