package check_test

import (
	"strings"
	"testing"

	"github.com/crdschema/crdschema/check"
)

func TestCRD(t *testing.T) {
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
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
            properties:
              replicas: {type: integer}
            x-kubernetes-validations:
            - rule: self.replicas >
`
	errs, err := check.CRD([]byte(crd))
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || errs[0].Field != "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule" || !strings.Contains(errs[0].Detail, "compilation failed") {
		t.Fatalf("errors = %v, want one compilation error at the rule", errs)
	}
	ok := strings.Replace(crd, "self.replicas >", "has(self.replicas)", 1)
	if errs, err := check.CRD([]byte(ok)); err != nil || errs != nil {
		t.Fatalf("valid CRD: %v, %v", errs, err)
	}
	if _, err := check.CRD([]byte("apiVersion: v1\nkind: ConfigMap\n")); err == nil {
		t.Fatal("a ConfigMap checked as a CRD")
	}
}

func TestBareSchema(t *testing.T) {
	errs, err := check.BareSchema([]byte(`{"type":"object","properties":{"a":{"anyOf":[{"type":"string"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) == 0 || errs[0].Field != "properties[a].anyOf[0].type" {
		t.Fatalf("errors = %v, want a forbidden type in anyOf", errs)
	}
	// $ref cannot be compiled at all: still a list of errors, not an error.
	errs, err = check.BareSchema([]byte(`{"$ref":"#/x"}`))
	if err != nil || len(errs) == 0 {
		t.Fatalf("$ref: %v, %v", errs, err)
	}
	if _, err := check.BareSchema([]byte("- a\n- b\n")); err == nil {
		t.Fatal("a list read as a schema")
	}
}
