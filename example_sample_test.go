package crdschema_test

import (
	"fmt"

	crdschema "github.com/crdschema/crdschema"
)

// sampleCRD has two versions; only v1 declares spec.color.
const sampleCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
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
            required: [size, color]
            properties:
              size: {type: integer, minimum: 1, maximum: 9}
              color: {type: string, enum: [red, blue]}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
`

// A seeded example object that a create at v1 accepts.
func ExampleSchema_Samples() {
	crd, _ := crdschema.LoadCRD([]byte(sampleCRD))
	s, _ := crd.Version("v1")
	objs := s.Samples(1, 1)
	spec := objs[0]["spec"].(map[string]any)
	fmt.Println(objs[0]["apiVersion"], len(spec))
	// Output: example.com/v1 2
}
