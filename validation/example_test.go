package validation_test

import (
	"fmt"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// The CronTab example of the Kubernetes documentation: a cronSpec that does
// not match its pattern and replicas above the maximum.
func Example() {
	const crontab = `
type: object
properties:
  spec:
    type: object
    properties:
      cronSpec:
        type: string
        pattern: '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'
      image:
        type: string
      replicas:
        type: integer
        minimum: 1
        maximum: 10
`
	p, err := schema.Parse([]byte(crontab)) // YAML or JSON
	if err != nil {
		panic(err)
	}
	s, err := structural.New(p) // rules 1–4: structural.Validate
	if err != nil {
		panic(err)
	}
	v := validation.New(s)

	obj := map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": "my-new-cron-object"},
		"spec": map[string]any{
			"cronSpec": "* * * *",
			"image":    "my-awesome-cron-image",
			"replicas": int64(15),
		},
	}
	for _, e := range v.Validate(obj) {
		fmt.Println(e)
	}
	// Unordered output:
	// spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'
	// spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10
}
