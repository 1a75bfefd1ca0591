package crdschema

import (
	"github.com/crdschema/crdschema/internal/link"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/serving"
)

// OpenAPI returns the OpenAPI definitions the apiserver publishes for a
// served version: v3 (/openapi/v3/apis/GROUP/VERSION, components.schemas)
// and v2 (/openapi/v2, definitions), each holding the kind's and the List
// kind's definition keyed by model name (com.example.stable.v1.CronTab),
// as JSON values the caller owns. It fails with a *NotServedError when the
// CRD does not serve the version, and with a *RejectedError when the
// apiserver would reject the CRD (Errors), which then publishes nothing.
func (c *CRD) OpenAPI(version string) (v3, v2 map[string]any, err error) {
	if served, defined := c.serves(version); !served {
		return nil, nil, &NotServedError{CRD: c.Name(), APIVersion: version, Kind: c.crd.Spec.Names.Kind, Version: version, Defined: defined, Served: c.ServedVersions()}
	}
	if errs := c.Errors(); len(errs) > 0 {
		return nil, nil, &RejectedError{CRD: c.Name(), Errors: errs}
	}
	s, err := link.NewStructural(c.crd.SchemaFor(version))
	if err != nil {
		return nil, nil, &RejectedError{CRD: c.Name(), Errors: c.Errors()}
	}
	spec := &c.crd.Spec
	r := serving.Resource{
		Group: spec.Group, Version: version, Kind: spec.Names.Kind,
		ListKind: spec.Names.ListKind, Plural: spec.Names.Plural,
		PreserveUnknownFields: spec.PreserveUnknownFields != nil && *spec.PreserveUnknownFields,
	}
	for _, f := range c.selectableFields(version) {
		r.SelectableFields = append(r.SelectableFields, f.JSONPath)
	}
	v3, v2 = serving.OpenAPI(r, s)
	return v3, v2, nil
}

// selectableFields are the selectable fields of a version: its own, or
// the ones all versions share.
func (c *CRD) selectableFields(version string) []model.SelectableField {
	for _, v := range c.crd.Spec.Versions {
		if v.Name == version && v.SelectableFields != nil {
			return v.SelectableFields
		}
	}
	return c.crd.Spec.SelectableFields
}

// Versions returns the names of all versions the CRD defines, served or
// not, in spec.versions order: the order in which the apiserver builds
// what it publishes for them.
func (c *CRD) Versions() []string {
	out := make([]string, len(c.crd.Spec.Versions))
	for i, v := range c.crd.Spec.Versions {
		out[i] = v.Name
	}
	return out
}
