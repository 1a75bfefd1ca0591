package cel

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	apiservercel "k8s.io/apiserver/pkg/cel"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// TestEqualStructural checks equalStructural against reflect.DeepEqual on
// schemas differing only deep down, or in what the structural tree leaves
// out (descriptions, junctors, additionalProperties' boolean).
func TestEqualStructural(t *testing.T) {
	schemas := []string{
		`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string","description":"x"}}}}}`,
		`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string","description":"y"}}}}}`,
		`{"type":"object","properties":{"a":{"type":"object","properties":{"c":{"type":"string","description":"x"}}}}}`,
		`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string","maxLength":3}}}}}`,
		`{"type":"array","items":{"type":"object","properties":{"b":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"true"}]}}`,
		`{"type":"array","items":{"type":"object","properties":{"b":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"false"}]}}`,
		`{"type":"object","additionalProperties":{"type":"string"}}`,
		`{"type":"object","additionalProperties":{"type":"string","enum":["a"]}}`,
		`{"type":"object","additionalProperties":{"type":"string"},"allOf":[{"properties":{"x":{"minLength":1}}}]}`,
		`{"type":"object","additionalProperties":{"type":"string"},"allOf":[{"properties":{"x":{"minLength":2}}}]}`,
		`{"type":"object","properties":{"a":{"type":"string","default":"x"}}}`,
		`{"type":"object","properties":{"a":{"type":"string","default":"y"}}}`,
		`{"type":"object","description":"r","properties":{"a":{"type":"object","properties":{"b":{"type":"string","description":"x"}}}}}`,
		`{"type":"object","properties":{"a":{"type":"object","allOf":[{"description":"x"}]}}}`,
		`{"type":"object","properties":{"a":{"type":"object","allOf":[{"description":"y"}]}}}`,
	}
	for i, x := range schemas {
		for j, y := range schemas {
			a, b := mustSchema(t, x), mustSchema(t, y)
			want := reflect.DeepEqual(a, b)
			if got := equalStructural(a, b, true); got != want {
				t.Errorf("equalStructural(%d, %d) = %v, reflect.DeepEqual %v", i, j, got, want)
			}
			// Without descriptions: as reflect.DeepEqual on the schemas
			// with their descriptions removed.
			ua, ub := mustSchema(t, withoutDescriptions(x)), mustSchema(t, withoutDescriptions(y))
			equalWithout := reflect.DeepEqual(ua, ub)
			if got := equalStructural(a, b, false); got != equalWithout {
				t.Errorf("equalStructural(%d, %d) without descriptions = %v, reflect.DeepEqual %v", i, j, got, equalWithout)
			}
			if i == j && !want {
				t.Errorf("schema %d not equal to its copy", i)
			}
			// CompileCache.lookup compares, without descriptions, only
			// schemas of equal hashes.
			if ha, hb := subtreeHash(a, nil), subtreeHash(b, nil); equalWithout && ha != hb {
				t.Errorf("schemas %d and %d are equal, with hashes %x and %x", i, j, ha, hb)
			}
		}
	}
}

// TestDeclTypeSize pins what declTypeSize counts: the types of a CEL type
// and its height, through fields, elements and keys.
func TestDeclTypeSize(t *testing.T) {
	str := apiservercel.StringType
	obj := apiservercel.NewObjectType("o", map[string]*apiservercel.DeclField{
		"a": apiservercel.NewDeclField("a", str, true, nil, nil),
		"b": apiservercel.NewDeclField("b", apiservercel.NewListType(str, -1), false, nil, nil),
	})
	for _, tc := range []struct {
		t    *apiservercel.DeclType
		want subtreeSize
	}{
		{nil, subtreeSize{}},
		{str, subtreeSize{1, 0}},
		{apiservercel.NewListType(apiservercel.NewMapType(str, str, -1), -1), subtreeSize{4, 2}},
		{obj, subtreeSize{4, 2}},
	} {
		if got := declTypeSize(tc.t); got != tc.want {
			t.Errorf("declTypeSize(%v) = %v, want %v", tc.t, got, tc.want)
		}
	}
}

// TestSubtreeHash: the hash, which CompileCache.lookup compares before
// the schemas, is the same for schemas equal without descriptions
// (properties in another order, other descriptions) and tells apart
// chains that differ only at their leaf, the case it is there for. Its
// memo holds the hash of every node with rules at or below the one hashed.
func TestSubtreeHash(t *testing.T) {
	same := [][2]string{
		{`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`,
			`{"type":"object","properties":{"b":{"type":"integer"},"a":{"type":"string","description":"x"}}}`},
		{`{"type":"array","items":{"type":"object","additionalProperties":{"type":"string","maxLength":2}}}`,
			`{"type":"array","description":"y","items":{"type":"object","additionalProperties":{"type":"string","maxLength":2}}}`},
	}
	for _, p := range same {
		if a, b := subtreeHash(mustSchema(t, p[0]), nil), subtreeHash(mustSchema(t, p[1]), nil); a != b || a == 0 {
			t.Errorf("hashes %x of %s and %x of %s, want equal and not zero", a, p[0], b, p[1])
		}
	}
	chain := func(leaf string) string {
		return `{"type":"object","x-kubernetes-validations":[{"rule":"true"}],"properties":{"a":` +
			`{"type":"object","x-kubernetes-validations":[{"rule":"true"}],"properties":{"a":` + leaf + `}}}}`
	}
	leaves := []string{`{"type":"string"}`, `{"type":"string","maxLength":1}`, `{"type":"string","maxLength":2}`,
		`{"type":"string","minLength":1}`, `{"type":"string","pattern":"a"}`, `{"type":"string","format":"date"}`,
		`{"type":"string","enum":["a"]}`, `{"type":"integer"}`, `{"type":"string","nullable":true}`,
		`{"type":"string","x-kubernetes-validations":[{"rule":"true"}]}`, `{"type":"array","items":{"type":"string"}}`,
		`{"type":"array","items":{"type":"string"},"maxItems":1}`, `{"type":"object","additionalProperties":{"type":"string"}}`,
		`{"type":"object","properties":{"b":{"type":"string"}}}`, `{"type":"object","properties":{"c":{"type":"string"}}}`,
		`{"type":"object","properties":{"b":{"type":"string"}},"required":["b"]}`}
	seen := map[uint64]string{}
	for _, l := range leaves {
		h := subtreeHash(mustSchema(t, chain(l)), nil)
		if other, ok := seen[h]; ok {
			t.Errorf("chains ending in %s and %s have the same hash %x", other, l, h)
		}
		seen[h] = l
	}
	s := mustSchema(t, chain(leaves[1]))
	memo := map[*structural.Schema]uint64{}
	h := subtreeHash(s, memo)
	if mid := s.Properties["a"]; len(memo) != 2 || memo[s] != h || memo[mid] != subtreeHash(mid, nil) {
		t.Errorf("memo of a chain of 3 nodes, 2 with rules: %v", memo)
	}
	if subtreeHash(nil, memo) != 0 {
		t.Error("hash of nil not zero")
	}
}

// TestEqualProps holds equalProps to reflect.DeepEqual on the two nodes
// without the subtrees of properties, items and additionalProperties (which
// equalStructural compares as structural children), over nodes differing
// in each keyword, nil against empty, and items as an array.
func TestEqualProps(t *testing.T) {
	// A new keyword must be added to equalProps (and here).
	if n := reflect.TypeFor[model.Props]().NumField(); n != 44 {
		t.Fatalf("model.Props has %d fields; equalProps compares 44", n)
	}
	docs := []string{
		`{}`, `{"id":"x"}`, `{"$schema":"x"}`, `{"$ref":"x"}`, `{"$ref":"y"}`, `{"description":"x"}`,
		`{"type":"string"}`, `{"format":"date"}`, `{"title":"x"}`, `{"default":1}`, `{"default":{"a":[1]}}`,
		`{"default":{"a":[2]}}`, `{"maximum":1}`, `{"maximum":2}`, `{"exclusiveMaximum":true}`, `{"minimum":1}`,
		`{"exclusiveMinimum":true}`, `{"maxLength":1}`, `{"minLength":1}`, `{"pattern":"a"}`, `{"maxItems":1}`,
		`{"minItems":1}`, `{"uniqueItems":true}`, `{"multipleOf":2}`, `{"enum":["a"]}`, `{"enum":[]}`,
		`{"enum":["b"]}`, `{"maxProperties":1}`, `{"minProperties":1}`, `{"required":["a"]}`, `{"required":[]}`,
		`{"required":["a","b"]}`, `{"items":{"type":"string"}}`, `{"items":{"type":"integer"}}`, `{"items":[]}`,
		`{"items":[{"type":"string"}]}`, `{"items":[{"type":"integer"}]}`, `{"allOf":[{"minLength":1}]}`,
		`{"allOf":[]}`, `{"oneOf":[{"minLength":1}]}`, `{"anyOf":[{"minLength":1}]}`, `{"anyOf":[{"minLength":2}]}`,
		`{"not":{"minLength":1}}`, `{"properties":{"a":{}}}`, `{"properties":{}}`, `{"additionalProperties":true}`,
		`{"additionalProperties":false}`, `{"additionalProperties":{"type":"string"}}`,
		`{"patternProperties":{"a":{}}}`, `{"dependencies":{"a":["b"]}}`, `{"additionalItems":true}`,
		`{"definitions":{"a":{}}}`, `{"externalDocs":{"url":"x"}}`, `{"example":1}`, `{"example":2}`,
		`{"nullable":true}`, `{"x-kubernetes-preserve-unknown-fields":true}`, `{"x-kubernetes-embedded-resource":true}`,
		`{"x-kubernetes-int-or-string":true}`, `{"x-kubernetes-list-map-keys":["a"]}`, `{"x-kubernetes-list-map-keys":[]}`,
		`{"x-kubernetes-list-type":"map"}`, `{"x-kubernetes-list-type":"set"}`, `{"x-kubernetes-map-type":"atomic"}`,
		`{"x-kubernetes-validations":[{"rule":"true"}]}`, `{"x-kubernetes-validations":[{"rule":"false"}]}`,
	}
	var nodes []*model.Props
	for _, d := range docs {
		var p model.Props
		if err := json.Unmarshal([]byte(d), &p); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		nodes = append(nodes, &p)
	}
	// Not from JSON: NaN, which reflect.DeepEqual finds equal only through
	// the same pointer.
	nan := math.NaN()
	nodes = append(nodes, &model.Props{Maximum: &nan}, &model.Props{Maximum: &nan}, &model.Props{Maximum: new(float64)})
	nan2 := math.NaN()
	nodes = append(nodes, &model.Props{Maximum: &nan2})
	for i, a := range nodes {
		for j, b := range nodes {
			want := reflect.DeepEqual(withoutChildren(a), withoutChildren(b))
			if got := equalProps(a, b, true); got != want {
				t.Errorf("equalProps(%d, %d) = %v, reflect.DeepEqual %v", i, j, got, want)
			}
			ua, ub := withoutChildren(a), withoutChildren(b)
			ua.Description, ub.Description = "", ""
			if got, want := equalProps(a, b, false), reflect.DeepEqual(ua, ub); got != want {
				t.Errorf("equalProps(%d, %d) without descriptions = %v, reflect.DeepEqual %v", i, j, got, want)
			}
			// subtreeHash reads of the node only what equalProps compares.
			if ha, hb := propsHash(a), propsHash(b); equalProps(a, b, false) && ha != hb {
				t.Errorf("equal nodes %d and %d, with hashes %x and %x", i, j, ha, hb)
			}
		}
	}
}

// withoutChildren is p without the schemas of its properties, items and
// additionalProperties, which the structural children stand for; the
// booleans of additionalProperties and whether a single items schema or
// additionalProperties schema is present are kept.
func withoutChildren(p *model.Props) model.Props {
	n := *p
	n.Properties = nil
	if p.Items != nil && p.Items.Array == nil {
		n.Items = &model.PropsOrArray{Schema: schemaMarker(p.Items.Schema)}
	}
	if ap := p.AdditionalProperties; ap != nil {
		n.AdditionalProperties = &model.PropsOrBool{Allows: ap.Allows, Schema: schemaMarker(ap.Schema)}
	}
	return n
}

// schemaMarker stands for a child schema: whether there is one.
func schemaMarker(p *model.Props) *model.Props {
	if p == nil {
		return nil
	}
	return &model.Props{}
}

// withoutDescriptions removes the descriptions of a schema's core nodes
// (properties, items and additionalProperties, not junctors) from its JSON.
func withoutDescriptions(js string) string {
	var v map[string]any
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		panic(err)
	}
	var strip func(m map[string]any)
	strip = func(m map[string]any) {
		delete(m, "description")
		if props, ok := m["properties"].(map[string]any); ok {
			for _, p := range props {
				strip(p.(map[string]any))
			}
		}
		for _, k := range []string{"items", "additionalProperties"} {
			if c, ok := m[k].(map[string]any); ok {
				strip(c)
			}
		}
	}
	strip(v)
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
