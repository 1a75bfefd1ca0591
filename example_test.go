package crdschema_test

import (
	"errors"
	"fmt"

	crdschema "github.com/crdschema/crdschema"
)

// cronTabCRD is the CronTab CRD of the Kubernetes documentation (as
// testdata/examples/crds/crontab-crd.yaml, without its short name): the one
// definition the examples and tests of this package share; tests that need
// another CronTab (more versions, other fields) say so in their own name.
const cronTabCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
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
              cronSpec:
                type: string
                pattern: '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'
                default: "5 0 * * *"
              image: {type: string}
              replicas: {type: integer, minimum: 1, maximum: 10, default: 1}
`

// Apply does what the apiserver does to a create request: the unknown
// field is pruned and reported, the missing fields are defaulted.
func ExampleSchema_Apply() {
	crd, err := crdschema.LoadCRD([]byte(cronTabCRD))
	if err != nil {
		panic(err)
	}
	s, err := crd.Version("v1")
	if err != nil {
		panic(err)
	}
	r := s.Apply(map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": "my-new-cron-object"},
		"spec": map[string]any{
			"image":           "my-awesome-cron-image",
			"someRandomField": int64(42),
		},
	})
	fmt.Println("spec:", r.Object["spec"])
	fmt.Println("pruned:", r.Pruned)
	fmt.Println("errors:", len(r.Errors))
	// Output:
	// spec: map[cronSpec:5 0 * * * image:my-awesome-cron-image replicas:1]
	// pruned: [spec.someRandomField]
	// errors: 0
}

// The two errors of the CronTab example in the Kubernetes documentation.
func ExampleSchema_Apply_invalid() {
	crd, err := crdschema.LoadCRD([]byte(cronTabCRD))
	if err != nil {
		panic(err)
	}
	s, err := crd.Version("v1")
	if err != nil {
		panic(err)
	}
	r := s.Apply(map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": "invalid"},
		"spec":       map[string]any{"cronSpec": "* * * *", "replicas": int64(15)},
	})
	for _, e := range r.Errors {
		fmt.Println(string(e.Type), e.Field)
	}
	// Output:
	// FieldValueInvalid spec.cronSpec
	// FieldValueInvalid spec.replicas
}

// Malformed metadata is not repaired: the apiserver rejects the request.
func ExampleSchema_Apply_rejected() {
	s, err := crdschema.ParseSchema([]byte(`{type: object, properties: {spec: {type: object}}}`))
	if err != nil {
		panic(err)
	}
	r := s.Apply(map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Thing",
		"metadata":   map[string]any{"name": "x", "labels": "not a map"},
	})
	fmt.Println(r.Object == nil, string(r.Errors[0].Type), r.Errors[0].Field)
	// Output:
	// true FieldValueInvalid metadata
}

// LoadCRD reports what kubectl create of a CRD would be told.
func ExampleLoadCRD() {
	crd, err := crdschema.LoadCRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: things, kind: Thing}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          foo: {pattern: abc}
`))
	if err != nil {
		panic(err)
	}
	for _, e := range crd.Errors() {
		fmt.Println(string(e.Type), e.Field)
	}
	// Output:
	// FieldValueRequired spec.validation.openAPIV3Schema.properties[foo].type
}

// ParseSchema lints a bare OpenAPI v3 schema, as a CI job does for schemas
// kept outside a CRD: Errors are those of a minimal CRD holding it, with
// paths relative to the schema root; a schema that cannot be compiled at
// all ($ref) is a *RejectedError holding its errors.
func ExampleParseSchema() {
	s, err := crdschema.ParseSchema([]byte(`{"type":"object","properties":{"a":{"anyOf":[{"type":"string"}]}}}`))
	if err != nil {
		panic(err)
	}
	for _, e := range s.Errors() {
		fmt.Println(string(e.Type), e.Field)
	}
	_, err = crdschema.ParseSchema([]byte(`{"$ref":"#/definitions/x"}`))
	var rejected *crdschema.RejectedError
	if errors.As(err, &rejected) {
		fmt.Println(string(rejected.Errors[0].Type), rejected.Errors[0].Field)
	}
	// Output:
	// FieldValueForbidden properties[a].anyOf[0].type
	// FieldValueRequired properties[a].type
	// FieldValueForbidden $ref
}

// Prune drops unknown fields as a read from storage does, without
// defaulting or validating.
func ExampleSchema_Prune() {
	s, err := crdschema.ParseSchema([]byte(`
type: object
properties:
  json:
    x-kubernetes-preserve-unknown-fields: true
    type: object
    properties:
      spec: {type: object, properties: {foo: {type: string}}}
`))
	if err != nil {
		panic(err)
	}
	r := s.Prune(map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Thing",
		"json": map[string]any{
			"spec":   map[string]any{"foo": "a", "something": "dropped"},
			"status": map[string]any{"something": "kept"},
		},
	})
	fmt.Println(r.Object["json"])
	fmt.Println(r.Pruned)
	// Output:
	// map[spec:map[foo:a] status:map[something:kept]]
	// [json.spec.something]
}

// Default drops non-nullable nulls without default and applies defaults.
func ExampleSchema_Default() {
	s, err := crdschema.ParseSchema([]byte(`
type: object
properties:
  spec:
    type: object
    properties:
      foo: {type: string, default: "default"}
      bar: {type: string, nullable: true}
      baz: {type: string}
`))
	if err != nil {
		panic(err)
	}
	r := s.Default(map[string]any{"spec": map[string]any{"foo": nil, "bar": nil, "baz": nil}})
	fmt.Println(r.Object["spec"])
	// Output:
	// map[bar:<nil> foo:default]
}

// Validate validates an object as it is, as after pruning and defaulting.
func ExampleSchema_Validate() {
	s, err := crdschema.ParseSchema([]byte(`{type: object, properties: {spec: {type: object, properties: {replicas: {type: integer, maximum: 10}}}}}`))
	if err != nil {
		panic(err)
	}
	errs := s.Validate(map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Thing",
		"metadata":   map[string]any{"name": "x"},
		"spec":       map[string]any{"replicas": int64(15)},
	})
	fmt.Println(errs)
	// Output:
	// [spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10]
}

// An update is validated with ratcheting: the stored object may no longer
// be valid (here weight 150 > 100, stored before the CRD tightened), and
// an update that leaves it unchanged is accepted, while one that changes it
// to another invalid value is refused. A status-only schema change would
// be ignored the same way.
func ExampleSchema_ApplyUpdate() {
	crd, err := crdschema.LoadCRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: routes.example.com}
spec:
  group: example.com
  names: {kind: Route, plural: routes}
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
            properties:
              setWeight: {type: integer, maximum: 100}
              host: {type: string}
`))
	if err != nil {
		panic(err)
	}
	s, err := crd.Version("v1")
	if err != nil {
		panic(err)
	}
	stored := map[string]any{"apiVersion": "example.com/v1", "kind": "Route",
		"metadata": map[string]any{"name": "r"},
		"spec":     map[string]any{"setWeight": 150, "host": "a.example.com"}}

	// The host changes, setWeight does not: its error is ratcheted.
	r := s.ApplyUpdate(map[string]any{"apiVersion": "example.com/v1", "kind": "Route",
		"metadata": map[string]any{"name": "r"},
		"spec":     map[string]any{"setWeight": 150, "host": "b.example.com"}}, stored)
	fmt.Println("host changed:", r.Errors)

	// setWeight changes from 150 to 200: still invalid, and changed.
	r = s.ApplyUpdate(map[string]any{"apiVersion": "example.com/v1", "kind": "Route",
		"metadata": map[string]any{"name": "r"},
		"spec":     map[string]any{"setWeight": 200, "host": "a.example.com"}}, stored)
	fmt.Println("setWeight changed:", r.Errors)
	// Output:
	// host changed: []
	// setWeight changed: [spec.setWeight: Invalid value: 200: spec.setWeight in body should be less than or equal to 100]
}
