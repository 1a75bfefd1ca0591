package embedded

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// MetaForUpdate returns the metadata of the new and the old object of an
// update request as the apiserver holds them when it validates the update,
// for validating copies of the objects: the old object as stored (a
// namespaced resource without namespace lives in "default", a
// cluster-scoped one has none, a generation of 0 is read as 1, there is a
// resourceVersion); the new object as the generic registry prepares it (the
// namespace of the request when it has none, the generation of the old
// object, plus one when contentChanged, the old uid when it has none, the
// old creationTimestamp and deletionTimestamp when the old object has them,
// the old deletionGracePeriodSeconds when it has none, the request carrying
// the stored resourceVersion). Both metadata maps are coerced already; they
// are not changed, the results are shallow copies.
func MetaForUpdate(newMeta, oldMeta map[string]any, namespaced, contentChanged bool) (newOut, oldOut map[string]any) {
	newMeta, _ = plainMeta(newMeta)
	oldMeta, _ = plainMeta(oldMeta)
	oldOut = make(map[string]any, len(oldMeta)+3)
	for k, v := range oldMeta {
		oldOut[k] = v
	}
	newOut = make(map[string]any, len(newMeta)+6)
	for k, v := range newMeta {
		newOut[k] = v
	}
	if namespaced {
		if ns, _ := oldOut["namespace"].(string); ns == "" {
			oldOut["namespace"] = "default"
		}
		if ns, _ := newOut["namespace"].(string); ns == "" {
			newOut["namespace"] = oldOut["namespace"]
		}
	} else {
		delete(oldOut, "namespace")
		delete(newOut, "namespace")
	}
	gen, _ := toInt64(oldOut["generation"])
	if gen == 0 {
		gen = 1
	}
	oldOut["generation"] = gen
	if contentChanged {
		gen++
	}
	newOut["generation"] = gen
	if rv, _ := oldOut["resourceVersion"].(string); rv == "" {
		// Every stored object has one.
		oldOut["resourceVersion"] = "1"
	}
	newOut["resourceVersion"] = oldOut["resourceVersion"]
	if uid, _ := newOut["uid"].(string); uid == "" {
		copyField(newOut, oldOut, "uid")
	}
	if ts, _ := oldOut["creationTimestamp"].(string); ts != "" {
		newOut["creationTimestamp"] = ts
	}
	if ts, _ := oldOut["deletionTimestamp"].(string); ts != "" {
		newOut["deletionTimestamp"] = ts
	}
	if _, ok := toInt64(newOut["deletionGracePeriodSeconds"]); !ok {
		copyField(newOut, oldOut, "deletionGracePeriodSeconds")
	}
	return newOut, oldOut
}

func copyField(dst, src map[string]any, k string) {
	if v, ok := src[k]; ok {
		dst[k] = v
	} else {
		delete(dst, k)
	}
}

// ValidateObjectMetaUpdate validates the metadata of an updated object
// against the stored one, as the apiserver's ValidateObjectMetaUpdate does
// (both maps coerced and prepared with MetaForUpdate): no new finalizers
// while the object is being deleted, a resourceVersion, a generation that
// is not negative and not decremented, name, namespace, uid,
// creationTimestamp, deletionTimestamp and deletionGracePeriodSeconds
// immutable, then labels, annotations, ownerReferences and managedFields of
// the new metadata. Errors are below fldPath.
func ValidateObjectMetaUpdate(fldPath *field.Path, newMeta, oldMeta map[string]any) field.ErrorList {
	newMeta, oldMeta, err := plainMetas(newMeta, oldMeta)
	if err != nil {
		return field.ErrorList{jsonvalue.InputError(err, fldPath)}
	}
	errs := newFinalizersWhileDeleting(fldPath, newMeta, oldMeta)
	if rv, _ := newMeta["resourceVersion"].(string); rv == "" {
		errs = append(errs, field.Invalid(fldPath.Child("resourceVersion"), "", "must be specified for an update"))
	}
	newGen, _ := toInt64(newMeta["generation"])
	oldGen, _ := toInt64(oldMeta["generation"])
	if newGen < 0 {
		errs = append(errs, field.Invalid(fldPath.Child("generation"), newGen, "must be greater than or equal to 0"))
	}
	if newGen < oldGen {
		errs = append(errs, field.Invalid(fldPath.Child("generation"), newGen, "must not be decremented"))
	}
	for _, k := range [...]string{"name", "namespace", "uid", "creationTimestamp", "deletionTimestamp"} {
		n, _ := newMeta[k].(string)
		o, _ := oldMeta[k].(string)
		if n != o {
			errs = append(errs, field.Invalid(fldPath.Child(k), n, "field is immutable"))
		}
	}
	ng, nok := toInt64(newMeta["deletionGracePeriodSeconds"])
	og, ook := toInt64(oldMeta["deletionGracePeriodSeconds"])
	if nok != ook || ng != og {
		var bad any
		if nok {
			bad = ng
		}
		errs = append(errs, field.Invalid(fldPath.Child("deletionGracePeriodSeconds"), bad, "field is immutable"))
	}
	m := readMeta(newMeta)
	errs = append(errs, m.validateContent(fldPath)...)
	return errs
}

// plainMetas is plainMeta of the new and the old metadata.
func plainMetas(newMeta, oldMeta map[string]any) (map[string]any, map[string]any, error) {
	newMeta, err := plainMeta(newMeta)
	if err != nil {
		return nil, nil, err
	}
	oldMeta, err = plainMeta(oldMeta)
	return newMeta, oldMeta, err
}

// newFinalizersWhileDeleting is the error for finalizers the update adds
// to an object being deleted.
func newFinalizersWhileDeleting(fldPath *field.Path, newMeta, oldMeta map[string]any) field.ErrorList {
	if ts, _ := oldMeta["deletionTimestamp"].(string); ts == "" {
		return nil
	}
	old := map[string]bool{}
	for _, f := range strList(oldMeta["finalizers"]) {
		old[f] = true
	}
	extra := map[string]bool{}
	for _, f := range strList(newMeta["finalizers"]) {
		if !old[f] {
			extra[f] = true
		}
	}
	if len(extra) == 0 {
		return nil
	}
	list := sortedKeys(extra)
	return field.ErrorList{field.Forbidden(fldPath.Child("finalizers"), fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizers %#v", list))}
}

func strList(x any) []string {
	l, _ := x.([]any)
	out := make([]string, 0, len(l))
	for _, v := range l {
		out = append(out, str(v))
	}
	return out
}

// SameExceptMetadata reports whether two objects hold the same fields
// apart from metadata (the apiserver then keeps the generation).
func SameExceptMetadata(a, b map[string]any) bool {
	n := 0
	for k, x := range a {
		if k == "metadata" {
			continue
		}
		n++
		y, ok := b[k]
		if !ok || !jsonvalue.SemanticEqual(x, y) {
			return false
		}
	}
	for k := range b {
		if k != "metadata" {
			n--
		}
	}
	return n == 0
}
