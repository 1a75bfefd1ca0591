package schema

// IsEmptyNested reports whether p, taken as an entry of a logical junctor,
// carries nothing at all in the apiserver's structural conversion (the
// conversion's zero value). Keywords that conversion does not carry over
// (id, $schema, $ref, definitions, dependencies, patternProperties,
// additionalItems: when set, no structural model is built at all) are not
// looked at.
func (p *Props) IsEmptyNested() bool {
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
