// Package intorstring recognises the x-kubernetes-int-or-string junctor
// patterns the apiserver tolerates in a structural schema, and holds the small
// helpers the walkers need for int-or-string nodes.
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
	"math"

	"github.com/crdschema/crdschema/schema"
)

// IsAnyOfPattern reports whether p's anyOf is exactly
// [{type: integer}, {type: string}], in that order. It looks at nothing else
// of p (the apiserver recognises the pattern whether or not the node has
// x-kubernetes-int-or-string set).
func IsAnyOfPattern(p *schema.Props) bool {
	if p == nil || len(p.AnyOf) != 2 {
		return false
	}
	return onlyType(&p.AnyOf[0], "integer") && onlyType(&p.AnyOf[1], "string")
}

// IsAllOfPattern reports whether p's first allOf entry has the anyOf pattern
// (see IsAnyOfPattern). The rest of that first entry and the further allOf
// entries are not looked at: they are ordinary junctor content.
func IsAllOfPattern(p *schema.Props) bool {
	if p == nil || len(p.AllOf) == 0 {
		return false
	}
	return IsAnyOfPattern(&p.AllOf[0])
}

// IsPattern reports whether p uses either of the two patterns.
func IsPattern(p *schema.Props) bool {
	return IsAnyOfPattern(p) || IsAllOfPattern(p)
}

// AnyOf returns a fresh copy of the pattern's anyOf list:
// [{type: integer}, {type: string}].
func AnyOf() []schema.Props {
	return []schema.Props{{Type: "integer"}, {Type: "string"}}
}

// IsValue reports whether v, a decoded JSON value, is an integer or a string:
// a string, a Go integer, or a finite float64 without fractional part (the
// OpenAPI validator accepts 1.0 as an integer).
func IsValue(v any) bool {
	switch x := v.(type) {
	case string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return true
	case float64:
		return !math.IsInf(x, 0) && !math.IsNaN(x) && x == math.Trunc(x)
	case float32:
		f := float64(x)
		return !math.IsInf(f, 0) && !math.IsNaN(f) && f == math.Trunc(f)
	}
	return false
}

// Unfold returns the node as the apiserver publishes it: when p has
// x-kubernetes-int-or-string: true and uses neither pattern, the type
// alternatives are made explicit, as anyOf: [{type: integer}, {type: string}]
// if p has no anyOf, else as a new first allOf entry holding that anyOf.
// Otherwise p itself is returned. p is never modified; the result shares
// everything it does not change with p. Only this node is unfolded, not its
// children (see UnfoldAll).
func Unfold(p *schema.Props) *schema.Props {
	if p == nil || !p.XIntOrString || IsPattern(p) {
		return p
	}
	n := *p
	if n.AnyOf == nil {
		n.AnyOf = AnyOf()
	} else {
		allOf := make([]schema.Props, 0, len(p.AllOf)+1)
		allOf = append(allOf, schema.Props{AnyOf: AnyOf()})
		n.AllOf = append(allOf, p.AllOf...)
	}
	return &n
}

// UnfoldAll unfolds every node of the structural core of p (p itself, its
// properties, items and additionalProperties, recursively; not the contents
// of junctors, where x-kubernetes-int-or-string cannot be set). p is never
// modified: changed nodes and their ancestors are copies, unchanged subtrees
// are shared.
func UnfoldAll(p *schema.Props) *schema.Props {
	if p == nil {
		return nil
	}
	n := Unfold(p)
	changed := n != p
	copyNode := func() {
		if !changed {
			c := *n
			n = &c
			changed = true
		}
	}
	if p.Items != nil && p.Items.Schema != nil {
		if it := UnfoldAll(p.Items.Schema); it != p.Items.Schema {
			copyNode()
			n.Items = &schema.PropsOrArray{Schema: it}
		}
	}
	if p.AdditionalProperties != nil && p.AdditionalProperties.Schema != nil {
		if ap := UnfoldAll(p.AdditionalProperties.Schema); ap != p.AdditionalProperties.Schema {
			copyNode()
			n.AdditionalProperties = &schema.PropsOrBool{Allows: true, Schema: ap}
		}
	}
	var props map[string]schema.Props
	for k := range p.Properties {
		prop := p.Properties[k]
		u := UnfoldAll(&prop)
		if u == &prop {
			continue
		}
		if props == nil {
			props = make(map[string]schema.Props, len(p.Properties))
			for k2, v2 := range p.Properties {
				props[k2] = v2
			}
		}
		props[k] = *u
	}
	if props != nil {
		copyNode()
		n.Properties = props
	}
	return n
}

// onlyType reports whether p, an entry of a junctor, carries its type t and
// nothing else, judged as the apiserver's structural conversion sees it: an
// empty but present list or map (required: [], properties: {}) counts as
// present, a null default or example as absent.
func onlyType(p *schema.Props, t string) bool {
	if p.Type != t {
		return false
	}
	q := *p
	q.Type = ""
	return IsEmptyNested(&q)
}

// IsEmptyNested reports whether p, taken as an entry of a logical junctor,
// carries nothing at all in the apiserver's structural conversion (the
// conversion's zero value). Keywords that conversion does not carry over
// (id, $schema, $ref, definitions, dependencies, patternProperties,
// additionalItems: when set, no structural model is built at all) are not
// looked at.
func IsEmptyNested(p *schema.Props) bool {
	switch {
	case p.Type != "", p.Description != "", p.Title != "", p.Format != "", p.Pattern != "":
		return false
	case p.Default != nil && p.Default.Value != nil, p.Example != nil && p.Example.Value != nil:
		return false
	case p.Maximum != nil, p.Minimum != nil, p.MultipleOf != nil:
		return false
	case p.MaxLength != nil, p.MinLength != nil, p.MaxItems != nil, p.MinItems != nil:
		return false
	case p.MaxProperties != nil, p.MinProperties != nil:
		return false
	case p.ExclusiveMaximum, p.ExclusiveMinimum, p.UniqueItems, p.Nullable:
		return false
	case p.XEmbeddedResource, p.XIntOrString, p.XPreserveUnknownFields != nil:
		return false
	case p.XListType != nil, p.XMapType != nil, p.XListMapKeys != nil, p.XValidations != nil:
		return false
	case len(p.Enum) > 0, len(p.AllOf) > 0, len(p.AnyOf) > 0, len(p.OneOf) > 0, p.Not != nil:
		return false
	case p.Required != nil, p.Properties != nil, p.ExternalDocs != nil:
		return false
	case p.Items != nil && (p.Items.Schema != nil || len(p.Items.Array) > 0):
		return false
	case p.AdditionalProperties != nil && (p.AdditionalProperties.Schema != nil || p.AdditionalProperties.Allows):
		return false
	}
	return true
}
