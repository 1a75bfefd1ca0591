package crdschema

import (
	"errors"
	"reflect"
	"testing"
)

// The traps of issue 20: each has its test here.

const rejectedGadgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {properties: {a: {type: string}}}}}}
  - {name: v0, served: false, storage: false, schema: {openAPIV3Schema: {type: object}}}
`

// TestRejectedCRDVersion: the versions of a CRD the apiserver would reject
// are not usable without being told: Version returns the schema with a
// *RejectedError holding the CRD's errors, for a served version and for
// one that is not served (the rejection wins over NotServedError: a
// rejected CRD serves nothing), and Route refuses the CRD (a
// *RejectedError too), as the command does.
func TestRejectedCRDVersion(t *testing.T) {
	c, err := LoadCRD([]byte(rejectedGadgetCRD))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Errors()) == 0 {
		t.Fatal("the CRD must be rejected")
	}
	for _, v := range []string{"v1", "v0"} {
		s, err := c.Version(v)
		var re *RejectedError
		if s == nil || !errors.As(err, &re) || !reflect.DeepEqual(re.Errors, c.Errors()) {
			t.Errorf("Version(%s) = %v, %v; want the schema and a *RejectedError with the CRD's errors", v, s, err)
		}
	}
	var ns *NotServedError
	if s, err := c.Version("v9"); s != nil || !errors.As(err, &ns) || ns.Defined {
		t.Errorf("Version(v9) = %v, %v; want no schema and a *NotServedError for an undefined version", s, err)
	}
	obj := map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": map[string]any{"name": "g"}}
	s, err := Route([]*CRD{c}, obj)
	var re *RejectedError
	if s != nil || !errors.As(err, &re) {
		t.Errorf("Route = %v, %v; want no schema and a *RejectedError", s, err)
	}
}

// TestResultObjectOnRejection pins Result.Object as its documentation and
// the package's tour say: set when validation rejects the request (the
// request is rejected exactly when Errors is not empty), nil only when
// decoding rejects it (malformed metadata).
func TestResultObjectOnRejection(t *testing.T) {
	c, err := LoadCRD([]byte(multiVersionCRD))
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Version("v1")
	if err != nil {
		t.Fatal(err)
	}
	invalid := s.Apply(map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"}, "spec": map[string]any{"a": int64(1)}})
	if len(invalid.Errors) == 0 || invalid.Object == nil {
		t.Errorf("invalid value: Object %v, Errors %v; want both", invalid.Object, invalid.Errors)
	}
	malformed := s.Apply(map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": "not a mapping"})
	if len(malformed.Errors) == 0 || malformed.Object != nil {
		t.Errorf("malformed metadata: Object %v, Errors %v; want errors and no object", malformed.Object, malformed.Errors)
	}
	valid := s.Apply(map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"}})
	if len(valid.Errors) != 0 || valid.Object == nil {
		t.Errorf("valid: Object %v, Errors %v", valid.Object, valid.Errors)
	}
}

// TestApplyJSONDuplicateField: a request body holding a key twice is
// answered as the apiserver answers it under its default
// fieldValidation=Warn (a request that names none): the last value wins
// and a warning names the field, before the unknown fields' warnings.
func TestApplyJSONDuplicateField(t *testing.T) {
	c, err := LoadCRD([]byte(multiVersionCRD))
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Version("v1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.ApplyJSON([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"a":"x","a":"y","b":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Errors) != 0 || r.Object["spec"].(map[string]any)["a"] != "y" {
		t.Errorf("Object %v, Errors %v; want spec.a y and no errors", r.Object, r.Errors)
	}
	want := []string{`duplicate field "spec.a"`, `unknown field "spec.b"`}
	if got := r.Warnings(); !reflect.DeepEqual(got, want) {
		t.Errorf("Warnings() = %q, want %q", got, want)
	}
}
