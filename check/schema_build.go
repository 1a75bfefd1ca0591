package check

import (
	"errors"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// newStructural builds the structural model of p, failing exactly where the
// apiserver fails to build one: a keyword no CRD schema may use, items as
// an array, or x-kubernetes-preserve-unknown-fields: false, anywhere in
// the tree including inside junctors and below them.
//
// When building fails, the apiserver reports the failure only if nothing
// else is wrong with the schema, and skips the structural checks and the
// fieldPath checks that depend on the model.
func newStructural(p *schema.Props) (*structural.Schema, error) {
	if err := buildError(p); err != nil {
		return nil, err
	}
	return structural.New(p)
}

// buildError walks the whole tree in the apiserver's order and returns the
// first reason a structural model cannot be built.
func buildError(p *schema.Props) error {
	if p == nil {
		return nil
	}
	if err := unsupportedKeyword(p); err != nil {
		return err
	}
	// Value validations: not, then the junctors, each built in full.
	if err := buildError(p.Not); err != nil {
		return err
	}
	for _, l := range [][]schema.Props{p.AllOf, p.AnyOf, p.OneOf} {
		for i := range l {
			if err := buildError(&l[i]); err != nil {
				return err
			}
		}
	}
	if p.XPreserveUnknownFields != nil && !*p.XPreserveUnknownFields {
		return errors.New("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")
	}
	if p.Items != nil {
		if len(p.Items.Array) > 0 {
			return errors.New("OpenAPIV3Schema 'items' must be a schema, but is an array")
		}
		if err := buildError(p.Items.Schema); err != nil {
			return err
		}
	}
	for _, k := range sortedKeys(p.Properties) {
		prop := p.Properties[k]
		if err := buildError(&prop); err != nil {
			return err
		}
	}
	if p.AdditionalProperties != nil {
		if err := buildError(p.AdditionalProperties.Schema); err != nil {
			return err
		}
	}
	return nil
}

// unsupportedKeyword returns the error for the first keyword of one node
// that the structural model cannot hold.
func unsupportedKeyword(p *schema.Props) error {
	name := ""
	switch {
	case p.ID != "":
		name = "id"
	case p.Schema != "":
		name = "schema"
	case p.Ref != nil && *p.Ref != "":
		name = "$ref"
	case len(p.PatternProperties) > 0:
		name = "patternProperties"
	case len(p.Dependencies) > 0:
		name = "dependencies"
	case p.AdditionalItems != nil:
		name = "additionalItems"
	case len(p.Definitions) > 0:
		name = "definitions"
	default:
		return nil
	}
	return errors.New("OpenAPIV3Schema '" + name + "' is not supported")
}
