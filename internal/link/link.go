// Package link gives the internal packages typed access to what package
// structural keeps unexported: building a node from a parsed schema and the
// parsed schema behind a node. Go has no friend packages; package
// structural sets the hooks of internal/model in its init, and this package
// gives them their types.
package link

import (
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// NewStructural builds the structural model of a parsed schema: nil for a
// nil schema, an error for keywords that no structural schema can hold
// ($ref, definitions, …, items as an array). The rules a structural schema
// must satisfy are checked separately (structural.Validate).
func NewStructural(p *model.Props) (*structural.Schema, error) {
	s, err := model.NewStructural(p)
	if err != nil || s == nil {
		return nil, err
	}
	return s.(*structural.Schema), nil
}

// Props returns the parsed schema a structural node was built from, or nil
// for a nil node or one built by hand. Callers treat it as read-only.
func Props(s *structural.Schema) *model.Props {
	if s == nil {
		return nil
	}
	return model.StructuralProps(s)
}
