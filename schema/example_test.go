package schema_test

import (
	"errors"
	"fmt"

	"github.com/crdschema/crdschema/schema"
)

// Parse reads a schema as kubectl reads a document: YAML 1.1 here, so yes
// is a boolean and 010 an octal integer. The keywords are kept as written.
func ExampleParse() {
	p, err := schema.Parse([]byte(`
type: object
properties:
  replicas: {type: integer, default: 010}
  enabled: {type: boolean, default: yes}
`))
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Type, p.Properties["replicas"].Default.Value, p.Properties["enabled"].Default.Value)

	// An input that cannot be read names the line.
	_, err = schema.Parse([]byte("type: object\nproperties: [\n"))
	var bad *schema.InputError
	fmt.Println(errors.As(err, &bad), bad.Line)
	// Output:
	// object 8 true
	// true 2
}
