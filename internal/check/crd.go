package check

import (
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/internal/model"
)

// validateCRD is the whole-CRD validation the apiserver runs when a CRD is
// created: metadata, spec (calling validateCustomResourceValidation for each
// schema), the stored versions the create request starts with, the API
// approval of protected groups and the ban on spec.preserveUnknownFields.
//
// b takes what the check builds.
func validateCRD(crd *model.CRD, b *Built) field.ErrorList {
	errs := field.ErrorList{}
	errs = append(errs, validateCRDMetadata(crd, field.NewPath("metadata"))...)
	errs = append(errs, validateCRDSpec(&crd.Spec, field.NewPath("spec"), createOptions(), b)...)
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
func createStoredVersions(versions []model.Version) []string {
	for _, v := range versions {
		if v.Storage {
			return []string{v.Name}
		}
	}
	return nil
}

// validateStoredVersions checks that the stored versions are not empty,
// contain the storage version, and name only versions of spec.versions.
func validateStoredVersions(stored []string, versions []model.Version, fldPath *field.Path) field.ErrorList {
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
func validateAPIApproval(crd *model.CRD) field.ErrorList {
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
func validateCRDMetadata(crd *model.CRD, fldPath *field.Path) field.ErrorList {
	required := crd.Spec.Names.Plural + "." + crd.Spec.Group
	nameMsgs := func(name string, prefix bool) []string {
		msgs := embedded.NameIsDNSSubdomain(name, prefix)
		if name != required {
			msgs = append(msgs, `must be spec.names.plural+"."+spec.group`)
		}
		return msgs
	}
	return embedded.ValidateObjectMeta(fldPath, crdMetaMap(crd), false, nameMsgs)
}

// crdMetaMap is the CRD's metadata as the ObjectMeta checks take it. The
// namespace is left out: the apiserver clears it on a cluster scoped
// object before validating, so it is never an error.
func crdMetaMap(crd *model.CRD) map[string]any {
	meta := &crd.Metadata
	m := map[string]any{"name": meta.Name, "generateName": meta.GenerateName}
	if meta.Labels != nil {
		m["labels"] = anyMap(meta.Labels)
	}
	if meta.Annotations != nil {
		m["annotations"] = anyMap(meta.Annotations)
	}
	if meta.Finalizers != nil {
		fs := make([]any, len(meta.Finalizers))
		for i, f := range meta.Finalizers {
			fs[i] = f
		}
		m["finalizers"] = fs
	}
	return m
}

func anyMap(in map[string]string) map[string]any {
	out := make(map[string]any, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}
