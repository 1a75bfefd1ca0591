package crdschema

import (
	"errors"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/check"
	"github.com/crdschema/crdschema/internal/model"
)

// Warnings returns the warnings `kubectl create` of this CRD would print
// (the apiserver's Warning headers): unrecognized formats and sets of
// non-scalar items, sorted, without duplicates, limited in size as the
// apiserver limits them. The apiserver sends warnings only for a request
// it accepts, so a CRD with errors (see Errors) has none. nil when there
// are none; the caller may change the returned list.
func (c *CRD) Warnings() []string {
	if len(c.Errors()) > 0 {
		return nil
	}
	return slices.Clone(c.createWarnings())
}

// createWarnings are the warnings of a create of the CRD, errors aside,
// built once; the caller must not change them.
func (c *CRD) createWarnings() []string {
	c.warnOnce.Do(func() { c.warns = check.CreateWarnings(&c.crd.Spec) })
	return c.warns
}

// Warnings returns the warnings the apiserver would send for the schema:
// for a bare schema those of the minimal CRD holding it, for a CRD version
// the CRD's (CRD.Warnings). None when the schema has errors.
func (s *Schema) Warnings() []string {
	if s.crd != nil {
		return s.crd.Warnings()
	}
	if len(s.Errors()) > 0 {
		return nil
	}
	return check.CreateWarnings(&model.CRDSpec{Validation: &model.Validation{OpenAPIV3Schema: s.props}})
}

// CheckUpdate is the apiserver's answer to `kubectl apply` of next when
// the cluster already stores old under the same name: the errors of its
// update validation, sorted (nil when it accepts the update), and the
// warnings an accepted update gets (none when it has errors): only those
// old did not already have, by value (a format old uses anywhere is not
// reported again). Both lists are the caller's to change.
//
// The stored CRD is taken as created from old's document and established
// (its stored versions are StoredVersions); it is never validated itself,
// as a CRD created under older rules may break today's. The update applies
// the create rules except those old already broke anywhere (ratcheting
// per rule, for the whole CRD) and except the name rule, and adds its own:
// group, plural, scope and kind are immutable, every stored version must
// remain, the uid may not change, preserveUnknownFields may not become
// true.
//
// A nil old is no stored CRD: the answer is that of a create (next.Errors
// and next.Warnings). A nil next is one InternalError. CheckUpdate runs
// next's create check if nothing did yet (once per CRD, as Errors): a spec
// the create accepts is not validated again.
func CheckUpdate(old, next *CRD) (field.ErrorList, []string) {
	switch {
	case next == nil:
		return field.ErrorList{field.InternalError(nil, errors.New("CheckUpdate: no new CustomResourceDefinition"))}, nil
	case old == nil:
		return next.Errors(), next.Warnings()
	}
	// next's create check (which loading or using next does anyway) spares
	// the update validating a spec the create accepts again.
	if errs := check.Update(next.crd, old.crd, len(next.check()) == 0); len(errs) > 0 {
		return errs, nil
	}
	if len(next.createWarnings()) == 0 {
		// An update warns of what next would be warned of on create, less
		// what old already has: nothing here.
		return nil, nil
	}
	return nil, check.UpdateWarnings(&next.crd.Spec, &old.crd.Spec)
}
