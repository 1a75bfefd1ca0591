package model

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// nullProperties is a schema with a null property at every place a
// properties map can be.
const nullProperties = `{"type":"object","properties":{"a":null,"b":{"type":"object","properties":{"c":null}},
"l":{"type":"array","items":{"properties":{"d":null}}}},
"allOf":[{"properties":{"e":null}}],"not":{"properties":{"f":null}},
"additionalProperties":{"properties":{"g":null}},"additionalItems":{"properties":{"h":null}},
"patternProperties":{"p":{"properties":{"i":null}}},"definitions":{"x":{"properties":{"j":null}}},
"dependencies":{"y":{"properties":{"k":null}}}}`

// nilProperties lists the paths of nil entries of properties maps below p.
func nilProperties(p *Props, path string, out *[]string) {
	if p == nil {
		return
	}
	for k, c := range p.Properties {
		if c == nil {
			*out = append(*out, path+".properties."+k)
		}
		nilProperties(c, path+".properties."+k, out)
	}
	if p.Items != nil {
		nilProperties(p.Items.Schema, path+".items", out)
	}
	for i := range p.AllOf {
		nilProperties(&p.AllOf[i], path+".allOf", out)
	}
	nilProperties(p.Not, path+".not", out)
	for _, pb := range []*PropsOrBool{p.AdditionalProperties, p.AdditionalItems} {
		if pb != nil {
			nilProperties(pb.Schema, path+".additional", out)
		}
	}
	for _, m := range []map[string]Props{p.PatternProperties, p.Definitions} {
		for k := range m {
			c := m[k]
			nilProperties(&c, path+"."+k, out)
		}
	}
	for k, d := range p.Dependencies {
		nilProperties(d.Schema, path+".dependencies."+k, out)
	}
}

// TestNullPropertyIsAnEmptySchema: the apiserver decodes a null property
// to an empty schema; both decoders give a non-nil empty Props, the same
// trees, and the empty schema every reader takes it for.
func TestNullPropertyIsAnEmptySchema(t *testing.T) {
	fast, ok := fastDecodeProps([]byte(nullProperties))
	if !ok {
		t.Fatal("the fast decoder declined the schema")
	}
	var exact Props
	if err := decodePropsExact([]byte(nullProperties), &exact); err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]*Props{"fast": fast, "exact": &exact} {
		var nils []string
		nilProperties(p, "", &nils)
		if len(nils) > 0 {
			t.Errorf("%s decoder: nil properties at %v", name, nils)
		}
		if got := p.Properties["a"]; got == nil || !reflect.ValueOf(*got).IsZero() {
			t.Errorf("%s decoder: properties.a = %+v, want an empty schema", name, got)
		}
	}
	if !reflect.DeepEqual(*fast, exact) {
		a, _ := json.Marshal(fast)
		b, _ := json.Marshal(&exact)
		t.Errorf("fast and exact decoders differ:\nfast  %s\nexact %s", a, b)
	}
}

// TestNullPropertyHoists: a null property and an empty one are the same
// schema to the apiserver, so two versions differing only there share the
// hoisted schema, whichever decoder reads the CRD.
func TestNullPropertyHoists(t *testing.T) {
	js := strings.Replace(fmtJSON(twoVersions, `{"type":"object","properties":{"a":{}}}`),
		`{"openAPIV3Schema":{"type":"object"}}`, `{"openAPIV3Schema":{"type":"object","properties":{"a":null}}}`, 1)
	if !strings.Contains(js, `"a":null`) {
		t.Fatal("the test CRD lacks its null property")
	}
	exact, err := decodeCRDExact([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	for name, crd := range map[string]*CRD{"DecodeCRD": decode(t, js), "exact": exact} {
		if crd.Spec.Validation == nil {
			t.Errorf("%s: schemas differing only by a null property not hoisted", name)
			continue
		}
		if a := crd.Spec.Validation.OpenAPIV3Schema.Properties["a"]; a == nil {
			t.Errorf("%s: properties.a is nil", name)
		}
	}
}
