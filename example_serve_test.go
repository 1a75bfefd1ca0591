package crdschema_test

import (
	"fmt"
	"time"

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

// Columns shows the row `kubectl get` prints for a stored object: the
// Name column and, as the version declares no printer columns, the
// default Age column, counted to the given clock.
func ExampleCRD_Columns() {
	crd, err := crdschema.LoadCRD([]byte(cronTabCRD))
	if err != nil {
		panic(err)
	}
	stored := map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": "nightly", "creationTimestamp": "2026-11-20T10:00:00Z"},
		"spec":       map[string]any{"image": "backup"},
	}
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	columns, cells, errs := crd.Columns(stored, now)
	for i, c := range columns {
		fmt.Printf("%s (%s): %v\n", c.Name, c.Type, cells[i])
	}
	fmt.Println("errors:", len(errs))
	// Output:
	// Name (string): nightly
	// Age (date): 4d14h
	// errors: 0
}

// Scale shows that a version without the scale subresource has no
// /scale endpoint.
func ExampleCRD_Scale() {
	crd, err := crdschema.LoadCRD([]byte(cronTabCRD))
	if err != nil {
		panic(err)
	}
	_, errs := crd.Scale(map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": "nightly"},
	})
	fmt.Println(errs)
	// Output:
	// [: Not found: version v1 of CustomResourceDefinition "crontabs.stable.example.com" has no scale subresource]
}
