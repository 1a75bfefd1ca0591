package crdschema

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// builtCRD is a CRD with a CEL rule, whose check builds a structural
// model and a compile result.
const builtCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: toys.toys.crdschema.dev}
spec:
  group: toys.crdschema.dev
  scope: Namespaced
  names: {plural: toys, singular: toy, kind: Toy, listKind: ToyList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties: {count: {type: integer}}
            x-kubernetes-validations: [{rule: "self.count >= 0"}]
`

// TestErrorsThenVersionBuildsOnce: a version compiled after Errors, with
// no garbage collection between, takes over what Errors' check built
// (its structural model, its compiled rules), as it does when the
// version's compilation runs the check; after a collection, Errors keeps
// nothing live, and the version is built anew.
func TestErrorsThenVersionBuildsOnce(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	c, err := LoadCRD([]byte(builtCRD))
	if err != nil {
		t.Fatal(err)
	}
	if errs := c.Errors(); len(errs) != 0 {
		t.Fatalf("the CRD is rejected: %v", errs)
	}
	checked := c.dropped.Value()
	if checked == nil || c.built != nil {
		t.Fatalf("after Errors: built %p, dropped %p; want only a dropped Built", c.built, checked)
	}
	p := c.crd.SchemaFor("v1")
	if s, err := c.JSONSchema("v1", false); err != nil || s == nil {
		t.Fatalf("JSONSchema: %v", err)
	}
	if s, err := c.structuralOf(p); err != nil || s != checked.Structural(p) {
		t.Errorf("the published schema's structural model is not the check's (%v)", err)
	}
	if _, err := c.Version("v1"); err != nil {
		t.Fatal(err)
	}
	if c.built != checked {
		t.Errorf("Version built %p anew; want the check's %p", c.built, checked)
	}

	c, err = LoadCRD([]byte(builtCRD))
	if err != nil {
		t.Fatal(err)
	}
	c.Errors()
	runtime.GC()
	if b := c.dropped.Value(); b != nil {
		t.Fatal("what Errors' check built is live after a collection")
	}
	if _, err := c.Version("v1"); err != nil || c.built == nil {
		t.Fatalf("Version after a collection: built %p, %v", c.built, err)
	}
}
