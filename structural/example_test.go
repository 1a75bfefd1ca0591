package structural_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// The light chain: parse a schema, build its structural model, check the
// apiserver's rules, then prune and default an object. No root package,
// no CEL.
func Example() {
	p, err := schema.Parse([]byte(`
type: object
properties:
  spec:
    type: object
    properties:
      replicas: {type: integer, default: 1}
      image: {type: string}
`))
	if err != nil {
		panic(err)
	}
	s, err := structural.New(p)
	if err != nil {
		panic(err)
	}
	if errs := structural.Validate(nil, s); len(errs) > 0 {
		panic(errs.ToAggregate())
	}

	obj := map[string]any{
		"apiVersion": "example.com/v1", "kind": "Thing",
		"spec": map[string]any{"image": "nginx", "color": "blue"},
	}
	pruned := prune.Prune(obj, s, prune.Options{ResourceRoot: true, ReturnPaths: true})
	defaulting.Default(obj, defaulting.PruneDefaults(s, nil))

	out, _ := json.Marshal(obj)
	fmt.Println(pruned)
	fmt.Println(string(out))
	// Output:
	// [spec.color]
	// {"apiVersion":"example.com/v1","kind":"Thing","spec":{"image":"nginx","replicas":1}}
}

// Rules 1–4 with the apiserver's field paths: a property without a type.
func ExampleValidate() {
	p, err := schema.Parse([]byte(`{"type": "object", "properties": {"spec": {}}}`))
	if err != nil {
		panic(err)
	}
	s, err := structural.New(p)
	if err != nil {
		panic(err)
	}
	for _, e := range structural.Validate(nil, s) {
		fmt.Println(e)
	}
	// Output:
	// properties[spec].type: Required value: must not be empty for specified object fields
}
