package serving_test

import (
	"strings"
	"testing"

	crdschema "github.com/crdschema/crdschema"
)

const lintCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      scale: {specReplicasPath: .spec.size, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}
    additionalPrinterColumns:
    - {name: Image, type: string, jsonPath: .spec.image}
    - {name: Typo, type: string, jsonPath: .spec.imag}
    - {name: Index, type: string, jsonPath: '.spec.image[0]'}
    - {name: Count, type: integer, jsonPath: .spec.image}
    - {name: When, type: date, jsonPath: .spec.size}
    - {name: Free, type: string, jsonPath: .spec.extra.anything}
    - {name: Label, type: string, jsonPath: .metadata.labels.app}
    - {name: Meta, type: string, jsonPath: .metadata.nmae}
    - {name: First, type: string, jsonPath: '.spec.items[*].name'}
    - {name: Bad, type: string, jsonPath: '.spec['}
    - {name: Dropped, type: string, jsonPath: .spec.image}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              image: {type: string}
              size: {type: number}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
              items:
                type: array
                items: {type: object, properties: {name: {type: string}}}
          status:
            type: object
            properties:
              replicas: {type: integer}
`

// TestLint pins one finding of each kind, and the paths that are fine or
// unknown.
func TestLint(t *testing.T) {
	crd, err := crdschema.LoadCRD([]byte(lintCRD))
	if err != nil {
		t.Fatal(err)
	}
	if errs := crd.Errors(); len(errs) > 0 {
		t.Fatalf("the apiserver accepts this CRD, got %v", errs)
	}
	var got []string
	for _, e := range crd.Lint() {
		got = append(got, e.Error())
	}
	want := []string{
		`spec.versions[0].additionalPrinterColumns[1].jsonPath: Invalid value: ".spec.imag": names the field "imag", which the schema does not declare: the column is always empty (at .spec.imag)`,
		`spec.versions[0].additionalPrinterColumns[2].jsonPath: Invalid value: ".spec.image[0]": indexes a value of type "string", not an array: the column is always empty (at .spec.image[])`,
		`spec.versions[0].additionalPrinterColumns[3].jsonPath: Invalid value: ".spec.image": a column of type "integer" over a field of type "string": the cell is always empty (at .spec.image)`,
		`spec.versions[0].additionalPrinterColumns[4].jsonPath: Invalid value: ".spec.size": a column of type "date" over a field of type "number": the cell is always empty (at .spec.size)`,
		`spec.versions[0].additionalPrinterColumns[7].jsonPath: Invalid value: ".metadata.nmae": names the field "nmae", which ObjectMeta does not have: the column is always empty (at .metadata.nmae)`,
		`spec.versions[0].additionalPrinterColumns[9].jsonPath: Invalid value: ".spec[": the JSONPath does not parse (unterminated array): the apiserver drops this column and the 1 after it`,
		`spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".spec.size": the field is of type "number", not integer: GET .../scale fails on its values (at .spec.size)`,
		`spec.versions[0].subresources.scale.labelSelectorPath: Invalid value: ".status.selector": names the field "selector", which the schema does not declare (scale paths are split at dots, not JSONPaths) (at .status.selector)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestOpenAPISharesNothing changes a published default and checks that the
// CRD's next answer is unchanged.
func TestOpenAPISharesNothing(t *testing.T) {
	crd, err := crdschema.LoadCRD([]byte(strings.Replace(lintCRD, "image: {type: string}", "image: {type: string}\n              opts: {type: object, x-kubernetes-preserve-unknown-fields: true, default: {a: 1}}", 1)))
	if err != nil {
		t.Fatal(err)
	}
	get := func() map[string]any {
		v3, _, err := crd.OpenAPI("v1")
		if err != nil {
			t.Fatal(err)
		}
		spec := v3["com.example.v1.Widget"].(map[string]any)["properties"].(map[string]any)["spec"].(map[string]any)
		return spec["properties"].(map[string]any)["opts"].(map[string]any)["default"].(map[string]any)
	}
	get()["a"] = "changed"
	if got := get()["a"]; got != int64(1) {
		t.Errorf("the default changed to %v", got)
	}
}
