package structural_test

import (
	"testing"

	"github.com/crdschema/crdschema/structural"
)

// TestField: a key's schema is its property, else the additionalProperties
// schema (none for a bare true), else none; a nil schema has none.
func TestField(t *testing.T) {
	str := &structural.Schema{Type: "string"}
	num := &structural.Schema{Type: "integer"}
	withProps := &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{"a": str},
		AdditionalProperties: &structural.AdditionalProperties{Schema: num}}
	bare := &structural.Schema{Type: "object", AdditionalProperties: &structural.AdditionalProperties{Allows: true}}
	var none *structural.Schema
	for _, c := range []struct {
		s    *structural.Schema
		k    string
		want *structural.Schema
	}{
		{withProps, "a", str},
		{withProps, "b", num},
		{bare, "a", nil},
		{&structural.Schema{Type: "object"}, "a", nil},
		{none, "a", nil},
	} {
		if got := c.s.Field(c.k); got != c.want {
			t.Errorf("Field(%q) of %+v = %v, want %v", c.k, c.s, got, c.want)
		}
	}
}
