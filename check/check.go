// Package check validates CustomResourceDefinitions and bare OpenAPI v3
// schemas as the apiserver does when a CRD is created: every error
// `kubectl create` would report, with the apiserver's types, field paths and
// messages, sorted by field, type and detail. It is the lint half of the
// module, for a CI job that checks manifests without applying objects:
//
//	errs, err := check.CRD(data)
//
// is crdschema.LoadCRD(data) followed by CRD.Errors, which a program that
// also applies objects calls instead. The checks themselves live in
// internal/check.
package check

import (
	"errors"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema"
)

// CRD returns the errors the apiserver reports when the
// CustomResourceDefinition in data is created: nil when it would be
// accepted. data is one YAML or JSON document of apiextensions.k8s.io/v1 or
// v1beta1 (a List holding one counts). The error is for data that is not
// one CRD: unreadable (a *schema.InputError or schema.InputErrors), another
// kind (a *crdschema.NotCRDError), several documents, or a document that
// cannot be decoded as a CRD.
func CRD(data []byte) (field.ErrorList, error) {
	crd, err := crdschema.LoadCRD(data)
	if err != nil {
		return nil, err
	}
	return crd.Errors(), nil
}

// BareSchema returns the errors a bare OpenAPI v3 schema (one YAML or JSON
// document) would get inside a minimal, otherwise valid v1 CRD with a
// single version and no status subresource, with paths relative to the
// schema root: an error on the root itself has the field "". nil when the
// apiserver would accept it. The error is for data that is not one
// readable schema document.
func BareSchema(data []byte) (field.ErrorList, error) {
	s, err := crdschema.ParseSchema(data)
	var rejected *crdschema.RejectedError
	switch {
	case errors.As(err, &rejected):
		return rejected.Errors, nil
	case err != nil:
		return nil, err
	}
	return s.Errors(), nil
}
