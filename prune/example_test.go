package prune_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// The CronTab example of the Kubernetes documentation: a field the schema
// does not specify is dropped, and reported.
func Example() {
	p, err := schema.Parse([]byte(`{
		"type": "object",
		"properties": {
			"spec": {"type": "object", "properties": {
				"cronSpec": {"type": "string"},
				"image": {"type": "string"}}}}}`))
	if err != nil {
		panic(err)
	}
	s, err := structural.New(p) // rules 1–4: structural.Validate
	if err != nil {
		panic(err)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(`{
		"apiVersion": "stable.example.com/v1",
		"kind": "CronTab",
		"metadata": {"name": "my-new-cron-object"},
		"spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "someRandomField": 42}}`), &obj); err != nil {
		panic(err)
	}

	paths := prune.Prune(obj, s, prune.Options{ResourceRoot: true, ReturnPaths: true})

	fmt.Println(paths)
	out, _ := json.Marshal(obj)
	fmt.Println(string(out))
	// Output:
	// [spec.someRandomField]
	// {"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"my-new-cron-object"},"spec":{"cronSpec":"* * * * */5","image":"my-awesome-cron-image"}}
}
