package revdiff

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

func mustStructural(t *testing.T, doc string) *structural.Schema {
	t.Helper()
	p, err := schema.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPathString(t *testing.T) {
	p := Path{{Kind: Prop, Name: "spec"}, {Kind: Prop, Name: "containers"}, {Kind: Item}, {Kind: Prop, Name: "env"}, {Kind: Value}}
	if got, want := p.String(), "spec.containers[*].env[*]"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := (Path{}).String(); got != "" {
		t.Errorf("root String() = %q", got)
	}
}

// TestDiffKinds: one change per kind, found at its path, and nothing for
// the same schema or for loosenings.
func TestDiffKinds(t *testing.T) {
	const old = `{type: object, properties: {spec: {type: object, properties: {
  a: {type: string, maxLength: 10},
  b: {type: string, enum: [x, y]},
  c: {type: integer},
  d: {type: array, items: {type: object, properties: {k: {type: string}}}},
  e: {type: object, x-kubernetes-preserve-unknown-fields: true},
  f: {type: string, nullable: true},
  g: {type: string}}}}}`
	tests := []struct {
		new  string
		want []string
	}{
		{old, nil},
		{`{type: object, properties: {spec: {type: object, properties: {
  a: {type: string, maxLength: 20},
  b: {type: string, enum: [x, y, z]},
  c: {type: integer},
  d: {type: array, items: {type: object, properties: {k: {type: string}, l: {type: string}}}},
  e: {type: object, x-kubernetes-preserve-unknown-fields: true},
  f: {type: string, nullable: true},
  g: {type: string},
  h: {type: string}}}}}`, nil},
		{`{type: object, properties: {spec: {type: object, required: [g], properties: {
  a: {type: string, maxLength: 5, pattern: '^a'},
  b: {type: string, enum: [x]},
  c: {type: string},
  d: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [k], items: {type: object, required: [k], properties: {k: {type: string, default: q}}}},
  e: {type: object},
  f: {type: string, format: date},
  g: {type: string, x-kubernetes-validations: [{rule: "self != ''"}]}}}}}`, []string{
			"spec.a bounds-tightened", "spec.a pattern-changed", "spec.b enum-narrowed", "spec.c type-changed",
			"spec.d list-type-changed", "spec.d[*].k required-added", "spec.d[*].k default-changed",
			"spec.e preserve-unknown-fields-removed", "spec.f nullable-removed", "spec.f format-changed",
			"spec.g required-added", "spec.g rule-added"}},
		{`{type: object, properties: {spec: {type: object, properties: {a: {type: string}}}}}`, []string{
			"spec.b field-removed", "spec.c field-removed", "spec.d field-removed", "spec.e field-removed", "spec.f field-removed", "spec.g field-removed"}},
	}
	for i, tt := range tests {
		var got []string
		for _, c := range Diff(mustStructural(t, old), mustStructural(t, tt.new), 1) {
			got = append(got, c.Path.String()+" "+c.Kind)
			if c.Detail == "" || c.StaticClass == "" || c.StaticWhy == "" {
				t.Errorf("%d: %s %s: incomplete %+v", i, c.Path, c.Kind, c)
			}
		}
		if !sameSet(got, tt.want) {
			t.Errorf("%d: got %q\nwant %q", i, got, tt.want)
		}
	}
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return true
}

// TestSet: a probe lands at its path, generating the ancestors the object
// lacks (a list gets one item, a map one key), and a Delete removes the
// field.
func TestSet(t *testing.T) {
	root := mustStructural(t, `{type: object, properties: {spec: {type: object, properties: {
  list: {type: array, items: {type: object, required: [name], properties: {name: {type: string}, v: {type: integer}}}},
  m: {type: object, additionalProperties: {type: object, properties: {x: {type: string}}}}}}}}`)
	r := rand.New(rand.NewPCG(1, 2))
	obj := map[string]any{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": "a"}}
	path := Path{{Kind: Prop, Name: "spec"}, {Kind: Prop, Name: "list"}, {Kind: Item}, {Kind: Prop, Name: "v"}}
	if !Set(obj, root, path, Probe{Value: int64(7)}, r) {
		t.Fatal("Set failed")
	}
	item := obj["spec"].(map[string]any)["list"].([]any)[0].(map[string]any)
	if item["v"] != int64(7) || item["name"] == nil {
		t.Errorf("item = %v, want v 7 and a name", item)
	}
	mpath := Path{{Kind: Prop, Name: "spec"}, {Kind: Prop, Name: "m"}, {Kind: Value}, {Kind: Prop, Name: "x"}}
	if !Set(obj, root, mpath, Probe{Value: "s"}, r) {
		t.Fatal("Set map failed")
	}
	if got := obj["spec"].(map[string]any)["m"]; !reflect.DeepEqual(got, map[string]any{"probe-key": map[string]any{"x": "s"}}) {
		t.Errorf("m = %v", got)
	}
	if !Set(obj, root, path, Probe{Delete: true}, r) {
		t.Fatal("Delete failed")
	}
	if _, has := item["v"]; has {
		t.Errorf("v not deleted: %v", item)
	}
	// The probe's value is copied, never shared.
	v := map[string]any{"x": "1"}
	Set(obj, root, Path{{Kind: Prop, Name: "spec"}, {Kind: Prop, Name: "m"}, {Kind: Value}}, Probe{Value: v}, r)
	v["x"] = "2"
	if got := obj["spec"].(map[string]any)["m"].(map[string]any)["probe-key"]; !reflect.DeepEqual(got, map[string]any{"x": "1"}) {
		t.Errorf("shared probe value: %v", got)
	}
	// A path through a scalar cannot be set.
	if Set(obj, root, Path{{Kind: Prop, Name: "spec"}, {Kind: Prop, Name: "list"}, {Kind: Item}, {Kind: Prop, Name: "name"}, {Kind: Prop, Name: "deeper"}}, Probe{Value: 1}, r) {
		t.Error("Set through a scalar succeeded")
	}
}

// TestBase: the smallest object holds the required fields only.
func TestBase(t *testing.T) {
	root := mustStructural(t, `{type: object, required: [spec], properties: {spec: {type: object, required: [a, l], properties: {
  a: {type: string, enum: [one]}, b: {type: string}, l: {type: array, minItems: 1, items: {type: integer, minimum: 3, maximum: 3}}}}}}`)
	obj, ok := Base(root, "g/v1", "K", "n", rand.New(rand.NewPCG(1, 1)))
	want := map[string]any{"apiVersion": "g/v1", "kind": "K", "metadata": map[string]any{"name": "n"},
		"spec": map[string]any{"a": "one", "l": []any{int64(3)}}}
	if !ok || !reflect.DeepEqual(obj, want) {
		t.Errorf("Base = %v, %v\nwant %v", obj, ok, want)
	}
}
