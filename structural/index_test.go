package structural_test

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// TestProperty checks Property against the Properties map: every property
// is found as itself, other keys (near misses included) are not, whatever
// the number of properties and however their names collide in the index.
func TestProperty(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 8, 9, 31, 200} {
		var props []string
		for i := range n {
			// Same length, first, middle and last byte: colliding names.
			props = append(props, fmt.Sprintf(`"a%03db":{"type":"string"}`, i))
		}
		if n > 0 {
			props = append(props, `"":{"type":"string"}`, `"x.y":{"type":"integer"}`)
		}
		s := build(t, `{"type":"object","properties":{`+strings.Join(props, ",")+`}}`)
		for k, c := range s.Properties {
			if got, ok := s.Property(k); !ok || got != c {
				t.Errorf("%d properties: Property(%q) = %p, %v; want %p", n, k, got, ok, c)
			}
		}
		for _, k := range []string{"a", "a000", "a000c", "b000b", "x.z", "x", "a00b", "a0000b", "spec"} {
			want, wantOK := s.Properties[k]
			if got, ok := s.Property(k); ok != wantOK || got != want {
				t.Errorf("%d properties: Property(%q) = %p, %v; want %p, %v", n, k, got, ok, want, wantOK)
			}
		}
	}
	var nilSchema *structural.Schema
	if c, ok := nilSchema.Property("a"); c != nil || ok {
		t.Error("Property on a nil schema found something")
	}
	hand := &structural.Schema{Properties: map[string]*structural.Schema{"a": {Type: "string"}}}
	if c, ok := hand.Property("a"); !ok || c != hand.Properties["a"] {
		t.Error("Property misses the property of a schema New did not build")
	}
	if hand.IsLeaf() || !(&structural.Schema{}).IsLeaf() || !nilSchema.IsLeaf() {
		t.Error("IsLeaf is wrong for schemas New did not build")
	}
	for js, leaf := range map[string]bool{
		`{"type":"string"}`:                                                       true,
		`{"type":"object","additionalProperties":true}`:                           true,
		`{"type":"object","additionalProperties":{"type":"string"}}`:              false,
		`{"type":"array","items":{"type":"string"}}`:                              false,
		`{"type":"object","properties":{"a":{"type":"string"}}}`:                  false,
		`{"type":"object","x-kubernetes-preserve-unknown-fields":true}`:           true,
		`{"type":"object","x-kubernetes-embedded-resource":true,"properties":{}}`: true,
	} {
		if got := build(t, js).IsLeaf(); got != leaf {
			t.Errorf("IsLeaf(%s) = %v, want %v", js, got, leaf)
		}
	}
}

// TestDerive checks that a derived node's precomputed facts are its own.
func TestDerive(t *testing.T) {
	s := build(t, `{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string","default":"x"}}},"c":{"type":"string"}}}`)
	if !s.HasDefaultsBelow() || len(s.DefaultingProperties()) != 1 {
		t.Fatalf("HasDefaultsBelow %v, DefaultingProperties %v", s.HasDefaultsBelow(), s.DefaultingProperties())
	}
	a := s.Properties["a"]
	if len(s.PropertiesWithDefault()) != 0 || fmt.Sprint(a.PropertiesWithDefault()) != "[b]" || fmt.Sprint(a.DefaultingProperties()) != "[b]" {
		t.Fatalf("PropertiesWithDefault %v and %v, DefaultingProperties of a %v", s.PropertiesWithDefault(), a.PropertiesWithDefault(), a.DefaultingProperties())
	}
	plain := a.Derive(func(c *structural.Schema) {
		c.Properties = map[string]*structural.Schema{"b": build(t, `{"type":"string"}`)}
	})
	d := s.Derive(func(c *structural.Schema) {
		c.Properties = map[string]*structural.Schema{"a": plain, "c": s.Properties["c"]}
	})
	if got, _ := d.Property("a"); got != plain {
		t.Error("the derived node's Property finds the original child")
	}
	if d.HasDefaultsBelow() || len(d.DefaultingProperties()) != 0 {
		t.Errorf("derived: HasDefaultsBelow %v, DefaultingProperties %v", d.HasDefaultsBelow(), d.DefaultingProperties())
	}
	if got, _ := s.Property("a"); got != a || !s.HasDefaultsBelow() {
		t.Error("Derive changed the original")
	}
}

func build(t *testing.T, js string) *structural.Schema {
	t.Helper()
	var p model.Props
	if err := model.DecodeProps([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSchemaSize keeps a Schema at 160 bytes, a size class of Go's
// allocator: the facts about properties sit behind one pointer (most
// nodes have none); one field out of place, or one more fact beside the
// booleans, and each node New builds alone takes 176 or more.
func TestSchemaSize(t *testing.T) {
	if n := unsafe.Sizeof(structural.Schema{}); n > 160 {
		t.Errorf("a Schema is %d bytes, more than 160", n)
	}
}
