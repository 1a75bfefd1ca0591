package intorstring_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdschema/crdschema/intorstring"
	"github.com/crdschema/crdschema/schema"
)

func Example() {
	var port schema.Props
	_ = schema.DecodeProps([]byte(`{
		"x-kubernetes-int-or-string": true,
		"anyOf": [{"type": "integer"}, {"type": "string"}]
	}`), &port)
	fmt.Println("anyOf pattern:", intorstring.IsAnyOfPattern(&port))

	var nearMiss schema.Props
	_ = schema.DecodeProps([]byte(`{
		"x-kubernetes-int-or-string": true,
		"anyOf": [{"type": "integer", "format": "int32"}, {"type": "string"}]
	}`), &nearMiss)
	fmt.Println("near-miss is a pattern:", intorstring.IsAnyOfPattern(&nearMiss))

	fmt.Println(intorstring.IsValue(int64(8080)), intorstring.IsValue("http"), intorstring.IsValue(true))

	var flag schema.Props
	_ = schema.DecodeProps([]byte(`{"x-kubernetes-int-or-string": true}`), &flag)
	published, _ := json.Marshal(intorstring.Unfold(&flag))
	fmt.Println(string(published))
	// Output:
	// anyOf pattern: true
	// near-miss is a pattern: false
	// true true false
	// {"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}
}
