// Package check validates CustomResourceDefinitions and bare OpenAPI v3
// schemas as the apiserver does when a CRD is created: every error
// `kubectl create` would report, with the apiserver's types, field paths and
// messages.
package check

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/model"
)

// CRD returns every error the apiserver reports when crd is created, sorted
// by field path, type and detail, as every error list of this module is.
func CRD(crd *model.CRD) field.ErrorList {
	errs := validateCRD(crd)
	errorsort.Sort(errs)
	return errs
}
