package schema

import (
	"errors"

	kjson "k8s.io/apimachinery/pkg/util/json"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// Props is one node of an OpenAPI v3 schema as a CustomResourceDefinition
// carries it (the apiextensions.k8s.io JSONSchemaProps). It keeps every
// keyword the apiserver decodes, including the ones a CRD schema must not use
// ($ref, definitions, patternProperties, …), so that checks can report them at
// their exact path.
//
// Props is decoded with the apiserver's rules: keys are case-sensitive,
// unknown keys are ignored, integers stay int64 inside JSON values. Each
// field is the keyword its json tag names; an X field is the
// x-kubernetes- extension of that name. A Props may also be written by
// hand; readers treat it as read-only.
type Props struct {
	ID          string  `json:"id,omitempty"`
	Schema      string  `json:"$schema,omitempty"`
	Ref         *string `json:"$ref,omitempty"`
	Description string  `json:"description,omitempty"`
	Type        string  `json:"type,omitempty"`
	Format      string  `json:"format,omitempty"`
	Title       string  `json:"title,omitempty"`

	Default          *JSON    `json:"default,omitempty"`
	Maximum          *float64 `json:"maximum,omitempty"`
	ExclusiveMaximum bool     `json:"exclusiveMaximum,omitempty"`
	Minimum          *float64 `json:"minimum,omitempty"`
	ExclusiveMinimum bool     `json:"exclusiveMinimum,omitempty"`
	MaxLength        *int64   `json:"maxLength,omitempty"`
	MinLength        *int64   `json:"minLength,omitempty"`
	Pattern          string   `json:"pattern,omitempty"`
	MaxItems         *int64   `json:"maxItems,omitempty"`
	MinItems         *int64   `json:"minItems,omitempty"`
	UniqueItems      bool     `json:"uniqueItems,omitempty"`
	MultipleOf       *float64 `json:"multipleOf,omitempty"`
	Enum             []JSON   `json:"enum,omitempty"`
	MaxProperties    *int64   `json:"maxProperties,omitempty"`
	MinProperties    *int64   `json:"minProperties,omitempty"`
	Required         []string `json:"required,omitempty"`

	Items                *PropsOrArray                 `json:"items,omitempty"`
	AllOf                []Props                       `json:"allOf,omitempty"`
	OneOf                []Props                       `json:"oneOf,omitempty"`
	AnyOf                []Props                       `json:"anyOf,omitempty"`
	Not                  *Props                        `json:"not,omitempty"`
	Properties           map[string]*Props             `json:"properties,omitempty"`
	AdditionalProperties *PropsOrBool                  `json:"additionalProperties,omitempty"`
	PatternProperties    map[string]Props              `json:"patternProperties,omitempty"`
	Dependencies         map[string]PropsOrStringArray `json:"dependencies,omitempty"`
	AdditionalItems      *PropsOrBool                  `json:"additionalItems,omitempty"`
	Definitions          map[string]Props              `json:"definitions,omitempty"`
	ExternalDocs         *ExternalDocs                 `json:"externalDocs,omitempty"`
	Example              *JSON                         `json:"example,omitempty"`
	Nullable             bool                          `json:"nullable,omitempty"`

	XPreserveUnknownFields *bool            `json:"x-kubernetes-preserve-unknown-fields,omitempty"`
	XEmbeddedResource      bool             `json:"x-kubernetes-embedded-resource,omitempty"`
	XIntOrString           bool             `json:"x-kubernetes-int-or-string,omitempty"`
	XListMapKeys           []string         `json:"x-kubernetes-list-map-keys,omitempty"`
	XListType              *string          `json:"x-kubernetes-list-type,omitempty"`
	XMapType               *string          `json:"x-kubernetes-map-type,omitempty"`
	XValidations           []ValidationRule `json:"x-kubernetes-validations,omitempty"`
}

// ExternalDocs is the externalDocs keyword.
type ExternalDocs struct {
	Description string `json:"description,omitempty"`
	URL         string `json:"url,omitempty"`
}

// ValidationRule is one entry of x-kubernetes-validations (a CEL rule).
type ValidationRule struct {
	Rule              string  `json:"rule"`
	Message           string  `json:"message,omitempty"`
	MessageExpression string  `json:"messageExpression,omitempty"`
	Reason            *string `json:"reason,omitempty"`
	FieldPath         string  `json:"fieldPath,omitempty"`
	OptionalOldSelf   *bool   `json:"optionalOldSelf,omitempty"`
}

// JSON holds an arbitrary JSON value (default, example, enum entries) as a
// plain Go value: map[string]any, []any, string, bool, int64, float64 or nil.
type JSON struct {
	Value any
}

// UnmarshalJSON decodes a JSON value, keeping integers as int64.
func (j *JSON) UnmarshalJSON(data []byte) error {
	j.Value = nil
	if len(data) == 0 || string(data) == "null" {
		return nil
	}
	return kjson.Unmarshal(data, &j.Value)
}

// MarshalJSON encodes the value.
func (j JSON) MarshalJSON() ([]byte, error) {
	return kjson.Marshal(j.Value)
}

// PropsOrArray is the items keyword: a schema or (forbidden in CRDs) an array
// of schemas.
type PropsOrArray struct {
	Schema *Props
	Array  []Props
}

// UnmarshalJSON accepts a schema object or an array of schemas.
func (p *PropsOrArray) UnmarshalJSON(data []byte) error {
	var n PropsOrArray
	if len(data) > 0 {
		switch data[0] {
		case '{':
			n.Schema = &Props{}
			if err := kjson.Unmarshal(data, n.Schema); err != nil {
				return err
			}
		case '[':
			if err := kjson.Unmarshal(data, &n.Array); err != nil {
				return err
			}
		}
	}
	*p = n
	return nil
}

// MarshalJSON encodes the schema or the array.
func (p PropsOrArray) MarshalJSON() ([]byte, error) {
	if p.Array != nil {
		return kjson.Marshal(p.Array)
	}
	return kjson.Marshal(p.Schema)
}

// PropsOrBool is additionalProperties or additionalItems: a boolean or a
// schema (a schema implies Allows).
type PropsOrBool struct {
	Allows bool
	Schema *Props
}

// UnmarshalJSON accepts true, false or a schema object.
func (p *PropsOrBool) UnmarshalJSON(data []byte) error {
	var n PropsOrBool
	switch {
	case len(data) == 0:
	case data[0] == '{':
		n.Schema = &Props{}
		if err := kjson.Unmarshal(data, n.Schema); err != nil {
			return err
		}
		n.Allows = true
	case string(data) == "true":
		n.Allows = true
	case string(data) == "false":
	default:
		return errors.New("boolean or JSON schema expected")
	}
	*p = n
	return nil
}

// MarshalJSON encodes the schema or the boolean.
func (p PropsOrBool) MarshalJSON() ([]byte, error) {
	if p.Schema != nil {
		return kjson.Marshal(p.Schema)
	}
	return kjson.Marshal(p.Allows)
}

// PropsOrStringArray is one entry of the (forbidden) dependencies keyword.
type PropsOrStringArray struct {
	Schema   *Props
	Property []string
}

// UnmarshalJSON accepts a schema object or an array of property names.
func (p *PropsOrStringArray) UnmarshalJSON(data []byte) error {
	var n PropsOrStringArray
	if len(data) > 1 {
		switch data[0] {
		case '{':
			n.Schema = &Props{}
			if err := kjson.Unmarshal(data, n.Schema); err != nil {
				return err
			}
		case '[':
			if err := kjson.Unmarshal(data, &n.Property); err != nil {
				return err
			}
		}
	}
	*p = n
	return nil
}

// MarshalJSON encodes the schema or the property list.
func (p PropsOrStringArray) MarshalJSON() ([]byte, error) {
	if len(p.Property) > 0 {
		return kjson.Marshal(p.Property)
	}
	return kjson.Marshal(p.Schema)
}

// Decode decodes one OpenAPI v3 schema written as JSON with the
// apiserver's decoding rules: keys are case-sensitive, unknown keys are
// ignored, integers inside default, example and enum stay int64, a null
// property is an empty schema, and a value of the wrong type is an error
// worded as the apiserver words it. Parse reads YAML or JSON documents.
func Decode(data []byte) (*Props, error) {
	p := &Props{}
	err := kjson.Unmarshal(data, p)
	p.FillNullProperties()
	if err != nil {
		return nil, jsonvalue.DecodeError(err, "")
	}
	return p, nil
}

// FillNullProperties replaces every nil entry of a properties map in the
// tree below p by an empty schema, as the apiserver decodes a property
// that is null. Decode and Parse do it; a tree decoded otherwise (with
// encoding/json, say) needs it, since every reader of Props relies on the
// entries of Properties being non-nil. A nil p is left alone.
func (p *Props) FillNullProperties() {
	if p == nil {
		return
	}
	for k, c := range p.Properties {
		if c == nil {
			p.Properties[k] = &Props{}
			continue
		}
		c.FillNullProperties()
	}
	if p.Items != nil {
		p.Items.Schema.FillNullProperties()
		for i := range p.Items.Array {
			p.Items.Array[i].FillNullProperties()
		}
	}
	for _, l := range [...][]Props{p.AllOf, p.OneOf, p.AnyOf} {
		for i := range l {
			l[i].FillNullProperties()
		}
	}
	p.Not.FillNullProperties()
	for _, pb := range [...]*PropsOrBool{p.AdditionalProperties, p.AdditionalItems} {
		if pb != nil {
			pb.Schema.FillNullProperties()
		}
	}
	for _, m := range [...]map[string]Props{p.PatternProperties, p.Definitions} {
		for k := range m {
			// The copy shares the maps the fill changes.
			c := m[k]
			c.FillNullProperties()
		}
	}
	for _, d := range p.Dependencies {
		d.Schema.FillNullProperties()
	}
}
