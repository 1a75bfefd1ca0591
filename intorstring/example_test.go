package intorstring_test

import (
	"fmt"
	"log"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/intorstring"
	"github.com/crdschema/crdschema/structural"
)

func Example() {
	s, err := crdschema.ParseSchema([]byte(`{
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
	props := s.Structural().Properties
	fmt.Println("port is the anyOf pattern:", intorstring.IsAnyOfPattern(props["port"]))
	fmt.Println("nearMiss is the anyOf pattern:", intorstring.IsAnyOfPattern(props["nearMiss"]))
	fmt.Println("bounded is the allOf pattern:", intorstring.IsAllOfPattern(props["bounded"]))
	fmt.Println("port is the allOf pattern:", intorstring.IsAllOfPattern(props["port"]))
	// A node built by hand has no junctors.
	fmt.Println("hand-built:", intorstring.IsAnyOfPattern(&structural.Schema{IntOrString: true}))
	// Output:
	// port is the anyOf pattern: true
	// nearMiss is the anyOf pattern: false
	// bounded is the allOf pattern: true
	// port is the allOf pattern: false
	// hand-built: false
}
