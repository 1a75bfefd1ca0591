package serving

import (
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// draft4 is the JSON Schema dialect JSONSchema writes: kubeconform's
// default draft (its validator reads any draft, and patterns with Go's
// regexp, the apiserver's dialect) and one yaml-language-server reads.
// OpenAPI 3.0 schema objects use draft-04's keywords (boolean
// exclusiveMaximum and exclusiveMinimum), so they carry over unchanged.
const draft4 = "http://json-schema.org/draft-04/schema#"

// JSONSchema returns a JSON Schema (draft-04) of the objects a served
// version accepts on create, for validators such as kubeconform and
// yaml-language-server: the kind's schema with apiVersion, kind and
// ObjectMeta's shape at the root, nullable as a type that admits null,
// x-kubernetes-int-or-string as ["integer","string"], sets of
// x-kubernetes-list-type: set as uniqueItems, defaulted properties not
// required (the apiserver defaults before it validates) and null accepted
// for every property, as the apiserver drops such nulls before it
// validates. Formats are kept under x-kubernetes-format, not asserted (the
// validators' formats differ from the apiserver's); CEL rules, map-list
// keys and ObjectMeta's name rules stay as x- keywords. With strict,
// objects reject the fields pruning would drop (kubectl's
// --validate=strict): not below x-kubernetes-preserve-unknown-fields, not
// in metadata. s is the version's structural schema, nil when the version
// has none; the result shares nothing with s.
func JSONSchema(r Resource, s *structural.Schema, strict bool) map[string]any {
	c := jsConv{strict: strict}
	p := s.Source
	var out map[string]any
	if p == nil || r.PreserveUnknownFields {
		out = map[string]any{"type": "object"}
	} else {
		out = c.node(p, false)
	}
	out["$schema"] = draft4
	props := properties(out)
	if st, ok := props["status"].(map[string]any); ok && r.StatusSubresource {
		props["status"] = statusIgnored(st)
	}
	props["apiVersion"] = map[string]any{"type": "string", "description": apiVersionDoc, "enum": []any{r.Group + "/" + r.Version}}
	props["kind"] = map[string]any{"type": "string", "description": kindDoc, "enum": []any{r.Kind}}
	props["metadata"] = objectMeta(true)
	out["required"] = appendMissing(out["required"], "apiVersion", "kind", "metadata")
	out["x-kubernetes-group-version-kind"] = gvk(r, r.Kind)
	return out
}

// statusIgnored is what a schema says of .status when the version has the
// status subresource: the apiserver drops .status on create and takes it
// only through /status, so any value is accepted here; the schema is kept
// under x-kubernetes-status-schema for editors.
func statusIgnored(st map[string]any) map[string]any {
	out := map[string]any{"x-kubernetes-status-schema": st}
	if d, ok := st["description"]; ok {
		out["description"] = d
	}
	return out
}

type jsConv struct{ strict bool }

// node is the JSON Schema of one node; nullOK when the apiserver drops a
// null there (an object's property or map value) before it validates.
func (c jsConv) node(p *schema.Props, nullOK bool) map[string]any {
	out := map[string]any{}
	setString(out, "description", p.Description)
	setString(out, "title", p.Title)
	if p.Default != nil && p.Default.Value != nil {
		out["default"] = jsonvalue.DeepCopy(p.Default.Value)
	}
	nullOK = nullOK || p.Nullable
	setTypes(out, p, nullOK)
	jsValueKeywords(out, p, nullOK)
	jsExtensions(out, p)
	preserve := isTrue(p.XPreserveUnknownFields)
	if p.Items != nil && p.Items.Schema != nil {
		out["items"] = c.node(p.Items.Schema, false)
	}
	if len(p.Properties) > 0 {
		props := make(map[string]any, len(p.Properties))
		for k, child := range p.Properties {
			props[k] = c.node(child, !mustBeGiven(p, k))
		}
		out["properties"] = props
	}
	setRequired(out, p)
	switch ap := p.AdditionalProperties; {
	case ap != nil && ap.Schema != nil:
		out["additionalProperties"] = c.node(ap.Schema, true)
	case ap != nil:
		out["additionalProperties"] = ap.Allows
	case c.strict && !preserve && !p.XEmbeddedResource && p.Type == "object":
		out["additionalProperties"] = false
	}
	if p.XEmbeddedResource {
		c.embedded(out, preserve)
	}
	c.junctors(out, p, nullOK)
	return out
}

// embedded adds what an x-kubernetes-embedded-resource object must have:
// apiVersion and kind, and metadata of ObjectMeta's shape. Strict, it
// rejects unknown fields beside them unless it preserves them.
func (c jsConv) embedded(out map[string]any, preserve bool) {
	props := properties(out)
	props["apiVersion"] = map[string]any{"type": "string", "description": embeddedAPIVersionDoc}
	props["kind"] = map[string]any{"type": "string", "description": embeddedKindDoc}
	props["metadata"] = objectMeta(false)
	out["required"] = appendMissing(out["required"], "apiVersion", "kind")
	if c.strict && !preserve {
		if _, ok := out["additionalProperties"]; !ok {
			out["additionalProperties"] = false
		}
	}
}

// The apiserver's rules for a custom resource's metadata.name (a DNS
// subdomain, IsDNS1123Subdomain) and for label values
// (IsValidLabelValue), in the syntax RE2 and ECMA-262 share.
const (
	dnsSubdomainPattern = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	labelValuePattern   = `^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`
)

// objectMeta is the shape of ObjectMeta that JSON Schema can check: the
// types of its common fields and, at the root (of the object, not of an
// embedded resource), the rules the apiserver applies on create: name or
// generateName given, the name a DNS subdomain, label values valid. Label
// keys' syntax is listed, not checked; unknown fields are left open.
func objectMeta(root bool) map[string]any {
	str := func() map[string]any { return map[string]any{"type": []any{"string", "null"}} }
	strMap := func() map[string]any {
		return map[string]any{"type": []any{"object", "null"}, "additionalProperties": str()}
	}
	props := map[string]any{
		"name": str(), "namespace": str(), "generateName": str(),
		"labels": strMap(), "annotations": strMap(),
	}
	out := map[string]any{"description": objectMetaDoc, "type": []any{"object", "null"}, "properties": props}
	if !root {
		out["x-kubernetes-not-expressed"] = []any{"the apiserver checks only the types of an embedded resource's metadata fields"}
		return out
	}
	out["type"] = "object"
	name := props["name"].(map[string]any)
	name["pattern"], name["maxLength"] = dnsSubdomainPattern, 253
	labels := props["labels"].(map[string]any)
	labels["additionalProperties"] = map[string]any{"type": []any{"string", "null"}, "pattern": labelValuePattern, "maxLength": 63}
	nonEmpty := func(key string) map[string]any {
		return map[string]any{"required": []any{key}, "properties": map[string]any{key: map[string]any{"type": "string", "minLength": 1}}}
	}
	out["anyOf"] = []any{nonEmpty("name"), nonEmpty("generateName")}
	out["x-kubernetes-not-expressed"] = []any{"generateName: a DNS subdomain prefix", "labels and annotations: key syntax, annotations' total size"}
	return out
}

// setTypes sets type: the node's type, ["integer","string"] for
// int-or-string, with "null" when null is accepted.
func setTypes(out map[string]any, p *schema.Props, nullOK bool) {
	var types []any
	switch {
	case p.XIntOrString:
		types = []any{"integer", "string"}
	case p.Type != "":
		types = []any{p.Type}
	default:
		return
	}
	if nullOK {
		types = append(types, "null")
	}
	if len(types) == 1 {
		out["type"] = types[0]
		return
	}
	out["type"] = types
}

// jsValueKeywords sets the value validations JSON Schema states as the
// apiserver does (draft-04 and OpenAPI 3.0 share them).
func jsValueKeywords(out map[string]any, p *schema.Props, nullOK bool) {
	setBounds(out, p)
	setBool(out, "exclusiveMaximum", p.ExclusiveMaximum && p.Maximum != nil)
	setBool(out, "exclusiveMinimum", p.ExclusiveMinimum && p.Minimum != nil)
	setBool(out, "uniqueItems", p.UniqueItems || p.XListType != nil && *p.XListType == "set")
	if len(p.Enum) > 0 {
		enum := make([]any, 0, len(p.Enum)+1)
		hasNull := false
		for _, e := range p.Enum {
			enum = append(enum, jsonvalue.DeepCopy(e.Value))
			hasNull = hasNull || e.Value == nil
		}
		if nullOK && !hasNull {
			enum = append(enum, nil)
		}
		out["enum"] = enum
	}
	// The validators' formats are not the apiserver's (which accepts, for
	// one, date-times without a zone): kept, not asserted.
	setString(out, "x-kubernetes-format", p.Format)
}

// jsExtensions keeps what JSON Schema cannot say as x- keywords: CEL
// rules, list and map types and map-list keys (uniqueness by key), and
// the markers of preserved, embedded and int-or-string nodes.
func jsExtensions(out map[string]any, p *schema.Props) {
	extensionKeywords(out, p)
}

// mustBeGiven reports a required property without a default: a null
// there is dropped and then missing, so null is not accepted.
func mustBeGiven(p *schema.Props, name string) bool {
	c := p.Properties[name]
	if c == nil || c.Default != nil && c.Default.Value != nil {
		return false
	}
	for _, r := range p.Required {
		if r == name {
			return true
		}
	}
	return false
}

// setRequired is the node's required without the properties that have a
// default: the apiserver defaults them before it validates.
func setRequired(out map[string]any, p *schema.Props) {
	var req []any
	for _, name := range p.Required {
		if c, ok := p.Properties[name]; ok && c.Default != nil && c.Default.Value != nil {
			continue
		}
		req = append(req, name)
	}
	if len(req) > 0 {
		out["required"] = req
	}
}

// junctors adds allOf, anyOf, oneOf and not; where null is accepted they
// hold only for non-null values, as the apiserver drops the null first.
func (c jsConv) junctors(out map[string]any, p *schema.Props, nullOK bool) {
	j := map[string]any{}
	for _, e := range []struct {
		key string
		in  []schema.Props
	}{{"allOf", p.AllOf}, {"anyOf", p.AnyOf}, {"oneOf", p.OneOf}} {
		if len(e.in) == 0 {
			continue
		}
		list := make([]any, len(e.in))
		for i := range e.in {
			list[i] = c.nested(&e.in[i])
		}
		j[e.key] = list
	}
	if p.Not != nil {
		j["not"] = c.nested(p.Not)
	}
	if len(j) == 0 {
		return
	}
	if nullOK {
		out["anyOf"] = []any{map[string]any{"type": "null"}, j}
		return
	}
	for k, v := range j {
		out[k] = v
	}
}

// nested is an entry of a junctor: value validations, items, properties
// (whose nulls are dropped as well) and junctors, no additionalProperties.
func (c jsConv) nested(p *schema.Props) map[string]any {
	out := map[string]any{}
	setTypes(out, p, false)
	jsValueKeywords(out, p, false)
	if len(p.Required) > 0 {
		out["required"] = anyList(p.Required)
	}
	if p.Items != nil && p.Items.Schema != nil {
		out["items"] = c.nested(p.Items.Schema)
	}
	if len(p.Properties) > 0 {
		props := make(map[string]any, len(p.Properties))
		for k, child := range p.Properties {
			props[k] = map[string]any{"anyOf": []any{map[string]any{"type": "null"}, c.nested(child)}}
		}
		out["properties"] = props
	}
	c.junctors(out, p, false)
	return out
}

// appendMissing is the required list r (a []any or nil) with names added
// when absent.
func appendMissing(r any, names ...string) []any {
	list, _ := r.([]any)
	for _, n := range names {
		found := false
		for _, have := range list {
			found = found || have == n
		}
		if !found {
			list = append(list, n)
		}
	}
	return list
}
