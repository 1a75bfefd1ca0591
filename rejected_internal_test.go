package crdschema

import (
	"errors"
	"strings"
	"testing"
)

// TestRejectedByNeverEmpty: a schema that cannot be built although the
// CRD's check passed (no input is known to reach it) is still a
// RejectedError with a reason, whose Error does not index an empty list.
func TestRejectedByNeverEmpty(t *testing.T) {
	c, err := LoadCRD([]byte(`apiVersion: apiextensions.k8s.io/v1
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
    schema: {openAPIV3Schema: {type: object}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if errs := c.Errors(); len(errs) != 0 {
		t.Fatalf("the CRD is rejected: %v", errs)
	}
	r := c.rejectedBy(errors.New("no structural model"))
	if len(r.Errors) != 1 || !strings.Contains(r.Error(), "no structural model") {
		t.Errorf("rejectedBy = %v, want the build error as its one reason", r)
	}
}
