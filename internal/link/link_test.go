package link_test

import (
	"testing"

	"github.com/crdschema/crdschema/internal/link"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

func TestRoundTrip(t *testing.T) {
	var p model.Props
	if err := model.DecodeProps([]byte(`{"type":"object","properties":{"a":{"type":"string","maxLength":3}}}`), &p); err != nil {
		t.Fatal(err)
	}
	s, err := link.NewStructural(&p)
	if err != nil {
		t.Fatal(err)
	}
	if link.Props(s) != &p {
		t.Error("the root node does not lead back to the schema it was built from")
	}
	a := link.Props(s.Properties["a"])
	if a == nil || a.MaxLength == nil || *a.MaxLength != 3 {
		t.Errorf("property a's parsed schema = %+v, want maxLength 3", a)
	}
	if link.Props(nil) != nil || link.Props(&structural.Schema{Type: "string"}) != nil {
		t.Error("a nil or hand-built node has a parsed schema")
	}
	if s, err := link.NewStructural(nil); s != nil || err != nil {
		t.Errorf("NewStructural(nil) = %v, %v; want nil, nil", s, err)
	}
	ref := "#/definitions/x"
	if s, err := link.NewStructural(&model.Props{Ref: &ref}); s != nil || err == nil {
		t.Errorf("NewStructural($ref) = %v, %v; want an error", s, err)
	}
}
