package schema_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/crdschema/crdschema/schema"
)

// TestVersionSchema: per-version schemas (v1, v1beta1), v1beta1's
// top-level validation and single version, versions without a schema, and
// the errors with the document's position.
func TestVersionSchema(t *testing.T) {
	const v1 = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  versions:
  - {name: v1, schema: {openAPIV3Schema: {type: object, properties: {a: {type: string}}}}}
  - {name: v2, schema: {openAPIV3Schema: {type: object, properties: {b: {type: integer, default: 2.5}, z: null}}}}
  validation: {openAPIV3Schema: {type: string}} # not a v1 field: ignored
`
	const v1beta1 = `
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
spec:
  versions: [{name: old}, {name: own, schema: {openAPIV3Schema: {type: object, description: own}}}]
  validation: {openAPIV3Schema: {type: object, description: shared}}
`
	const single = `
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
spec: {version: v1, validation: {openAPIV3Schema: {type: object, description: single}}}
`
	const none = `
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
spec: {versions: [{name: v1}]}
`
	for _, c := range []struct {
		doc, version, want string
	}{
		{v1, "v1", "object [a]"},
		{v1, "v2", "object [b z] default 2.5 (float64)"},
		{v1beta1, "old", "object shared"},
		{v1beta1, "own", "object own"},
		{single, "v1", "object single"},
		{none, "v1", "<nil>"},
		{v1, "v3", `crd.yaml:1: document 0: the CustomResourceDefinition defines no version "v3" (it defines ["v1" "v2"])`},
		{"apiVersion: v1\nkind: ConfigMap\n", "v1", `crd.yaml:1: document 0 is not an apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition (apiVersion "v1", kind "ConfigMap")`},
		{"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  versions:\n  - {name: v1, schema: {openAPIV3Schema: {maxLength: x}}}\n", "v1",
			"crd.yaml:1: document 0: cannot decode the CustomResourceDefinition: json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.maxLength of type int64"},
	} {
		docs, err := schema.ReadDocuments("crd.yaml", []byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		p, err := docs[0].VersionSchema(c.version)
		got := describe(p)
		if err != nil {
			var ie *schema.InputError
			if !errors.As(err, &ie) {
				t.Errorf("%s: %T is not an *InputError", c.version, err)
			}
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("VersionSchema(%q) of\n%s= %s\nwant %s", c.version, c.doc, got, c.want)
		}
	}
}

// describe renders the parts of p the test looks at.
func describe(p *schema.Props) string {
	if p == nil {
		return "<nil>"
	}
	if p.Description != "" {
		return p.Type + " " + p.Description
	}
	var names []string
	for _, k := range []string{"a", "b", "z"} {
		if c, ok := p.Properties[k]; ok && c != nil {
			names = append(names, k)
		}
	}
	s := fmt.Sprintf("%s %v", p.Type, names)
	if b := p.Properties["b"]; b != nil && b.Default != nil {
		s += fmt.Sprintf(" default %v (%T)", b.Default.Value, b.Default.Value)
	}
	return s
}
