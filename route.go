package crdschema

import (
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
		if len(c.Errors()) > 0 {
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
