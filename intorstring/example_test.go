package intorstring_test

import (
	"fmt"
	"log"

	"github.com/crdschema/crdschema/intorstring"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

func Example() {
	p, err := schema.Parse([]byte(`{
		"type": "object",
		"properties": {
			"port": {
				"x-kubernetes-int-or-string": true,
				"anyOf": [{"type": "integer"}, {"type": "string"}]
			},
			"nearMiss": {
				"x-kubernetes-int-or-string": true,
				"anyOf": [{"type": "integer", "format": "int32"}, {"type": "string"}]
			},
			"bounded": {
				"x-kubernetes-int-or-string": true,
				"allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}, {"maxLength": 5}]
			}
		}
	}`))
	if err != nil {
		log.Fatal(err)
	}
	props := p.Properties // the schema as written
	fmt.Println("port is the anyOf pattern:", intorstring.IsAnyOfPattern(props["port"]))
	fmt.Println("nearMiss is the anyOf pattern:", intorstring.IsAnyOfPattern(props["nearMiss"]))
	fmt.Println("bounded is the allOf pattern:", intorstring.IsAllOfPattern(props["bounded"]))
	fmt.Println("port is the allOf pattern:", intorstring.IsAllOfPattern(props["port"]))
	// A structural node is read through the node it was built from.
	s, err := structural.New(p)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("structural port:", intorstring.IsAnyOfPattern(s.Properties["port"].Source))
	// Output:
	// port is the anyOf pattern: true
	// nearMiss is the anyOf pattern: false
	// bounded is the allOf pattern: true
	// port is the allOf pattern: false
	// structural port: true
}
