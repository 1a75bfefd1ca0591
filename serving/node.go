package serving

import (
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/intorstring"
	"github.com/crdschema/crdschema/schema"
)

// node is the published form of one node of a structural schema and its
// subtree: what the apiserver's structural model makes of it (Unfold on
// v3; on v2 ToStructuralOpenAPIV2 and the pruning of defaults), with the
// properties of embedded resources added.
func node(p *schema.Props, v2 bool) map[string]any {
	out := map[string]any{}
	keywords(out, p, !v2)
	preserve := isTrue(p.XPreserveUnknownFields)
	// v2: a nullable node loses its type and its subtree, a node that
	// preserves unknown fields its subtree.
	dropSubtree := v2 && (p.Nullable || preserve)
	if v2 && p.Nullable {
		delete(out, "type")
		delete(out, "nullable")
	}
	if !dropSubtree {
		subtree(out, p, v2)
	}
	if ap := p.AdditionalProperties; ap != nil {
		out["additionalProperties"] = additionalNode(ap, v2)
	}
	if v2 {
		v2Adjust(out, p, dropSubtree)
	} else {
		junctors(out, p)
		unfold(out, p)
	}
	if p.XEmbeddedResource && !(v2 && preserve) {
		addEmbedded(out, v2)
	}
	return out
}

// subtree adds to out the published items and properties of p.
func subtree(out map[string]any, p *schema.Props, v2 bool) {
	if p.Items != nil && p.Items.Schema != nil {
		out["items"] = node(p.Items.Schema, v2)
	}
	if len(p.Properties) > 0 {
		props := make(map[string]any, len(p.Properties))
		for k, c := range p.Properties {
			props[k] = node(c, v2)
		}
		out["properties"] = props
	}
}

// additionalNode is the published form of additionalProperties: its
// schema's node, or the boolean.
func additionalNode(ap *schema.PropsOrBool, v2 bool) any {
	if ap.Schema != nil {
		return node(ap.Schema, v2)
	}
	return ap.Allows
}

// v2Adjust does what ToStructuralOpenAPIV2 does to a node beyond dropping
// junctors, defaults and subtrees: an array without items and an object
// that preserves unknown fields lose their type, and required loses the
// nullable properties (all of it when additionalProperties is nullable).
func v2Adjust(out map[string]any, p *schema.Props, dropSubtree bool) {
	if _, ok := out["items"]; !ok && out["type"] == "array" {
		delete(out, "type")
	}
	if isTrue(p.XPreserveUnknownFields) && out["type"] == "object" {
		delete(out, "type")
	}
	required := p.Required
	if !dropSubtree {
		required = withoutNullable(required, p.Properties)
	}
	if ap := p.AdditionalProperties; ap != nil && ap.Schema != nil && ap.Schema.Nullable {
		required = nil
	}
	if len(required) == 0 {
		delete(out, "required")
	} else {
		out["required"] = anyList(required)
	}
}

// withoutNullable is required without the names of nullable properties.
func withoutNullable(required []string, props map[string]*schema.Props) []string {
	var out []string
	changed := false
	for _, r := range required {
		if c, ok := props[r]; ok && c.Nullable {
			changed = true
			continue
		}
		out = append(out, r)
	}
	if !changed {
		return required
	}
	return out
}

// nested is the published form of an entry of a logical junctor: its
// value validations and the generic keywords it carries (type,
// description, ...), items and properties, but no additionalProperties.
func nested(p *schema.Props) map[string]any {
	out := map[string]any{}
	keywords(out, p, true)
	if p.Items != nil && p.Items.Schema != nil {
		out["items"] = nested(p.Items.Schema)
	}
	if len(p.Properties) > 0 {
		props := make(map[string]any, len(p.Properties))
		for k, c := range p.Properties {
			props[k] = nested(c)
		}
		out["properties"] = props
	}
	junctors(out, p)
	return out
}

// junctors adds allOf, anyOf, oneOf and not.
func junctors(out map[string]any, p *schema.Props) {
	for _, j := range []struct {
		key string
		in  []schema.Props
	}{{"allOf", p.AllOf}, {"anyOf", p.AnyOf}, {"oneOf", p.OneOf}} {
		if len(j.in) == 0 {
			continue
		}
		list := make([]any, len(j.in))
		for i := range j.in {
			list[i] = nested(&j.in[i])
		}
		out[j.key] = list
	}
	if p.Not != nil {
		out["not"] = nested(p.Not)
	}
}

// unfold adds the int-or-string anyOf of x-kubernetes-int-or-string (v3),
// unless the node already spells one of the two patterns: as the anyOf
// itself, or inside a first allOf entry when the node has its own anyOf.
func unfold(out map[string]any, p *schema.Props) {
	if !p.XIntOrString || intorstring.IsAnyOfPattern(p) || intorstring.IsAllOfPattern(p) {
		return
	}
	pattern := []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
	if p.AnyOf == nil {
		out["anyOf"] = pattern
		return
	}
	allOf, _ := out["allOf"].([]any)
	out["allOf"] = append([]any{map[string]any{"anyOf": pattern}}, allOf...)
}

// addEmbedded adds the apiVersion, kind and metadata properties of an
// x-kubernetes-embedded-resource node, and requires apiVersion and kind.
func addEmbedded(out map[string]any, v2 bool) {
	props := properties(out)
	props["apiVersion"] = stringProperty(embeddedAPIVersionDoc)
	props["kind"] = stringProperty(embeddedKindDoc)
	props["metadata"] = ref(objectMetaModel, objectMetaDoc, v2)
	required, _ := out["required"].([]any)
	has := func(name string) bool {
		for _, r := range required {
			if r == name {
				return true
			}
		}
		return false
	}
	hasKind, hasAPIVersion := has("kind"), has("apiVersion")
	if !hasKind {
		required = append(required, "kind")
	}
	if !hasAPIVersion {
		required = append(required, "apiVersion")
	}
	out["required"] = required
}

// keywords sets the keywords a node carries besides its subtree and
// junctors: generic ones, value validations and extensions. withDefault
// is false for v2, whose definitions have no defaults.
func keywords(out map[string]any, p *schema.Props, withDefault bool) {
	genericKeywords(out, p, withDefault)
	valueKeywords(out, p)
	extensionKeywords(out, p)
}

func genericKeywords(out map[string]any, p *schema.Props, withDefault bool) {
	setString(out, "type", p.Type)
	setString(out, "description", p.Description)
	setString(out, "title", p.Title)
	if p.Nullable {
		out["nullable"] = true
	}
	if withDefault && p.Default != nil && p.Default.Value != nil {
		out["default"] = jsonvalue.DeepCopy(p.Default.Value)
	}
	if p.Example != nil && !emptyJSON(p.Example.Value) {
		out["example"] = jsonvalue.DeepCopy(p.Example.Value)
	}
	if d := p.ExternalDocs; d != nil {
		docs := map[string]any{}
		setString(docs, "description", d.Description)
		setString(docs, "url", d.URL)
		out["externalDocs"] = docs
	}
}

func valueKeywords(out map[string]any, p *schema.Props) {
	setString(out, "format", p.Format)
	setBounds(out, p)
	setBool(out, "exclusiveMaximum", p.ExclusiveMaximum)
	setBool(out, "exclusiveMinimum", p.ExclusiveMinimum)
	setBool(out, "uniqueItems", p.UniqueItems)
	if len(p.Enum) > 0 {
		enum := make([]any, len(p.Enum))
		for i, e := range p.Enum {
			enum[i] = jsonvalue.DeepCopy(e.Value)
		}
		out["enum"] = enum
	}
	if len(p.Required) > 0 {
		out["required"] = anyList(p.Required)
	}
}

func extensionKeywords(out map[string]any, p *schema.Props) {
	if isTrue(p.XPreserveUnknownFields) {
		out["x-kubernetes-preserve-unknown-fields"] = true
	}
	if p.XEmbeddedResource {
		out["x-kubernetes-embedded-resource"] = true
	}
	if p.XIntOrString {
		out["x-kubernetes-int-or-string"] = true
	}
	if len(p.XListMapKeys) > 0 {
		out["x-kubernetes-list-map-keys"] = anyList(p.XListMapKeys)
	}
	if p.XListType != nil {
		out["x-kubernetes-list-type"] = *p.XListType
	}
	if p.XMapType != nil {
		out["x-kubernetes-map-type"] = *p.XMapType
	}
	if len(p.XValidations) > 0 {
		rules := make([]any, len(p.XValidations))
		for i, r := range p.XValidations {
			rules[i] = rule(r)
		}
		out["x-kubernetes-validations"] = rules
	}
}

// rule is a CEL rule as the v1 ValidationRule encodes it.
func rule(r schema.ValidationRule) map[string]any {
	m := map[string]any{"rule": r.Rule}
	setString(m, "message", r.Message)
	setString(m, "messageExpression", r.MessageExpression)
	setString(m, "fieldPath", r.FieldPath)
	if r.Reason != nil {
		m["reason"] = *r.Reason
	}
	if r.OptionalOldSelf != nil {
		m["optionalOldSelf"] = *r.OptionalOldSelf
	}
	return m
}

func anyList(in []string) []any {
	out := make([]any, len(in))
	for i, s := range in {
		out[i] = s
	}
	return out
}

// setBounds sets the pattern and the numeric bounds of p, which the
// OpenAPI and the JSON Schema exports write alike.
func setBounds(out map[string]any, p *schema.Props) {
	setString(out, "pattern", p.Pattern)
	setFloat(out, "maximum", p.Maximum)
	setFloat(out, "minimum", p.Minimum)
	setFloat(out, "multipleOf", p.MultipleOf)
	setInt(out, "maxLength", p.MaxLength)
	setInt(out, "minLength", p.MinLength)
	setInt(out, "maxItems", p.MaxItems)
	setInt(out, "minItems", p.MinItems)
	setInt(out, "maxProperties", p.MaxProperties)
	setInt(out, "minProperties", p.MinProperties)
}

func setString(out map[string]any, key, v string) {
	if v != "" {
		out[key] = v
	}
}

func setBool(out map[string]any, key string, v bool) {
	if v {
		out[key] = true
	}
}

func setFloat(out map[string]any, key string, v *float64) {
	if v != nil {
		out[key] = *v
	}
}

func setInt(out map[string]any, key string, v *int64) {
	if v != nil {
		out[key] = *v
	}
}

// emptyJSON reports a value that kube-openapi's encoder leaves out of an
// omitempty field (example): null, "", {} or [].
func emptyJSON(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}
