// The x-kubernetes-int-or-string junctor patterns the apiserver tolerates
// in a structural schema (see package intorstring for the rule).

package model

// IsAnyOfPattern reports whether p's anyOf is exactly
// [{type: integer}, {type: string}], in that order. It looks at nothing else
// of p (the apiserver recognises the pattern whether or not the node has
// x-kubernetes-int-or-string set).
func IsAnyOfPattern(p *Props) bool {
	if p == nil || len(p.AnyOf) != 2 {
		return false
	}
	return onlyType(&p.AnyOf[0], "integer") && onlyType(&p.AnyOf[1], "string")
}

// IsAllOfPattern reports whether p's first allOf entry has the anyOf pattern
// (see IsAnyOfPattern). The rest of that first entry and the further allOf
// entries are not looked at: they are ordinary junctor content.
func IsAllOfPattern(p *Props) bool {
	if p == nil || len(p.AllOf) == 0 {
		return false
	}
	return IsAnyOfPattern(&p.AllOf[0])
}

// onlyType reports whether p, an entry of a junctor, carries its type t and
// nothing else, judged as the apiserver's structural conversion sees it: an
// empty but present list or map (required: [], properties: {}) counts as
// present, a null default or example as absent.
func onlyType(p *Props, t string) bool {
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
func IsEmptyNested(p *Props) bool {
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
