package crdschema

import (
	"errors"
	"reflect"
	"testing"

	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/schema"
)

// multiVersionCRD defines v1alpha1 (not served), v1beta1 and v1 (storage),
// listed out of priority order.
const multiVersionCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1beta1
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}}}}}}
  - name: v1alpha1
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {old: {type: string}}}}}}
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}}}}}}
`

func TestLoadCRDsPositions(t *testing.T) {
	data := []byte("# a comment\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n" + multiVersionCRD)
	crds, err := LoadCRDs("mixed.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(crds) != 1 {
		t.Fatalf("got %d CRDs, want 1 (the ConfigMap is skipped)", len(crds))
	}
	if got, want := crds[0].Position(), (schema.Position{File: "mixed.yaml", Index: 1, Line: 6}); got != want {
		t.Errorf("Position() = %+v, want %+v", got, want)
	}
	if _, err := LoadCRDs("bad.yaml", []byte("a: [\n")); err == nil {
		t.Error("unreadable input must fail")
	}
}

func TestCRDHelpers(t *testing.T) {
	c, err := LoadCRD([]byte(multiVersionCRD))
	if err != nil {
		t.Fatal(err)
	}
	if errs := c.Errors(); len(errs) != 0 {
		t.Fatalf("unexpected errors: %v", errs)
	}
	if got, want := c.GroupKind(), (kschema.GroupKind{Group: "example.com", Kind: "Widget"}); got != want {
		t.Errorf("GroupKind() = %v, want %v", got, want)
	}
	if got := c.StorageVersion(); got != "v1" {
		t.Errorf("StorageVersion() = %q, want v1", got)
	}
	if got, want := c.ServedVersions(), []string{"v1", "v1beta1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ServedVersions() = %v, want %v (priority order)", got, want)
	}

	// A defined version that is not served: its schema, with the error.
	old, err := c.Version("v1alpha1")
	var ns *NotServedError
	if old == nil || !errors.As(err, &ns) || !ns.Defined || ns.Version != "v1alpha1" {
		t.Fatalf("Version(v1alpha1) = %v, %v; want the schema and a *NotServedError for a defined version", old, err)
	}
	r := old.Prune(map[string]any{"apiVersion": "example.com/v1alpha1", "kind": "Widget", "spec": map[string]any{"old": "x", "a": "y"}})
	if got, want := r.Pruned, []string{"spec.a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("pruned with the unserved version's schema = %v, want %v", got, want)
	}
	if again, _ := c.Version("v1alpha1"); again != old {
		t.Error("Version must return the one compiled schema of an unserved version too")
	}
	// An undefined version: no schema.
	if s, err := c.Version("v2"); s != nil || !errors.As(err, &ns) || ns.Defined {
		t.Errorf("Version(v2) = %v, %v; want no schema and a *NotServedError for an undefined version", s, err)
	}
	v1, err := c.Version("v1")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := c.Version("v1"); again != v1 {
		t.Error("Version must return the one compiled schema of a version")
	}
}

func TestNotCRDError(t *testing.T) {
	_, err := LoadCRD([]byte("apiVersion: v1\nkind: ConfigMap\n"))
	var nc *NotCRDError
	if !errors.As(err, &nc) || nc.Kind != "ConfigMap" || nc.APIVersion != "v1" {
		t.Errorf("LoadCRD(ConfigMap) error = %v, want a *NotCRDError naming it", err)
	}
}

func TestSchemaErrors(t *testing.T) {
	// Accepted schema.
	s, err := ParseSchema([]byte(`{type: object, properties: {spec: {type: object}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if errs := s.Errors(); errs != nil {
		t.Errorf("Errors() = %v, want nil", errs)
	}
	if errs := s.StructuralErrors(); errs != nil {
		t.Errorf("StructuralErrors() = %v, want nil", errs)
	}

	// Compiles, but the apiserver would reject it: a field without type
	// (structural) and a default that is not valid (not structural).
	s, err = ParseSchema([]byte(`{type: object, properties: {a: {}, b: {type: integer, default: "x"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	errs := s.Errors()
	if len(errs) == 0 {
		t.Fatal("Errors() is empty for a schema the apiserver rejects")
	}
	serrs := s.StructuralErrors()
	want := field.ErrorList{field.Required(field.NewPath("properties[a]", "type"), "must not be empty for specified object fields")}
	if len(serrs) != 1 || serrs[0].Type != want[0].Type || serrs[0].Field != want[0].Field {
		t.Errorf("StructuralErrors() = %v, want %v", serrs, want)
	}

	// Cannot be compiled at all.
	_, err = ParseSchema([]byte(`{type: object, properties: {a: {$ref: "#/x"}}}`))
	var re *RejectedError
	if !errors.As(err, &re) || len(re.Errors) == 0 {
		t.Errorf("ParseSchema($ref) error = %v, want a *RejectedError with reasons", err)
	}
}

func TestStructuralErrorsOfCRDVersion(t *testing.T) {
	c, err := LoadCRD([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {}}}}
  - name: v2
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object}}
`))
	if err != nil {
		t.Fatal(err)
	}
	// The CRD would be rejected: its schema comes with the reasons.
	s, err := c.Version("v1")
	var re *RejectedError
	if !errors.As(err, &re) || s == nil || !reflect.DeepEqual(re.Errors, c.Errors()) {
		t.Fatalf("Version(v1) = %v, %v; want the schema and a *RejectedError with the CRD's errors", s, err)
	}
	errs := s.StructuralErrors()
	if len(errs) != 1 || errs[0].Field != "spec.versions[0].schema.openAPIV3Schema.properties[spec].type" {
		t.Errorf("StructuralErrors() = %v, want one error at the type of spec in versions[0]", errs)
	}
	if len(s.Errors()) == 0 || !reflect.DeepEqual(s.Errors(), c.Errors()) {
		t.Errorf("a CRD version's Errors() must be the CRD's")
	}
	v2, err := c.Version("v2")
	if !errors.As(err, &re) || v2 == nil {
		t.Fatalf("Version(v2) = %v, %v; want the schema and a *RejectedError", v2, err)
	}
	if errs := v2.StructuralErrors(); errs != nil {
		t.Errorf("v2 StructuralErrors() = %v, want nil", errs)
	}
}

func TestRoute(t *testing.T) {
	good, err := LoadCRD([]byte(multiVersionCRD))
	if err != nil {
		t.Fatal(err)
	}
	bad, err := LoadCRD([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, properties: {spec: {}}}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	crds := []*CRD{bad, good}
	obj := func(apiVersion, kind any) map[string]any {
		return map[string]any{"apiVersion": apiVersion, "kind": kind}
	}

	s, err := Route(crds, obj("example.com/v1beta1", "Widget"))
	if want, _ := good.Version("v1beta1"); err != nil || s != want {
		t.Errorf("Route(Widget v1beta1) = %p, %v; want the v1beta1 schema", s, err)
	}

	var ns *NotServedError
	if _, err := Route(crds, obj("example.com/v1alpha1", "Widget")); !errors.As(err, &ns) {
		t.Errorf("unserved version: error %v, want *NotServedError", err)
	} else if want := `no matches for kind "Widget" in version "example.com/v1alpha1": CustomResourceDefinition "widgets.example.com" serves v1, v1beta1`; err.Error() != want {
		t.Errorf("unserved version: %q, want %q", err, want)
	}

	var re *RejectedError
	if _, err := Route(crds, obj("example.com/v1", "Gadget")); !errors.As(err, &re) || re.CRD != "gadgets.example.com" {
		t.Errorf("rejected CRD: error %v, want *RejectedError", err)
	}

	var uk *UnknownKindError
	if _, err := Route(crds, obj("apps/v1", "Deployment")); !errors.As(err, &uk) || uk.Kind != "Deployment" {
		t.Errorf("unknown kind: error %v, want *UnknownKindError", err)
	}

	var fe *field.Error
	if _, err := Route(crds, obj(int64(1), "Widget")); !errors.As(err, &fe) || fe.Field != "apiVersion" || fe.Type != field.ErrorTypeInvalid {
		t.Errorf("non-string apiVersion: error %v, want an Invalid *field.Error", err)
	}
	if _, err := Route(crds, obj("example.com/v1", nil)); !errors.As(err, &fe) || fe.Field != "kind" || fe.Type != field.ErrorTypeRequired {
		t.Errorf("missing kind: error %v, want a Required *field.Error", err)
	}
}

func TestApplyJSON(t *testing.T) {
	c, err := LoadCRD([]byte(multiVersionCRD))
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Version("v1")
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"a":"x","b":1}}`)
	got, err := s.ApplyJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := ReadDocuments("x", data)
	if err != nil {
		t.Fatal(err)
	}
	if want := s.Apply(docs[0].Object); !reflect.DeepEqual(got, want) {
		t.Errorf("ApplyJSON = %+v, Apply = %+v", got, want)
	}
	for _, bad := range []string{`[1]`, `{"a":1}{"b":2}`, `{`} {
		if _, err := s.ApplyJSON([]byte(bad)); err == nil {
			t.Errorf("ApplyJSON(%s) must fail", bad)
		}
	}
}

func TestServedVersionsPriority(t *testing.T) {
	tests := []struct {
		versions []model.Version
		want     []string
	}{
		{nil, nil},
		{[]model.Version{{Name: "v1", Served: false}}, nil},
		{[]model.Version{{Name: "v1beta1", Served: true}, {Name: "v1", Served: true}}, []string{"v1", "v1beta1"}},
		{[]model.Version{{Name: "v1beta1", Served: true}, {Name: "v1", Served: false}}, []string{"v1beta1"}},
		{[]model.Version{{Name: "v2alpha1", Served: true}, {Name: "v1beta2", Served: true}, {Name: "foo", Served: true}}, []string{"v1beta2", "v2alpha1", "foo"}},
	}
	for _, tt := range tests {
		c := newCRD(&model.CRD{Spec: model.CRDSpec{Versions: tt.versions}})
		if got := c.ServedVersions(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ServedVersions(%v) = %v, want %v", tt.versions, got, tt.want)
		}
	}
}
