package intorstring_test

import (
	"fmt"
	"log"

	"github.com/crdschema/crdschema/intorstring"
	"github.com/crdschema/crdschema/schema"
)

func Example() {
	var port schema.Props
	if err := schema.DecodeProps([]byte(`{
		"x-kubernetes-int-or-string": true,
		"anyOf": [{"type": "integer"}, {"type": "string"}]
	}`), &port); err != nil {
		log.Fatal(err)
	}
	fmt.Println("anyOf pattern:", intorstring.IsAnyOfPattern(&port))

	var nearMiss schema.Props
	if err := schema.DecodeProps([]byte(`{
		"x-kubernetes-int-or-string": true,
		"anyOf": [{"type": "integer", "format": "int32"}, {"type": "string"}]
	}`), &nearMiss); err != nil {
		log.Fatal(err)
	}
	fmt.Println("near-miss is a pattern:", intorstring.IsAnyOfPattern(&nearMiss))
	// Output:
	// anyOf pattern: true
	// near-miss is a pattern: false
}
