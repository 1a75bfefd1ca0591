package crdschema

import (
	"strings"
	"testing"
)

// widgetDefinition is a Widget CRD whose replicas may go up to max, at
// apiVersion, with an extra annotation line (metadata that Conflicts
// ignores).
func widgetDefinition(t *testing.T, max, annotation string) *CRD {
	t.Helper()
	c, err := LoadCRD([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
  annotations: {` + annotation + `}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {replicas: {type: integer, maximum: ` + max + `}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestConflicts(t *testing.T) {
	a := widgetDefinition(t, "10", "")
	sameAsA := widgetDefinition(t, "10", "cert-manager.io/inject-ca-from: ns/cert")
	b := widgetDefinition(t, "3", "")
	gadget, err := LoadCRD([]byte(strings.ReplaceAll(strings.ReplaceAll(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`, "widgets", "gadgets"), "Widget", "Gadget")))
	if err != nil {
		t.Fatal(err)
	}
	if got := Conflicts([]*CRD{a, gadget, sameAsA}); got != nil {
		t.Errorf("equal specs, different annotations: %d conflicts, want none", len(got))
	}
	got := Conflicts([]*CRD{gadget, a, sameAsA, b})
	if len(got) != 1 || len(got[0]) != 3 || got[0][0] != a || got[0][1] != sameAsA || got[0][2] != b {
		t.Fatalf("Conflicts = %v, want the three widgets definitions in order", got)
	}
	// Route takes the first accepted definition of the group, and says
	// which one through the schema.
	s, err := Route([]*CRD{gadget, a, sameAsA, b}, map[string]any{"apiVersion": "example.com/v1", "kind": "Widget"})
	if err != nil || s.CRD() != a {
		t.Errorf("Route chose %v (%v), want the first definition", s.CRD(), err)
	}
	if bare, err := ParseSchema([]byte(`{"type": "object"}`)); err != nil || bare.CRD() != nil {
		t.Errorf("a bare schema's CRD: %v, %v; want nil", bare.CRD(), err)
	}
}
