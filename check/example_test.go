package check_test

import (
	"fmt"
	"log"

	"github.com/crdschema/crdschema/check"
)

// A CI lint of one CRD manifest: every error `kubectl create` would report,
// without compiling anything for objects.
func ExampleCRD() {
	errs, err := check.CRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
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
            properties:
              replicas: {type: integer}
            x-kubernetes-validations:
            - rule: self.replicas >= 0
`))
	if err != nil {
		log.Fatal(err) // not one readable CRD
	}
	for _, e := range errs {
		fmt.Println(e.Field, e.Type)
	}
	// Output:
	// spec.validation.openAPIV3Schema.properties[spec].type Required value
}
