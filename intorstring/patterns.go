package intorstring

import "github.com/crdschema/crdschema/schema"

// IsAnyOfPattern reports whether p's anyOf is exactly
// [{type: integer}, {type: string}], in that order. It looks at nothing else
// of p (the apiserver recognises the pattern whether or not the node has
// x-kubernetes-int-or-string set). It is false for a nil p; for a node of a
// structural schema, pass its Source.
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
	return q.IsEmptyNested()
}
