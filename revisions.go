package crdschema

import (
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
	return check.CreateWarnings(&c.crd.Spec)
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

// UpdateErrors returns the errors `kubectl apply` of this CRD would report
// when the cluster already stores old under the same name: the update
// validation of the apiserver, sorted; nil when it accepts the update.
//
// The stored CRD is taken as created from old's document and established
// (its stored versions are those of old's status, or else its storage
// version); it is never validated itself, as a CRD created under older
// rules may break today's. The update applies the create rules except
// those old already broke anywhere (ratcheting per rule, for the whole
// CRD) and except the name rule, and adds its own: group, plural, scope
// and kind are immutable, every stored version must remain, the uid may
// not change, preserveUnknownFields may not become true.
//
// A nil old is no stored CRD: the errors are those of a create (Errors).
func (c *CRD) UpdateErrors(old *CRD) field.ErrorList {
	if old == nil {
		return c.Errors()
	}
	c.updateMu.Lock()
	defer c.updateMu.Unlock()
	if c.updateOf != old {
		// The last update checked is kept: UpdateWarnings after
		// UpdateErrors of the same pair validates once.
		c.updateOf, c.updateErrs = old, check.Update(c.crd, old.crd)
	}
	return copyErrors(c.updateErrs)
}

// UpdateWarnings returns the warnings an accepted update of old to this
// CRD gets (see UpdateErrors): only those old did not already have, by
// value (a format old uses anywhere is not reported again). None when the
// update has errors. A nil old gives the warnings of a create (Warnings).
func (c *CRD) UpdateWarnings(old *CRD) []string {
	if old == nil {
		return c.Warnings()
	}
	if len(c.UpdateErrors(old)) > 0 {
		return nil
	}
	return check.UpdateWarnings(&c.crd.Spec, &old.crd.Spec)
}
