package model

import (
	"math"
	"slices"

	"github.com/crdschema/crdschema/internal/semantic"
)

// SchemasEqual reports whether two schemas are equal as semantic.Equal
// finds them (nil and empty slices and maps equal), with the same answer,
// comparing field by field without reflection: semantic.Equal reflects on
// every field of every node (it took 3% of loading the corpus CRDs, mostly
// to find versions' schemas equal). The JSON values (default, example,
// enum entries) are compared by semantic.Equal itself. A schema holding a
// NaN bound is left to semantic.Equal whole, whose two comparisons differ
// on a NaN behind a shared pointer.
func SchemasEqual(a, b *Validation) bool {
	if a == nil || b == nil {
		return a == b
	}
	var c propsComparison
	eq := c.props(a.OpenAPIV3Schema, b.OpenAPIV3Schema)
	if c.nan {
		return semantic.Equal(a, b)
	}
	return eq
}

// propsComparison compares two schema trees; nan records a NaN met in a
// bound, where the answer is semantic.Equal's to give.
type propsComparison struct {
	nan bool
}

func (c *propsComparison) props(a, b *Props) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return c.scalars(a, b) && c.numbers(a, b) && c.lists(a, b) && c.nested(a, b) && c.rare(a, b) &&
		ptrEqual(a.XPreserveUnknownFields, b.XPreserveUnknownFields) &&
		ptrEqual(a.XListType, b.XListType) && ptrEqual(a.XMapType, b.XMapType) &&
		jsonEqual(a.Default, b.Default) && jsonEqual(a.Example, b.Example)
}

// scalars compares the strings and booleans of two nodes.
func (c *propsComparison) scalars(a, b *Props) bool {
	return a.Type == b.Type && a.Description == b.Description && a.Format == b.Format &&
		a.Pattern == b.Pattern && a.Title == b.Title && a.ID == b.ID && a.Schema == b.Schema &&
		a.Nullable == b.Nullable && a.ExclusiveMaximum == b.ExclusiveMaximum &&
		a.ExclusiveMinimum == b.ExclusiveMinimum && a.UniqueItems == b.UniqueItems &&
		a.XEmbeddedResource == b.XEmbeddedResource && a.XIntOrString == b.XIntOrString &&
		ptrEqual(a.Ref, b.Ref)
}

// numbers compares the numeric bounds of two nodes.
func (c *propsComparison) numbers(a, b *Props) bool {
	return c.float(a.Maximum, b.Maximum) && c.float(a.Minimum, b.Minimum) &&
		c.float(a.MultipleOf, b.MultipleOf) &&
		ptrEqual(a.MaxLength, b.MaxLength) && ptrEqual(a.MinLength, b.MinLength) &&
		ptrEqual(a.MaxItems, b.MaxItems) && ptrEqual(a.MinItems, b.MinItems) &&
		ptrEqual(a.MaxProperties, b.MaxProperties) && ptrEqual(a.MinProperties, b.MinProperties)
}

// lists compares the lists of values of two nodes.
func (c *propsComparison) lists(a, b *Props) bool {
	if !slices.Equal(a.Required, b.Required) || !slices.Equal(a.XListMapKeys, b.XListMapKeys) ||
		len(a.Enum) != len(b.Enum) || len(a.XValidations) != len(b.XValidations) {
		return false
	}
	// A shared list is equal as is (semantic.Equal's two comparisons
	// both stop there: it matters for a NaN value, unequal to itself).
	if len(a.Enum) == 0 || &a.Enum[0] != &b.Enum[0] {
		for i := range a.Enum {
			if !semantic.Equal(a.Enum[i].Value, b.Enum[i].Value) {
				return false
			}
		}
	}
	for i := range a.XValidations {
		if !ruleEqual(&a.XValidations[i], &b.XValidations[i]) {
			return false
		}
	}
	return true
}

// nested compares the schemas nested in two nodes that structural schemas
// use: properties, items, additionalProperties.
func (c *propsComparison) nested(a, b *Props) bool {
	if len(a.Properties) != len(b.Properties) {
		return false
	}
	for k, pa := range a.Properties {
		pb, ok := b.Properties[k]
		if !ok || !c.props(pa, pb) {
			return false
		}
	}
	if (a.Items == nil) != (b.Items == nil) ||
		a.Items != nil && !(c.props(a.Items.Schema, b.Items.Schema) && c.propsList(a.Items.Array, b.Items.Array)) {
		return false
	}
	return c.propsOrBool(a.AdditionalProperties, b.AdditionalProperties)
}

// rare compares the schemas nested in two nodes through the junctors and
// the keywords CRD schemas may not use, and externalDocs.
func (c *propsComparison) rare(a, b *Props) bool {
	if !c.propsList(a.AllOf, b.AllOf) || !c.propsList(a.OneOf, b.OneOf) || !c.propsList(a.AnyOf, b.AnyOf) ||
		!c.props(a.Not, b.Not) || !c.propsOrBool(a.AdditionalItems, b.AdditionalItems) ||
		!c.propsMap(a.PatternProperties, b.PatternProperties) || !c.propsMap(a.Definitions, b.Definitions) ||
		!ptrEqual(a.ExternalDocs, b.ExternalDocs) || len(a.Dependencies) != len(b.Dependencies) {
		return false
	}
	for k, da := range a.Dependencies {
		db, ok := b.Dependencies[k]
		if !ok || !c.props(da.Schema, db.Schema) || !slices.Equal(da.Property, db.Property) {
			return false
		}
	}
	return true
}

func (c *propsComparison) propsList(a, b []Props) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !c.props(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

func (c *propsComparison) propsMap(a, b map[string]Props) bool {
	if len(a) != len(b) {
		return false
	}
	for k, pa := range a {
		pb, ok := b[k]
		if !ok || !c.props(&pa, &pb) {
			return false
		}
	}
	return true
}

func (c *propsComparison) propsOrBool(a, b *PropsOrBool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Allows == b.Allows && c.props(a.Schema, b.Schema)
}

// float compares two bounds, noting a NaN.
func (c *propsComparison) float(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	if math.IsNaN(*a) || math.IsNaN(*b) {
		c.nan = true
	}
	return *a == *b
}

// ptrEqual reports whether two pointers are both nil or point to equal
// values.
func ptrEqual[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// jsonEqual compares two JSON values. A shared value is equal as is, as
// in semantic.Equal's two comparisons (a NaN is unequal to itself).
func jsonEqual(a, b *JSON) bool {
	if a == nil || b == nil || a == b {
		return a == b
	}
	return semantic.Equal(a.Value, b.Value)
}

func ruleEqual(a, b *ValidationRule) bool {
	return a.Rule == b.Rule && a.Message == b.Message && a.MessageExpression == b.MessageExpression &&
		a.FieldPath == b.FieldPath && ptrEqual(a.Reason, b.Reason) && ptrEqual(a.OptionalOldSelf, b.OptionalOldSelf)
}
