package model

import (
	"reflect"

	"github.com/crdschema/crdschema/schema"
)

// The parsed OpenAPI v3 model is public (package schema); these aliases keep
// the CRD model and its decoders reading as they did.
type (
	Props              = schema.Props
	JSON               = schema.JSON
	PropsOrArray       = schema.PropsOrArray
	PropsOrBool        = schema.PropsOrBool
	PropsOrStringArray = schema.PropsOrStringArray
	ExternalDocs       = schema.ExternalDocs
	ValidationRule     = schema.ValidationRule
	Document           = schema.Document
)

// DecodeProps decodes a JSON schema document into p with the apiserver's
// decoding rules: schema.Decode, through the fast decoder when it can.
func DecodeProps(data []byte, p *Props) error {
	if p != nil && reflect.ValueOf(p).Elem().IsZero() {
		if fp, ok := fastDecodeProps(data); ok {
			*p = *fp
			return nil
		}
	}
	fp, err := schema.Decode(data)
	if err != nil {
		return err
	}
	*p = *fp
	return nil
}

// fillNullValidation replaces every nil entry of a properties map in the
// tree of a CRD's schema by an empty schema, as schema.Decode does for a
// bare schema (Props.FillNullProperties). The fast decoder never leaves nil
// entries; the exact one leaves them for JSON nulls.
func fillNullValidation(v *Validation) {
	if v != nil {
		v.OpenAPIV3Schema.FillNullProperties()
	}
}
