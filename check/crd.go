package check

import (
	"strings"

	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/schema"
)

// validateCRD is the whole-CRD validation the apiserver runs when a CRD is
// created: metadata, spec (calling validateCustomResourceValidation for each
// schema), the stored versions the create request starts with, the API
// approval of protected groups and the ban on spec.preserveUnknownFields.
func validateCRD(crd *schema.CRD) field.ErrorList {
	errs := field.ErrorList{}
	errs = append(errs, validateCRDMetadata(crd, field.NewPath("metadata"))...)
	errs = append(errs, validateCRDSpec(&crd.Spec, field.NewPath("spec"))...)
	// A create request's status is replaced by the apiserver before
	// validation: accepted names are empty (nothing to validate) and the
	// stored versions hold just the first storage version.
	errs = append(errs, validateStoredVersions(createStoredVersions(crd.Spec.Versions), crd.Spec.Versions, field.NewPath("status", "storedVersions"))...)
	errs = append(errs, validateAPIApproval(crd)...)
	if pf := crd.Spec.PreserveUnknownFields; pf != nil && *pf {
		errs = append(errs, field.Invalid(field.NewPath("spec", "preserveUnknownFields"), true,
			"cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"))
	}
	return errs
}

// createStoredVersions is status.storedVersions as a create request sets
// it: the first version marked as storage, if any.
func createStoredVersions(versions []schema.Version) []string {
	for _, v := range versions {
		if v.Storage {
			return []string{v.Name}
		}
	}
	return nil
}

// validateStoredVersions checks that the stored versions are not empty,
// contain the storage version, and name only versions of spec.versions.
func validateStoredVersions(stored []string, versions []schema.Version, fldPath *field.Path) field.ErrorList {
	if len(stored) == 0 {
		return field.ErrorList{field.Invalid(fldPath, stored, "must have at least one stored version")}
	}
	errs := field.ErrorList{}
	index := make(map[string]int, len(stored))
	for i, v := range stored {
		index[v] = i
	}
	for _, v := range versions {
		_, ok := index[v.Name]
		if v.Storage && !ok {
			errs = append(errs, field.Invalid(fldPath, stored, "must have the storage version "+v.Name))
		}
		delete(index, v.Name)
	}
	for v, i := range index {
		errs = append(errs, field.Invalid(fldPath.Index(i), v, "missing from spec.versions; "+v+
			" was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in "+
			v+" and removes "+v+" from status.storedVersions"))
	}
	return errs
}

// approvalAnnotation is the annotation a CRD in a protected group needs.
const approvalAnnotation = "api-approved.kubernetes.io"

// isProtectedGroup reports whether a group belongs to the Kubernetes
// community (k8s.io, kubernetes.io and their subdomains).
func isProtectedGroup(group string) bool {
	return group == "k8s.io" || strings.HasSuffix(group, ".k8s.io") ||
		group == "kubernetes.io" || strings.HasSuffix(group, ".kubernetes.io")
}

// validateAPIApproval requires the approval annotation, with a URL or a
// reason starting with "unapproved", on CRDs of protected groups.
func validateAPIApproval(crd *schema.CRD) field.ErrorList {
	if !isProtectedGroup(crd.Spec.Group) {
		return nil
	}
	value := crd.Metadata.Annotations[approvalAnnotation]
	fldPath := field.NewPath("metadata", "annotations").Key(approvalAnnotation)
	const see = ", see https://github.com/kubernetes/enhancements/pull/1111"
	switch {
	case value == "":
		return field.ErrorList{field.Required(fldPath, `protected groups must have approval annotation "`+approvalAnnotation+`"`+see)}
	case strings.HasPrefix(value, "unapproved"), isApprovalURL(value):
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, value,
		`protected groups must have approval annotation "`+approvalAnnotation+`" with either a URL or a reason starting with "unapproved"`+see)}
}

// validateCRDMetadata validates the CRD's metadata as on create: a cluster
// scoped object (any namespace given is dropped) whose name must be
// <plural>.<group>.
func validateCRDMetadata(crd *schema.CRD, fldPath *field.Path) field.ErrorList {
	meta := &crd.Metadata
	required := crd.Spec.Names.Plural + "." + crd.Spec.Group
	nameMsgs := func(orig string, prefix bool) []string {
		name := orig
		if prefix && len(name) > 1 && strings.HasSuffix(name, "-") {
			// A prefix is checked as if a random suffix followed it.
			name = name[:len(name)-2] + "a"
		}
		msgs := utilvalidation.IsDNS1123Subdomain(name)
		if orig != required {
			msgs = append(msgs, `must be spec.names.plural+"."+spec.group`)
		}
		return msgs
	}
	errs := field.ErrorList{}
	if meta.GenerateName != "" {
		for _, msg := range nameMsgs(meta.GenerateName, true) {
			errs = append(errs, field.Invalid(fldPath.Child("generateName"), meta.GenerateName, msg))
		}
	}
	if meta.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameMsgs(meta.Name, false) {
			errs = append(errs, field.Invalid(fldPath.Child("name"), meta.Name, msg))
		}
	}
	// A namespace is not an error: the apiserver clears it on a cluster
	// scoped object before validating.
	labelsPath := fldPath.Child("labels")
	for k, v := range meta.Labels {
		for _, msg := range utilvalidation.IsQualifiedName(k) {
			errs = append(errs, field.Invalid(labelsPath, k, msg))
		}
		for _, msg := range utilvalidation.IsValidLabelValue(v) {
			errs = append(errs, field.Invalid(labelsPath, v, msg))
		}
	}
	errs = append(errs, validateAnnotations(meta.Annotations, fldPath.Child("annotations"))...)
	errs = append(errs, validateFinalizers(meta.Finalizers, fldPath.Child("finalizers"))...)
	return errs
}

// maxAnnotationsSize is the most bytes all annotation keys and values of an
// object may take together.
const maxAnnotationsSize = 256 * 1024

// validateAnnotations checks annotation keys (qualified names, case
// insensitive) and the annotations' total size.
func validateAnnotations(annotations map[string]string, fldPath *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	size := 0
	for k, v := range annotations {
		for _, msg := range utilvalidation.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, field.Invalid(fldPath, k, msg))
		}
		size += len(k) + len(v)
	}
	if size > maxAnnotationsSize {
		errs = append(errs, field.TooLong(fldPath, "", maxAnnotationsSize))
	}
	return errs
}

// The two finalizers that choose how dependents are deleted.
const (
	orphanFinalizer     = "orphan"
	foregroundFinalizer = "foregroundDeletion"
)

// validateFinalizers checks finalizer names (qualified names) and that the
// orphan and foreground deletion finalizers are not both set.
func validateFinalizers(finalizers []string, fldPath *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	orphan, foreground := false, false
	for _, f := range finalizers {
		for _, msg := range utilvalidation.IsQualifiedName(f) {
			errs = append(errs, field.Invalid(fldPath, f, msg))
		}
		orphan = orphan || f == orphanFinalizer
		foreground = foreground || f == foregroundFinalizer
	}
	if orphan && foreground {
		errs = append(errs, field.Invalid(fldPath, finalizers, "finalizer "+orphanFinalizer+" and "+foregroundFinalizer+" cannot be both set"))
	}
	return errs
}
