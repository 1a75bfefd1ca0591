package crdschema

import (
	"context"
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/serving"
	"github.com/crdschema/crdschema/structural"
)

// OpenAPI returns the OpenAPI definitions the apiserver publishes for a
// served version: v3 (/openapi/v3/apis/GROUP/VERSION, components.schemas)
// and v2 (/openapi/v2, definitions), each holding the kind's and the List
// kind's definition keyed by model name (com.example.stable.v1.CronTab),
// as JSON values the caller owns. It fails with a *NotServedError when the
// CRD does not serve the version, and with a *RejectedError when the
// apiserver would reject the CRD (Errors), which then publishes nothing.
func (c *CRD) OpenAPI(version string) (v3, v2 map[string]any, err error) {
	s, err := c.servedSchema(version)
	if err != nil {
		return nil, nil, err
	}
	v3, v2 = serving.OpenAPI(c.resource(version), s)
	return v3, v2, nil
}

// Resource returns what the apiserver serves a version the CRD defines
// (served or not) as, besides its schema: the resource and kind names
// (defaults filled in), the scope, the version's status and scale
// subresources and selectable fields, spec.preserveUnknownFields. A
// client's REST mapper and discovery know the resource by these; they are
// read from the document, also for a CRD the apiserver would reject. It
// fails with a *NotServedError (Defined false) for a version the CRD does
// not define. The caller owns the returned slices.
func (c *CRD) Resource(version string) (serving.Resource, error) {
	if _, defined := c.serves(version); !defined {
		return serving.Resource{}, &NotServedError{CRD: c.Name(), APIVersion: version, Kind: c.crd.Spec.Names.Kind, Version: version, Served: c.ServedVersions()}
	}
	return c.resource(version), nil
}

// resource is what a version's definitions are published for.
func (c *CRD) resource(version string) serving.Resource {
	spec := &c.crd.Spec
	r := serving.Resource{
		Group: spec.Group, Version: version, Kind: spec.Names.Kind,
		ListKind: spec.Names.ListKind, Plural: spec.Names.Plural,
		Singular: spec.Names.Singular, ShortNames: slices.Clone(spec.Names.ShortNames),
		Categories:            slices.Clone(spec.Names.Categories),
		Namespaced:            spec.Scope != "Cluster",
		PreserveUnknownFields: spec.PreserveUnknownFields != nil && *spec.PreserveUnknownFields,
	}
	for _, f := range c.selectableFields(version) {
		r.SelectableFields = append(r.SelectableFields, f.JSONPath)
	}
	if sub := c.crd.SubresourcesFor(version); sub != nil {
		r.StatusSubresource = sub.Status != nil
		if sc := sub.Scale; sc != nil {
			r.Scale = &serving.ScalePaths{SpecReplicasPath: sc.SpecReplicasPath, StatusReplicasPath: sc.StatusReplicasPath}
			if sc.LabelSelectorPath != nil {
				r.Scale.LabelSelectorPath = *sc.LabelSelectorPath
			}
		}
	}
	return r
}

// Explain explains the kind of a served version, or the field at path
// below it (["spec", "replicas"]), as `kubectl explain` would against a
// cluster with the CRD installed, and what the CRD says of the fields
// beyond it (see serving.Explain); recursive lists every field below
// instead of the direct ones. It fails as OpenAPI does, and with kubectl's
// error for a path that names no field.
func (c *CRD) Explain(version string, path []string, recursive bool) (*serving.Explanation, error) {
	s, err := c.servedSchema(version)
	if err != nil {
		return nil, err
	}
	return serving.Explain(c.resource(version), s, c.printerColumns(version), path, recursive)
}

// servedSchema is the structural model of a served version's schema,
// which OpenAPI and Explain publish; it fails as they do.
func (c *CRD) servedSchema(version string) (*structural.Schema, error) {
	if served, defined := c.serves(version); !served {
		return nil, &NotServedError{CRD: c.Name(), APIVersion: version, Kind: c.crd.Spec.Names.Kind, Version: version, Defined: defined, Served: c.ServedVersions()}
	}
	if errs := c.Errors(); len(errs) > 0 {
		return nil, &RejectedError{CRD: c.Name(), Errors: errs}
	}
	s, err := c.structuralOf(c.crd.SchemaFor(version))
	if err != nil {
		return nil, c.rejectedBy(err)
	}
	return s, nil
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

// Columns returns the table `kubectl get` prints for stored, an object as
// stored in etcd, on a GET at its own version (which must be served):
// the column definitions (Name, then the version's printer columns, or the
// default Age column) and the object's cells, computed after the storage
// read path (Read) with ages counted to now. A failed read gives its
// errors; an object with a top-level items array, which the apiserver's
// table code takes for a list, an InternalError at items. stored is not
// changed.
func (c *CRD) Columns(stored map[string]any, now time.Time) ([]serving.Column, []any, field.ErrorList) {
	apiVersion, _ := stored["apiVersion"].(string)
	r := c.Read(context.Background(), stored, apiVersion) // at its own version: no webhook call
	if len(r.Errors) > 0 {
		return nil, nil, r.Errors
	}
	_, version := splitAPIVersion(apiVersion)
	t := serving.NewTable(c.printerColumns(version))
	cells, err := t.Row(r.Object, now)
	if err != nil {
		at := field.NewPath("items")
		if _, list := r.Object["items"].([]any); !list {
			at = nil
		}
		return nil, nil, field.ErrorList{field.InternalError(at, err)}
	}
	return t.Columns(), cells, nil
}

// printerColumns are a version's additionalPrinterColumns: its own, or
// the ones all versions share.
func (c *CRD) printerColumns(version string) []serving.Column {
	cols := c.crd.Spec.AdditionalPrinterColumns
	for _, v := range c.crd.Spec.Versions {
		if v.Name == version && v.AdditionalPrinterColumns != nil {
			cols = v.AdditionalPrinterColumns
		}
	}
	out := make([]serving.Column, len(cols))
	for i, col := range cols {
		out[i] = serving.Column{Name: col.Name, Type: col.Type, Format: col.Format, Description: col.Description, Priority: col.Priority, JSONPath: col.JSONPath}
	}
	return out
}

// Scale returns the autoscaling/v1 Scale that GET .../NAME/scale returns
// for stored, an object as stored in etcd, at its own version (which must
// be served), after the storage read path (Read). A version without the
// scale subresource gives a FieldValueNotFound at ""; the other errors
// are Read's and serving.Scale's. stored is not changed.
func (c *CRD) Scale(stored map[string]any) (map[string]any, field.ErrorList) {
	apiVersion, _ := stored["apiVersion"].(string)
	_, version := splitAPIVersion(apiVersion)
	sub := c.crd.SubresourcesFor(version)
	if served, _ := c.serves(version); served && len(c.Errors()) == 0 && (sub == nil || sub.Scale == nil) {
		return nil, field.ErrorList{{Type: field.ErrorTypeNotFound, BadValue: field.OmitValueType{}, Detail: fmt.Sprintf("version %s of CustomResourceDefinition %q has no scale subresource", version, c.Name())}}
	}
	r := c.Read(context.Background(), stored, apiVersion) // at its own version: no webhook call
	if len(r.Errors) > 0 {
		return nil, r.Errors
	}
	var selector string
	if sub.Scale.LabelSelectorPath != nil {
		selector = *sub.Scale.LabelSelectorPath
	}
	scale, err := serving.Scale(r.Object, sub.Scale.SpecReplicasPath, sub.Scale.StatusReplicasPath, selector)
	if err != nil {
		return nil, field.ErrorList{err}
	}
	return scale, nil
}

// Lint lists what the apiserver accepts in the CRD but cannot work as
// meant, version by version: printer columns whose JSONPath does not
// parse (the apiserver silently drops that column and every later one),
// names a field the schema does not declare, indexes a non-array, or whose
// type cannot hold its field, or whose priority is negative; scale paths that name no integer (replicas)
// or string (label selector) field. Each is a FieldValueInvalid at the
// column's jsonPath or the scale path in the CRD, the path as BadValue and
// the schema location in the detail. Nil for a CRD the apiserver rejects
// (see Errors). These are not apiserver errors: the apiserver creates the
// CRD.
func (c *CRD) Lint() field.ErrorList {
	if len(c.Errors()) > 0 {
		return nil
	}
	l := lintList{seen: map[string]bool{}}
	for i := range c.crd.Spec.Versions {
		c.lintVersion(&l, i)
	}
	return l.out
}

// lintVersion adds to l the findings of the CRD's i-th version: its
// columns' JSONPaths and priorities, its scale paths.
func (c *CRD) lintVersion(l *lintList, i int) {
	v := &c.crd.Spec.Versions[i]
	s, err := c.structuralOf(c.crd.SchemaFor(v.Name))
	if err != nil || s == nil {
		return
	}
	v1 := c.crd.APIVersion == "apiextensions.k8s.io/v1"
	vp := c.lintBase(i, v.AdditionalPrinterColumns != nil || v1)
	cols := c.printerColumns(v.Name)
	for _, f := range serving.LintColumns(s, cols) {
		l.finding(vp.Child("additionalPrinterColumns").Index(f.Column).Child("jsonPath"), f)
	}
	negativePriorities(l, vp, cols)
	if sub := c.crd.SubresourcesFor(v.Name); sub != nil && sub.Scale != nil {
		sp := c.lintBase(i, v.Subresources != nil || v1).Child("subresources", "scale")
		for _, f := range lintScale(s, sub.Scale) {
			l.finding(sp.Child(f.name), f.Finding)
		}
	}
}

// lintList collects Lint's errors, each once.
type lintList struct {
	out  field.ErrorList
	seen map[string]bool
}

// add adds e unless an error with the same text is there already.
func (l *lintList) add(e *field.Error) {
	if key := e.Error(); !l.seen[key] {
		l.seen[key] = true
		l.out = append(l.out, e)
	}
}

// finding adds f, found at the CRD path at: the field path as the bad
// value, the schema location in the detail.
func (l *lintList) finding(at *field.Path, f serving.Finding) {
	detail := f.Message
	if f.Schema != "" {
		detail += " (at " + f.Schema + ")"
	}
	l.add(field.Invalid(at, f.Path, detail))
}

// negativePriorities adds the columns with a negative priority: the
// apiserver accepts it, and kubectl get hides the column without -o wide
// as it hides a positive one (it shows only priority 0).
func negativePriorities(l *lintList, vp *field.Path, cols []serving.Column) {
	for j, col := range cols {
		if col.Priority < 0 {
			l.add(field.Invalid(vp.Child("additionalPrinterColumns").Index(j).Child("priority"), col.Priority,
				"a negative priority hides the column from kubectl get as a positive one does: only priority 0 shows without -o wide"))
		}
	}
}

// scaleFinding is a finding of a scale path and the path's field name.
type scaleFinding struct {
	serving.Finding
	name string
}

// lintScale lints a version's scale paths, naming each finding's field.
func lintScale(s *structural.Schema, sc *model.Scale) []scaleFinding {
	sel := ""
	if sc.LabelSelectorPath != nil {
		sel = *sc.LabelSelectorPath
	}
	var out []scaleFinding
	for _, f := range serving.LintScale(s, sc.SpecReplicasPath, sc.StatusReplicasPath, sel) {
		name := "labelSelectorPath"
		switch f.Path {
		case sc.SpecReplicasPath:
			name = "specReplicasPath"
		case sc.StatusReplicasPath:
			name = "statusReplicasPath"
		}
		out = append(out, scaleFinding{f, name})
	}
	return out
}

// lintBase is where a version's columns and subresources are written:
// under spec.versions[i], or at the top of a v1beta1 CRD that shares them.
func (c *CRD) lintBase(i int, own bool) *field.Path {
	if own {
		return field.NewPath("spec", "versions").Index(i)
	}
	return field.NewPath("spec")
}

// JSONSchema returns a JSON Schema (draft-04) of the objects a version
// accepts, for kubeconform and yaml-language-server (see
// serving.JSONSchema for what it says and what it leaves as x- keywords);
// strict, it also rejects the unknown fields kubectl's --validate=strict
// rejects. For a version the CRD defines but does not serve it is a
// schema that refuses every object and says why
// (serving.UnservedJSONSchema). It fails with a *NotServedError for a
// version the CRD does not define, a *RejectedError for a CRD the
// apiserver rejects.
func (c *CRD) JSONSchema(version string, strict bool) (map[string]any, error) {
	served, defined := c.serves(version)
	if !defined {
		return nil, &NotServedError{CRD: c.Name(), APIVersion: version, Kind: c.crd.Spec.Names.Kind, Version: version, Served: c.ServedVersions()}
	}
	if errs := c.Errors(); len(errs) > 0 {
		return nil, &RejectedError{CRD: c.Name(), Errors: errs}
	}
	r := c.resource(version)
	if !served {
		return serving.UnservedJSONSchema(r, c.Name(), c.ServedVersions()), nil
	}
	s, err := c.structuralOf(c.crd.SchemaFor(version))
	if err != nil {
		return nil, c.rejectedBy(err)
	}
	return serving.JSONSchema(r, s, strict), nil
}
