package check

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/schema"
)

// validateCRD is the whole-CRD validation (metadata, spec, status), calling
// validateCustomResourceValidation for each schema.
func validateCRD(crd *schema.CRD) field.ErrorList {
	var errs field.ErrorList
	spec := &crd.Spec
	statusAnyVersion := func(sub *schema.Subresources) bool { return sub != nil && sub.Status != nil }
	anyStatus := statusAnyVersion(spec.Subresources)
	for _, v := range spec.Versions {
		anyStatus = anyStatus || statusAnyVersion(v.Subresources)
	}
	errs = append(errs, validateCustomResourceValidation(spec.Validation, anyStatus, field.NewPath("spec", "validation"))...)
	for i, v := range spec.Versions {
		errs = append(errs, validateCustomResourceValidation(v.Schema, statusAnyVersion(crd.SubresourcesFor(v.Name)), field.NewPath("spec", "versions").Index(i).Child("schema"))...)
	}
	return errs
}
