package crdschema

import (
	"bytes"
	"encoding/json"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Route finds the schema an object is created with, as the apiserver
// routes a request by the object's apiVersion and kind: the served version
// of the first CRD among crds that defines the object's group and kind and
// would be accepted. It fails with
//   - a *field.Error (Required or Invalid, at kind or apiVersion) when the
//     object's kind or apiVersion is missing, not a string, or not a
//     group/version, as the apiserver's decoder does;
//   - an *UnknownKindError when no CRD defines the group and kind;
//   - a *NotServedError when the first accepted such CRD does not serve the
//     version;
//   - a *RejectedError when every such CRD would be rejected (the first).
func Route(crds []*CRD, obj map[string]any) (*Schema, error) {
	if err := routingTypeMeta(obj); err != nil {
		return nil, err
	}
	kind, apiVersion := obj["kind"].(string), obj["apiVersion"].(string)
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "", apiVersion
	}
	var rejected *CRD
	for _, c := range crds {
		if c.crd.Spec.Group != group || c.crd.Spec.Names.Kind != kind {
			continue
		}
		if c.rejectedKeepingBuilt() {
			if rejected == nil {
				rejected = c
			}
			continue
		}
		s, err := c.Version(version)
		if ns, ok := err.(*NotServedError); ok {
			ns.APIVersion = apiVersion
			return nil, ns // Version's schema of an unserved version serves no request
		}
		return s, err
	}
	if rejected != nil {
		return nil, &RejectedError{CRD: rejected.Name(), APIVersion: apiVersion, Kind: kind, Errors: rejected.Errors()}
	}
	return nil, &UnknownKindError{APIVersion: apiVersion, Kind: kind}
}

// rejectedKeepingBuilt reports whether the apiserver would reject the CRD.
// A CRD Route takes is compiled next, so the check it runs keeps what it
// built for that compilation (as Version does when it runs the check)
// rather than dropping it as Errors does and building it all again: the
// command's objects are routed here, and the second build was a third of
// the CPU of routing them (issue 32). A rejected CRD keeps nothing.
func (c *loaded) rejectedKeepingBuilt() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.builtForVersions()
	if len(c.errs) == 0 {
		return false
	}
	c.built = nil
	return true
}

// routingTypeMeta checks the object's kind and apiVersion as the
// apiserver's decoder does before routing: both present, non-empty
// strings, the apiVersion a group/version.
func routingTypeMeta(obj map[string]any) *field.Error {
	for _, name := range []string{"kind", "apiVersion"} {
		v := obj[name]
		str, isString := v.(string)
		switch {
		case v == nil || (isString && str == ""):
			return field.Required(field.NewPath(name), "")
		case !isString:
			return field.Invalid(field.NewPath(name), v, "must be a string")
		case name == "apiVersion" && strings.Count(str, "/") > 1:
			return field.Invalid(field.NewPath(name), str, "unexpected GroupVersion string: "+str)
		}
	}
	return nil
}

// CRD is the CRD the schema is a version of (the one Route chose for an
// object), nil for a bare schema (ParseSchema).
func (s *Schema) CRD() *CRD { return s.crd }

// Conflicts returns the definitions of one resource that disagree: for
// every CRD name (metadata.name) that crds define more than once with specs
// that are not all equal, its definitions in crds' order. Route takes an
// object to the first of a group the apiserver would accept (or names the
// first, rejected one), and a repository's other copies are then ignored:
// a linter warns about them. Names defined once, or only by equal specs
// (whatever their metadata: a kustomize overlay's annotations), are left
// out. Specs are compared as the apiserver stores them, a v1beta1 CRD
// converted to v1.
func Conflicts(crds []*CRD) [][]*CRD {
	byName := map[string][]*CRD{}
	var names []string
	for _, c := range crds {
		n := c.Name()
		if _, seen := byName[n]; !seen {
			names = append(names, n)
		}
		byName[n] = append(byName[n], c)
	}
	var out [][]*CRD
	for _, n := range names {
		group := byName[n]
		if len(group) > 1 && !sameSpecs(group) {
			out = append(out, group)
		}
	}
	return out
}

// sameSpecs reports whether the CRDs of group have equal specs.
func sameSpecs(group []*CRD) bool {
	first, err := json.Marshal(group[0].crd.Spec)
	if err != nil {
		return false
	}
	for _, c := range group[1:] {
		other, err := json.Marshal(c.crd.Spec)
		if err != nil || !bytes.Equal(first, other) {
			return false
		}
	}
	return true
}
