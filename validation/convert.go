package validation

import (
	"strings"

	"k8s.io/kube-openapi/pkg/validation/spec"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// supportedStringFormats are the string formats the apiserver validates in
// CRD schemas (at its default compatibility version, which includes the
// k8s-short-name and k8s-long-name formats), normalised as go-openapi
// normalises format names: without dashes. Any other string format is
// dropped from the schema before validation.
var supportedStringFormats = map[string]bool{
	"bsonobjectid": true, "uri": true, "email": true, "hostname": true,
	"ipv4": true, "ipv6": true, "cidr": true, "mac": true,
	"uuid": true, "uuid3": true, "uuid4": true, "uuid5": true,
	"isbn": true, "isbn10": true, "isbn13": true, "creditcard": true,
	"ssn": true, "hexcolor": true, "rgbcolor": true, "byte": true,
	"password": true, "date": true, "duration": true, "datetime": true,
	"k8sshortname": true, "k8slongname": true,
}

// supportedFormat returns the format the apiserver keeps for a node of the
// given types: unsupported formats become "".
func supportedFormat(types spec.StringOrArray, format string) string {
	if format == "" {
		return ""
	}
	t := ""
	if len(types) == 1 {
		t = types[0]
	}
	switch t {
	case "", "string":
		if supportedStringFormats[strings.ReplaceAll(format, "-", "")] {
			return format
		}
	case "integer":
		if format == "int32" || format == "int64" {
			return format
		}
	case "number":
		if format == "float" || format == "double" {
			return format
		}
	}
	return ""
}

// fromProps converts a parsed schema node to kube-openapi's form the way the
// apiserver converts a custom resource's schema for validation:
// x-kubernetes-int-or-string becomes the types integer,string, and
// unsupported formats are dropped. $ref is never converted (no CRD may use
// it, and the engine cannot resolve it).
func fromProps(p *schema.Props) *spec.Schema {
	if p == nil {
		return nil
	}
	out := &spec.Schema{}
	if p.Type != "" {
		out.Type = spec.StringOrArray{p.Type}
	}
	if p.XIntOrString {
		out.Type = spec.StringOrArray{"integer", "string"}
	}
	out.Nullable = p.Nullable
	out.Title = p.Title
	out.Description = p.Description
	setValueValidation(out, p)
	if p.Default != nil {
		out.Default = p.Default.Value
	}
	out.Format = supportedFormat(out.Type, p.Format)

	junctorsInto(out, p)
	out.Properties = propsPtrMap(p.Properties)
	out.PatternProperties = propsMap(p.PatternProperties)
	out.Definitions = propsMap(p.Definitions)
	if ap := p.AdditionalProperties; ap != nil {
		out.AdditionalProperties = &spec.SchemaOrBool{Allows: ap.Allows, Schema: fromProps(ap.Schema)}
	}
	if ai := p.AdditionalItems; ai != nil {
		out.AdditionalItems = &spec.SchemaOrBool{Allows: ai.Allows, Schema: fromProps(ai.Schema)}
	}
	if it := p.Items; it != nil {
		out.Items = &spec.SchemaOrArray{Schema: fromProps(it.Schema)}
		if it.Array != nil {
			out.Items.Schemas = make([]spec.Schema, len(it.Array))
			for i := range it.Array {
				out.Items.Schemas[i] = *fromProps(&it.Array[i])
			}
		}
	}
	if p.Dependencies != nil {
		out.Dependencies = make(spec.Dependencies, len(p.Dependencies))
		for k, d := range p.Dependencies {
			out.Dependencies[k] = spec.SchemaOrStringArray{Schema: fromProps(d.Schema), Property: d.Property}
		}
	}
	return out
}

// fromModel converts a structural schema to kube-openapi's form as
// fromProps converts the schema it was built from: the structure (types,
// nullable, default, properties, items, additionalProperties,
// int-or-string) from the model, the value validations, formats, junctors,
// title and description from each node's Source. A schema built by
// structural.New converts exactly as its source would; one written by hand
// as the same schema written out would.
func fromModel(s *structural.Schema) *spec.Schema {
	if s == nil {
		return nil
	}
	out := &spec.Schema{}
	fillFromModel(out, s)
	return out
}

// fillFromModel is fromModel into out. The properties' schemas are filled
// into one scratch schema copied into the map, rather than each allocated
// and copied: those were half of what fromModel allocated (about 5 MB of
// garbage of one `crdschema apply` over argo-workflows' corpus project,
// issue 32).
func fillFromModel(out *spec.Schema, s *structural.Schema) {
	fillNode(out, s)
	if len(s.Properties) > 0 {
		out.Properties = make(map[string]spec.Schema, len(s.Properties))
		child := &spec.Schema{} // one for all properties, reset for each
		for k, c := range s.Properties {
			if c == nil {
				c = &structural.Schema{}
			}
			*child = spec.Schema{}
			fillFromModel(child, c)
			out.Properties[k] = *child
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		out.AdditionalProperties = &spec.SchemaOrBool{Allows: ap.Allows, Schema: fromModel(ap.Schema)}
	}
	if s.Items != nil {
		out.Items = &spec.SchemaOrArray{Schema: fromModel(s.Items)}
	}
}

// fillNode is fillFromModel without the model's children (properties,
// additionalProperties, items): the node's own keywords, and the parts
// converted from its Source (junctors, and the source's items where the
// model has none).
func fillNode(out *spec.Schema, s *structural.Schema) {
	if s.Type != "" {
		out.Type = spec.StringOrArray{s.Type}
	}
	if s.IntOrString {
		out.Type = spec.StringOrArray{"integer", "string"}
	}
	out.Nullable = s.Nullable
	if s.HasDefault {
		out.Default = s.Default
	}
	if s.Source != nil {
		sourceInto(out, s)
	}
}

// sourceInto copies into out, converted from the schema of model node s,
// what fromModel reads from s.Source (not nil).
func sourceInto(out *spec.Schema, s *structural.Schema) {
	p := s.Source
	out.Title = p.Title
	out.Description = p.Description
	setValueValidation(out, p)
	out.Format = supportedFormat(out.Type, p.Format)
	// The model drops an empty properties map; the conversion of the
	// source keeps it.
	if p.Properties != nil && len(s.Properties) == 0 {
		out.Properties = map[string]spec.Schema{}
	}
	sourceSubschemasInto(out, s)
}

// sourceSubschemasInto converts into out the schemas of model node s
// that fromModel takes from its Source (not nil): the junctors, and the
// items where the model has none (the model drops an empty items array;
// the conversion of the source keeps it).
func sourceSubschemasInto(out *spec.Schema, s *structural.Schema) {
	p := s.Source
	junctorsInto(out, p)
	if p.Items != nil && s.Items == nil {
		out.Items = &spec.SchemaOrArray{Schema: fromProps(p.Items.Schema)}
		if p.Items.Array != nil {
			out.Items.Schemas = []spec.Schema{}
		}
	}
}

// junctorsInto converts the logical junctors of p into out, as fromProps
// converts them.
func junctorsInto(out *spec.Schema, p *schema.Props) {
	for _, l := range []struct {
		in  []schema.Props
		out *[]spec.Schema
	}{{p.AllOf, &out.AllOf}, {p.OneOf, &out.OneOf}, {p.AnyOf, &out.AnyOf}} {
		for i := range l.in {
			*l.out = append(*l.out, *fromProps(&l.in[i]))
		}
	}
	if p.Not != nil {
		out.Not = fromProps(p.Not)
	}
}

func propsMap(in map[string]schema.Props) map[string]spec.Schema {
	if in == nil {
		return nil
	}
	out := make(map[string]spec.Schema, len(in))
	for k := range in {
		p := in[k]
		out[k] = *fromProps(&p)
	}
	return out
}

// propsPtrMap is propsMap for the properties keyword.
func propsPtrMap(in map[string]*schema.Props) map[string]spec.Schema {
	if in == nil {
		return nil
	}
	out := make(map[string]spec.Schema, len(in))
	for k, p := range in {
		out[k] = *fromProps(p)
	}
	return out
}

// setValueValidation copies the value validations of p (without format and
// junctors) into out.
func setValueValidation(out *spec.Schema, p *schema.Props) {
	out.Maximum = p.Maximum
	out.ExclusiveMaximum = p.ExclusiveMaximum
	out.Minimum = p.Minimum
	out.ExclusiveMinimum = p.ExclusiveMinimum
	out.MaxLength = p.MaxLength
	out.MinLength = p.MinLength
	out.Pattern = p.Pattern
	out.MaxItems = p.MaxItems
	out.MinItems = p.MinItems
	out.UniqueItems = p.UniqueItems
	out.MultipleOf = p.MultipleOf
	out.MaxProperties = p.MaxProperties
	out.MinProperties = p.MinProperties
	out.Required = p.Required
	if p.Enum != nil {
		out.Enum = make([]any, len(p.Enum))
		for i := range p.Enum {
			out.Enum[i] = p.Enum[i].Value
		}
	}
}

// fromStructural converts a structural schema to kube-openapi's form the way
// the apiserver's structural conversion does (used to validate defaults):
// the structural core from the structural model, value validations and
// junctors from the source node, no int-or-string unfolding, formats kept.
func fromStructural(s *structural.Schema) *spec.Schema {
	if s == nil {
		return nil
	}
	out := &spec.Schema{}
	if s.Items != nil {
		out.Items = &spec.SchemaOrArray{Schema: fromStructural(s.Items)}
	}
	if s.Properties != nil {
		out.Properties = make(map[string]spec.Schema, len(s.Properties))
		for k, c := range s.Properties {
			out.Properties[k] = *fromStructural(c)
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		out.AdditionalProperties = &spec.SchemaOrBool{Allows: ap.Allows, Schema: fromStructural(ap.Schema)}
	}
	if s.Type != "" {
		out.Type = spec.StringOrArray{s.Type}
	}
	out.Nullable = s.Nullable
	if s.HasDefault {
		out.Default = s.Default
	}
	if p := sourceOf(s); p != nil {
		out.Title = p.Title
		out.Description = p.Description
		nestedInto(out, p)
	}
	return out
}

// nestedInto copies the value validations and junctors of p into out, the
// junctors converted as the structural conversion converts them.
func nestedInto(out *spec.Schema, p *schema.Props) {
	setValueValidation(out, p)
	out.Format = p.Format
	for _, l := range []struct {
		in  []schema.Props
		out *[]spec.Schema
	}{{p.AllOf, &out.AllOf}, {p.AnyOf, &out.AnyOf}, {p.OneOf, &out.OneOf}} {
		for i := range l.in {
			*l.out = append(*l.out, *nested(&l.in[i]))
		}
	}
	if p.Not != nil {
		out.Not = nested(p.Not)
	}
}

// nested converts a node inside a junctor: value validations, items,
// properties and the (normally forbidden) generic keywords; not
// additionalProperties.
func nested(p *schema.Props) *spec.Schema {
	out := &spec.Schema{}
	nestedInto(out, p)
	if p.Items != nil && p.Items.Schema != nil {
		out.Items = &spec.SchemaOrArray{Schema: nested(p.Items.Schema)}
	}
	if p.Properties != nil {
		out.Properties = make(map[string]spec.Schema, len(p.Properties))
		for k := range p.Properties {
			out.Properties[k] = *nested(p.Properties[k])
		}
	}
	if p.Type != "" {
		out.Type = spec.StringOrArray{p.Type}
	}
	out.Nullable = p.Nullable
	out.Title = p.Title
	out.Description = p.Description
	if p.Default != nil {
		out.Default = p.Default.Value
	}
	return out
}

// sourceOf is s.Source, nil for a nil node.
func sourceOf(s *structural.Schema) *schema.Props {
	if s == nil {
		return nil
	}
	return s.Source
}
