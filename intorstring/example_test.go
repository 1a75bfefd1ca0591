package intorstring_test

import (
	"fmt"
	"log"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/intorstring"
)

func Example() {
	var port model.Props
	if err := model.DecodeProps([]byte(`{
		"x-kubernetes-int-or-string": true,
		"anyOf": [{"type": "integer"}, {"type": "string"}]
	}`), &port); err != nil {
		log.Fatal(err)
	}
	fmt.Println("anyOf pattern:", intorstring.IsAnyOfPattern(&port))

	var nearMiss model.Props
	if err := model.DecodeProps([]byte(`{
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
