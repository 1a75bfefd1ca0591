// Package intorstring recognises the x-kubernetes-int-or-string junctor
// patterns the apiserver tolerates in a structural schema.
//
// A node with x-kubernetes-int-or-string: true needs no type. The only places
// where such a node may still mention types inside a logical junctor are the
// two patterns
//
//	anyOf:
//	- type: integer
//	- type: string
//
// and
//
//	allOf:
//	- anyOf:
//	  - type: integer
//	  - type: string
//	- ... zero or more further entries
//
// Each of the two anyOf entries must carry nothing but its type: a format, a
// description, an empty properties map or any other keyword makes it a
// near-miss, which the apiserver treats as an ordinary (non-structural)
// junctor.
package intorstring

import (
	"github.com/crdschema/crdschema/internal/link"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// IsAnyOfPattern reports whether the anyOf of the schema s was built from
// is exactly [{type: integer}, {type: string}], in that order. It looks at
// nothing else of s (the apiserver recognises the pattern whether or not
// the node has x-kubernetes-int-or-string set). It is false for a nil node
// and for one built by hand rather than compiled from a schema.
func IsAnyOfPattern(s *structural.Schema) bool { return model.IsAnyOfPattern(link.Props(s)) }

// IsAllOfPattern reports whether the first allOf entry of the schema s was
// built from is the anyOf pattern; further entries may follow.
func IsAllOfPattern(s *structural.Schema) bool { return model.IsAllOfPattern(link.Props(s)) }
