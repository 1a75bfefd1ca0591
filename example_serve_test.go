package crdschema_test

import (
	"fmt"

	crdschema "github.com/crdschema/crdschema"
)

// OpenAPI shows what the apiserver publishes for a version: v3 keeps the
// defaults, v2 drops them.
func ExampleCRD_OpenAPI() {
	crd, err := crdschema.LoadCRD([]byte(cronTabCRD))
	if err != nil {
		panic(err)
	}
	v3, v2, err := crd.OpenAPI("v1")
	if err != nil {
		panic(err)
	}
	replicas := func(defs map[string]any) any {
		kind := defs["com.example.stable.v1.CronTab"].(map[string]any)
		spec := kind["properties"].(map[string]any)["spec"].(map[string]any)
		return spec["properties"].(map[string]any)["replicas"]
	}
	fmt.Println("definitions:", len(v3), len(v2))
	fmt.Println("v3:", replicas(v3))
	fmt.Println("v2:", replicas(v2))
	// Output:
	// definitions: 2 2
	// v3: map[default:1 maximum:10 minimum:1 type:integer]
	// v2: map[maximum:10 minimum:1 type:integer]
}
