package model

import (
	"encoding/base64"
	"math"

	"github.com/crdschema/crdschema/internal/jsonfast"
	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// The fast path of DecodeCRD and DecodeProps: the document is decoded once
// into plain values (internal/jsonfast), which are then converted field by
// field with the rules encoding/json applies to the wire structs (absent or
// null leaves a field at its zero value, null empties a pointer, slice or
// map, an empty array or object gives a non-nil empty slice or map, unknown
// keys are ignored). Whatever these rules do not cover exactly (a value of
// the wrong type, an integer field given a fraction or an out-of-range
// number, a duplicate key, where encoding/json would merge) makes the
// conversion decline, and the caller decodes the bytes with the exact
// decoder, which also produces the exact error.

// fastDecodeCRD decodes a CRD document, or declines with ok false.
func fastDecodeCRD(data []byte) (crd *CRD, ok bool) {
	v, ok := jsonfast.Decode(data)
	if !ok {
		return nil, false
	}
	doc, isMap := v.(map[string]any)
	if !isMap {
		return nil, false
	}
	// The decoded value is private to this call: JSON values may be kept
	// as they are.
	return crdFromValue(doc, false)
}

// crdFromValue converts a decoded CRD document, or declines. With copyJSON,
// JSON values (default, example, enum entries) are deep-copied so that the
// CRD shares no map or slice with doc.
func crdFromValue(doc map[string]any, copyJSON bool) (crd *CRD, ok bool) {
	d := fdec{copyJSON: copyJSON}
	av, _ := doc["apiVersion"].(string)
	switch av {
	case v1APIVersion:
		var in v1CRD
		d.v1CRD(doc, &in)
		if d.fail {
			return nil, false
		}
		return fromV1(&in), true
	case v1beta1APIVersion:
		var in v1beta1CRD
		d.v1beta1CRD(doc, &in)
		if d.fail {
			return nil, false
		}
		return fromV1beta1(&in), true
	}
	return nil, false
}

// fastDecodeProps decodes a schema document into a fresh Props, or declines.
func fastDecodeProps(data []byte) (*Props, bool) {
	v, ok := jsonfast.Decode(data)
	if !ok {
		return nil, false
	}
	var d fdec
	p := &Props{}
	d.props(v, p)
	if d.fail {
		return nil, false
	}
	return p, true
}

// fdec converts plain values to the wire structs; fail records a decline.
// copyJSON makes it deep-copy the JSON values it keeps.
type fdec struct {
	fail     bool
	copyJSON bool
}

// obj returns v as an object; nil (no fields) for null; declines otherwise.
func (d *fdec) obj(v any) map[string]any {
	switch x := v.(type) {
	case map[string]any:
		return x
	case nil:
		return nil
	}
	d.fail = true
	return nil
}

// setScalar stores a string or boolean v in *out; null leaves *out alone,
// any other type declines.
func setScalar[T string | bool](d *fdec, v any, out *T) {
	switch x := v.(type) {
	case T:
		*out = x
	case nil:
	default:
		d.fail = true
	}
}

// scalarPtr returns a pointer to v when it is a T, nil for null, and
// declines on any other type.
func scalarPtr[T string | bool | int64](d *fdec, v any) *T {
	switch x := v.(type) {
	case T:
		return &x
	case nil:
		return nil
	}
	d.fail = true
	return nil
}

func (d *fdec) str(v any, out *string)   { setScalar(d, v, out) }
func (d *fdec) boolean(v any, out *bool) { setScalar(d, v, out) }
func (d *fdec) strPtr(v any) *string     { return scalarPtr[string](d, v) }
func (d *fdec) boolPtr(v any) *bool      { return scalarPtr[bool](d, v) }
func (d *fdec) int64Ptr(v any) *int64    { return scalarPtr[int64](d, v) }

func (d *fdec) int32(v any, out *int32) {
	switch x := v.(type) {
	case int64:
		if x < math.MinInt32 || x > math.MaxInt32 {
			d.fail = true
			return
		}
		*out = int32(x)
	case nil:
	default:
		d.fail = true
	}
}

func (d *fdec) float64Ptr(v any) *float64 {
	switch x := v.(type) {
	case int64:
		f := float64(x)
		return &f
	case float64:
		return &x
	case nil:
		return nil
	}
	d.fail = true
	return nil
}

func (d *fdec) arr(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case nil:
		return nil, false
	}
	d.fail = true
	return nil, false
}

// list decodes an array element by element into a new slice; null
// gives nil.
func list[T any](d *fdec, v any, elem func(e any, out *T)) []T {
	a, ok := d.arr(v)
	if !ok {
		return nil
	}
	out := make([]T, len(a))
	for i, e := range a {
		elem(e, &out[i])
	}
	return out
}

// object decodes an object field by field into a new T; null gives nil.
// field is called with each key and value; it ignores unknown keys.
func object[T any](d *fdec, v any, field func(k string, e any, out *T)) *T {
	m := d.obj(v)
	if m == nil {
		return nil
	}
	out := new(T)
	for k, e := range m {
		field(k, e, out)
	}
	return out
}

func (d *fdec) strings(v any) []string { return list(d, v, d.str) }

func (d *fdec) strMap(v any) map[string]string {
	m := d.obj(v)
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		var s string
		d.str(e, &s)
		out[k] = s
	}
	return out
}

func (d *fdec) meta(v any, out *ObjectMeta) {
	for k, e := range d.obj(v) {
		switch k {
		case "name":
			d.str(e, &out.Name)
		case "generateName":
			d.str(e, &out.GenerateName)
		case "namespace":
			d.str(e, &out.Namespace)
		case "uid":
			d.str(e, &out.UID)
		case "labels":
			out.Labels = d.strMap(e)
		case "annotations":
			out.Annotations = d.strMap(e)
		case "finalizers":
			out.Finalizers = d.strings(e)
		}
	}
}

func (d *fdec) names(v any, out *Names) {
	for k, e := range d.obj(v) {
		switch k {
		case "plural":
			d.str(e, &out.Plural)
		case "singular":
			d.str(e, &out.Singular)
		case "shortNames":
			out.ShortNames = d.strings(e)
		case "kind":
			d.str(e, &out.Kind)
		case "listKind":
			d.str(e, &out.ListKind)
		case "categories":
			out.Categories = d.strings(e)
		}
	}
}

func (d *fdec) status(v any, out *CRDStatus) {
	for k, e := range d.obj(v) {
		if k == "storedVersions" {
			out.StoredVersions = d.strings(e)
		}
	}
}

func (d *fdec) validation(v any) *Validation {
	return object(d, v, func(k string, e any, out *Validation) {
		if k == "openAPIV3Schema" {
			out.OpenAPIV3Schema = d.propsPtr(e)
		}
	})
}

func (d *fdec) subresources(v any) *Subresources {
	return object(d, v, func(k string, e any, out *Subresources) {
		switch k {
		case "status":
			if d.obj(e) != nil {
				out.Status = &struct{}{}
			}
		case "scale":
			if sc := d.scale(e); sc != nil {
				out.Scale = sc
			}
		}
	})
}

func (d *fdec) scale(v any) *Scale {
	return object(d, v, func(k string, e any, sc *Scale) {
		switch k {
		case "specReplicasPath":
			d.str(e, &sc.SpecReplicasPath)
		case "statusReplicasPath":
			d.str(e, &sc.StatusReplicasPath)
		case "labelSelectorPath":
			sc.LabelSelectorPath = d.strPtr(e)
		}
	})
}

func (d *fdec) selectableFields(v any) []SelectableField {
	return list(d, v, func(e any, out *SelectableField) {
		for k, fe := range d.obj(e) {
			if k == "jsonPath" {
				d.str(fe, &out.JSONPath)
			}
		}
	})
}

// column decodes a printer column; pathKey is the JSONPath field's key.
func (d *fdec) column(v any, out *Column, pathKey string) {
	for k, e := range d.obj(v) {
		switch k {
		case "name":
			d.str(e, &out.Name)
		case "type":
			d.str(e, &out.Type)
		case "format":
			d.str(e, &out.Format)
		case "description":
			d.str(e, &out.Description)
		case "priority":
			d.int32(e, &out.Priority)
		case pathKey:
			d.str(e, &out.JSONPath)
		}
	}
}

func (d *fdec) v1Columns(v any) []v1Column {
	return list(d, v, func(e any, out *v1Column) { d.column(e, (*Column)(out), "jsonPath") })
}

func (d *fdec) v1beta1Columns(v any) []v1beta1Column {
	return list(d, v, func(e any, out *v1beta1Column) { d.column(e, (*Column)(out), "JSONPath") })
}

func (d *fdec) clientConfig(v any) *WebhookClientConfig {
	return object(d, v, func(k string, e any, out *WebhookClientConfig) {
		switch k {
		case "url":
			out.URL = d.strPtr(e)
		case "service":
			if s := d.service(e); s != nil {
				out.Service = s
			}
		case "caBundle":
			switch x := e.(type) {
			case nil:
			case string:
				b := make([]byte, base64.StdEncoding.DecodedLen(len(x)))
				n, err := base64.StdEncoding.Decode(b, []byte(x))
				if err != nil {
					d.fail = true
				}
				out.CABundle = b[:n]
			default:
				d.fail = true
			}
		}
	})
}

func (d *fdec) service(v any) *ServiceReference {
	return object(d, v, func(k string, e any, s *ServiceReference) {
		switch k {
		case "namespace":
			d.str(e, &s.Namespace)
		case "name":
			d.str(e, &s.Name)
		case "path":
			s.Path = d.strPtr(e)
		case "port":
			if e != nil {
				var p int32
				d.int32(e, &p)
				s.Port = &p
			}
		}
	})
}

func (d *fdec) v1CRD(doc map[string]any, in *v1CRD) {
	for k, e := range doc {
		switch k {
		case "apiVersion":
			d.str(e, &in.APIVersion)
		case "kind":
			d.str(e, &in.Kind)
		case "metadata":
			d.meta(e, &in.Metadata)
		case "status":
			d.status(e, &in.Status)
		case "spec":
			d.v1Spec(e, in)
		}
	}
}

// v1Spec decodes the spec of a v1 CRD into in.Spec.
func (d *fdec) v1Spec(v any, in *v1CRD) {
	s := &in.Spec
	for k, e := range d.obj(v) {
		switch k {
		case "group":
			d.str(e, &s.Group)
		case "names":
			d.names(e, &s.Names)
		case "scope":
			d.str(e, &s.Scope)
		case "preserveUnknownFields":
			d.boolean(e, &s.PreserveUnknownFields)
		case "versions":
			s.Versions = list(d, e, d.v1Version)
		case "conversion":
			s.Conversion = d.v1Conversion(e)
		}
	}
}

func (d *fdec) v1Conversion(v any) *v1Conversion {
	return object(d, v, func(k string, e any, c *v1Conversion) {
		switch k {
		case "strategy":
			d.str(e, &c.Strategy)
		case "webhook":
			c.Webhook = d.v1Webhook(e)
		}
	})
}

func (d *fdec) v1Webhook(v any) *v1Webhook {
	return object(d, v, func(k string, e any, w *v1Webhook) {
		switch k {
		case "clientConfig":
			w.ClientConfig = d.clientConfig(e)
		case "conversionReviewVersions":
			w.ConversionReviewVersions = d.strings(e)
		}
	})
}

func (d *fdec) v1Version(v any, out *v1Version) {
	for k, e := range d.obj(v) {
		switch k {
		case "name":
			d.str(e, &out.Name)
		case "served":
			d.boolean(e, &out.Served)
		case "storage":
			d.boolean(e, &out.Storage)
		case "deprecated":
			d.boolean(e, &out.Deprecated)
		case "deprecationWarning":
			out.DeprecationWarning = d.strPtr(e)
		case "schema":
			out.Schema = d.validation(e)
		case "subresources":
			out.Subresources = d.subresources(e)
		case "additionalPrinterColumns":
			out.AdditionalPrinterColumns = d.v1Columns(e)
		case "selectableFields":
			out.SelectableFields = d.selectableFields(e)
		}
	}
}

func (d *fdec) v1beta1CRD(doc map[string]any, in *v1beta1CRD) {
	for k, e := range doc {
		switch k {
		case "apiVersion":
			d.str(e, &in.APIVersion)
		case "kind":
			d.str(e, &in.Kind)
		case "metadata":
			d.meta(e, &in.Metadata)
		case "status":
			d.status(e, &in.Status)
		case "spec":
			d.v1beta1Spec(e, in)
		}
	}
}

// v1beta1Spec decodes the spec of a v1beta1 CRD into in.Spec.
func (d *fdec) v1beta1Spec(v any, in *v1beta1CRD) {
	s := &in.Spec
	for k, e := range d.obj(v) {
		switch k {
		case "group":
			d.str(e, &s.Group)
		case "version":
			d.str(e, &s.Version)
		case "names":
			d.names(e, &s.Names)
		case "scope":
			d.str(e, &s.Scope)
		case "validation":
			s.Validation = d.validation(e)
		case "subresources":
			s.Subresources = d.subresources(e)
		case "versions":
			s.Versions = list(d, e, d.v1beta1Version)
		case "additionalPrinterColumns":
			s.AdditionalPrinterColumns = d.v1beta1Columns(e)
		case "selectableFields":
			s.SelectableFields = d.selectableFields(e)
		case "conversion":
			if c := d.v1beta1Conversion(e); c != nil {
				s.Conversion = c
			}
		case "preserveUnknownFields":
			s.PreserveUnknownFields = d.boolPtr(e)
		}
	}
}

func (d *fdec) v1beta1Conversion(v any) *v1beta1Conversion {
	return object(d, v, func(k string, e any, c *v1beta1Conversion) {
		switch k {
		case "strategy":
			d.str(e, &c.Strategy)
		case "webhookClientConfig":
			c.WebhookClientConfig = d.clientConfig(e)
		case "conversionReviewVersions":
			c.ConversionReviewVersions = d.strings(e)
		}
	})
}

func (d *fdec) v1beta1Version(v any, out *v1beta1Version) {
	for k, e := range d.obj(v) {
		switch k {
		case "name":
			d.str(e, &out.Name)
		case "served":
			d.boolean(e, &out.Served)
		case "storage":
			d.boolean(e, &out.Storage)
		case "deprecated":
			d.boolean(e, &out.Deprecated)
		case "deprecationWarning":
			out.DeprecationWarning = d.strPtr(e)
		case "schema":
			out.Schema = d.validation(e)
		case "subresources":
			out.Subresources = d.subresources(e)
		case "additionalPrinterColumns":
			out.AdditionalPrinterColumns = d.v1beta1Columns(e)
		case "selectableFields":
			out.SelectableFields = d.selectableFields(e)
		}
	}
}

func (d *fdec) propsPtr(v any) *Props {
	m := d.obj(v)
	if m == nil {
		return nil
	}
	p := &Props{}
	d.propsMap(m, p)
	return p
}

// props decodes a schema into p (null leaves it at zero).
func (d *fdec) props(v any, p *Props) {
	d.propsMap(d.obj(v), p)
}

func (d *fdec) propsSlice(v any) []Props { return list(d, v, d.props) }

func (d *fdec) propsMapField(v any) map[string]Props {
	m := d.obj(v)
	if m == nil {
		return nil
	}
	out := make(map[string]Props, len(m))
	for k, e := range m {
		var p Props
		d.props(e, &p)
		out[k] = p
	}
	return out
}

// propsPtrMapField decodes the properties keyword: a null property is an
// empty schema, as the exact decoder leaves it (see Props.FillNullProperties). The
// schemas share one allocation.
func (d *fdec) propsPtrMapField(v any) map[string]*Props {
	m := d.obj(v)
	if m == nil {
		return nil
	}
	out := make(map[string]*Props, len(m))
	slab := make([]Props, len(m))
	i := 0
	for k, e := range m {
		p := &slab[i]
		i++
		d.props(e, p)
		out[k] = p
	}
	return out
}

func (d *fdec) propsOrBool(v any) *PropsOrBool {
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		return &PropsOrBool{Allows: x}
	case map[string]any:
		p := &Props{}
		d.propsMap(x, p)
		return &PropsOrBool{Allows: true, Schema: p}
	}
	d.fail = true
	return nil
}

func (d *fdec) jsonPtr(v any) *JSON {
	if v == nil {
		return nil
	}
	return &JSON{Value: d.json(v)}
}

// json returns a JSON value to keep: v itself, or with copyJSON a deep copy.
// A copy is only made of a value that is its own JSON decoding (see
// plainJSON); anything else makes the conversion decline.
func (d *fdec) json(v any) any {
	if !d.copyJSON {
		return v
	}
	if !plainJSON(v, 0) {
		d.fail = true
		return nil
	}
	return jsonvalue.DeepCopy(v)
}

// plainJSON reports whether v is what internal/jsonfast would decode from
// v's JSON encoding: no nil map or slice behind a non-nil interface, no
// float64 that encodes as an integer jsonfast reads back as int64, no
// other types, and not nested deeper than jsonfast reads.
func plainJSON(v any, depth int) bool {
	if depth > jsonfast.MaxDepth {
		return false
	}
	switch x := v.(type) {
	case nil, bool, string, int64:
		return true
	case float64:
		_, isInt := floatAsJSONInt(x)
		return !isInt && !math.IsInf(x, 0) && !math.IsNaN(x)
	case map[string]any:
		if x == nil {
			return false
		}
		for _, e := range x {
			if !plainJSON(e, depth+1) {
				return false
			}
		}
		return true
	case []any:
		if x == nil {
			return false
		}
		for _, e := range x {
			if !plainJSON(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// floatAsJSONInt reports whether encoding/json writes f without a fraction
// or exponent and the digits fit an int64, so that decoding gives int64.
func floatAsJSONInt(f float64) (int64, bool) {
	if f != math.Trunc(f) || math.Abs(f) >= 1e21 {
		return 0, false
	}
	if f < -9.223372036854775808e18 || f >= 9.223372036854775808e18 {
		return 0, false
	}
	return int64(f), true
}

func (d *fdec) propsMap(m map[string]any, p *Props) {
	for k, e := range m {
		switch k {
		case "id":
			d.str(e, &p.ID)
		case "$schema":
			d.str(e, &p.Schema)
		case "$ref":
			p.Ref = d.strPtr(e)
		case "description":
			d.str(e, &p.Description)
		case "type":
			d.str(e, &p.Type)
		case "format":
			d.str(e, &p.Format)
		case "title":
			d.str(e, &p.Title)
		case "default":
			p.Default = d.jsonPtr(e)
		case "maximum":
			p.Maximum = d.float64Ptr(e)
		case "exclusiveMaximum":
			d.boolean(e, &p.ExclusiveMaximum)
		case "minimum":
			p.Minimum = d.float64Ptr(e)
		case "exclusiveMinimum":
			d.boolean(e, &p.ExclusiveMinimum)
		case "maxLength":
			p.MaxLength = d.int64Ptr(e)
		case "minLength":
			p.MinLength = d.int64Ptr(e)
		case "pattern":
			d.str(e, &p.Pattern)
		case "maxItems":
			p.MaxItems = d.int64Ptr(e)
		case "minItems":
			p.MinItems = d.int64Ptr(e)
		case "uniqueItems":
			d.boolean(e, &p.UniqueItems)
		case "multipleOf":
			p.MultipleOf = d.float64Ptr(e)
		case "enum":
			p.Enum = d.enum(e)
		case "maxProperties":
			p.MaxProperties = d.int64Ptr(e)
		case "minProperties":
			p.MinProperties = d.int64Ptr(e)
		case "required":
			p.Required = d.strings(e)
		case "items":
			p.Items = d.items(e)
		case "allOf":
			p.AllOf = d.propsSlice(e)
		case "oneOf":
			p.OneOf = d.propsSlice(e)
		case "anyOf":
			p.AnyOf = d.propsSlice(e)
		case "not":
			p.Not = d.propsPtr(e)
		case "properties":
			p.Properties = d.propsPtrMapField(e)
		case "additionalProperties":
			p.AdditionalProperties = d.propsOrBool(e)
		case "patternProperties":
			p.PatternProperties = d.propsMapField(e)
		case "dependencies":
			p.Dependencies = d.dependencies(e)
		case "additionalItems":
			p.AdditionalItems = d.propsOrBool(e)
		case "definitions":
			p.Definitions = d.propsMapField(e)
		case "externalDocs":
			p.ExternalDocs = d.externalDocs(e)
		case "example":
			p.Example = d.jsonPtr(e)
		case "nullable":
			d.boolean(e, &p.Nullable)
		case "x-kubernetes-preserve-unknown-fields":
			p.XPreserveUnknownFields = d.boolPtr(e)
		case "x-kubernetes-embedded-resource":
			d.boolean(e, &p.XEmbeddedResource)
		case "x-kubernetes-int-or-string":
			d.boolean(e, &p.XIntOrString)
		case "x-kubernetes-list-map-keys":
			p.XListMapKeys = d.strings(e)
		case "x-kubernetes-list-type":
			p.XListType = d.strPtr(e)
		case "x-kubernetes-map-type":
			p.XMapType = d.strPtr(e)
		case "x-kubernetes-validations":
			p.XValidations = d.validationRules(e)
		}
		if d.fail {
			return
		}
	}
}

// enum decodes the enum keyword.
func (d *fdec) enum(e any) []JSON {
	return list(d, e, func(x any, out *JSON) { out.Value = d.json(x) })
}

// items decodes the items keyword: a schema or an array of schemas.
func (d *fdec) items(e any) *PropsOrArray {
	switch x := e.(type) {
	case nil:
		return nil
	case map[string]any:
		s := &Props{}
		d.propsMap(x, s)
		return &PropsOrArray{Schema: s}
	case []any:
		return &PropsOrArray{Array: d.propsSlice(x)}
	}
	// encoding/json hands the literal to UnmarshalJSON, which keeps
	// neither a schema nor an array.
	return &PropsOrArray{}
}

// dependencies decodes the dependencies keyword; lists of names are left
// to the exact decoder.
func (d *fdec) dependencies(e any) map[string]PropsOrStringArray {
	m := d.obj(e)
	if m == nil {
		return nil
	}
	deps := make(map[string]PropsOrStringArray, len(m))
	for dk, de := range m {
		var ps PropsOrStringArray
		switch x := de.(type) {
		case nil:
		case map[string]any:
			ps.Schema = &Props{}
			d.propsMap(x, ps.Schema)
		default:
			// Arrays of names and other literals: left to the exact
			// decoder.
			d.fail = true
		}
		deps[dk] = ps
	}
	return deps
}

// externalDocs decodes the externalDocs keyword.
func (d *fdec) externalDocs(v any) *ExternalDocs {
	return object(d, v, func(k string, e any, x *ExternalDocs) {
		switch k {
		case "description":
			d.str(e, &x.Description)
		case "url":
			d.str(e, &x.URL)
		}
	})
}

// validationRules decodes x-kubernetes-validations.
func (d *fdec) validationRules(e any) []ValidationRule {
	return list(d, e, func(x any, r *ValidationRule) {
		for rk, re := range d.obj(x) {
			switch rk {
			case "rule":
				d.str(re, &r.Rule)
			case "message":
				d.str(re, &r.Message)
			case "messageExpression":
				d.str(re, &r.MessageExpression)
			case "reason":
				r.Reason = d.strPtr(re)
			case "fieldPath":
				d.str(re, &r.FieldPath)
			case "optionalOldSelf":
				r.OptionalOldSelf = d.boolPtr(re)
			}
		}
	})
}
