package crdschema_test

import (
	"context"
	"fmt"

	crdschema "github.com/crdschema/crdschema"
)

// Read serves a stored object at another version as the apiserver does: a
// CronTab stored at v1beta1, read at v1. The stored version's default
// (replicas) is applied, the requested version's (suspend) is not; image,
// which v1 does not declare, is lost on the way; the generation the object
// lacks is repaired; v1 is deprecated, which the request is warned about (a read is not warned about pruned
// fields: Result.Deprecation is its only warning).
func ExampleCRD_Read() {
	crd, err := crdschema.LoadCRD([]byte(cronTabVersions))
	if err != nil {
		panic(err)
	}
	r := crd.Read(context.Background(), map[string]any{
		"apiVersion": "stable.example.com/v1beta1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": "nightly", "namespace": "default"},
		"spec":       map[string]any{"cronSpec": "0 3 * * *", "image": "backup"},
	}, "v1")
	fmt.Println(r.Object["apiVersion"], r.Object["metadata"], r.Object["spec"])
	fmt.Println("pruned:", r.Pruned)
	fmt.Println("warning:", r.Deprecation)
	// Output:
	// stable.example.com/v1 map[generation:1 name:nightly namespace:default] map[cronSpec:0 3 * * * replicas:1]
	// pruned: [spec.image]
	// warning: stable.example.com/v1 CronTab is deprecated
}

// ReadJSON reads an object from the bytes it is stored as (as an etcd
// read does), without the copy Read makes of a map it must not change.
func ExampleCRD_ReadJSON() {
	crd, err := crdschema.LoadCRD([]byte(cronTabVersions))
	if err != nil {
		panic(err)
	}
	stored := []byte(`{"apiVersion":"stable.example.com/v1beta1","kind":"CronTab",
		"metadata":{"name":"nightly","namespace":"default","generation":4},
		"spec":{"cronSpec":"0 3 * * *","image":"backup","replicas":2}}`)
	r, err := crd.ReadJSON(context.Background(), stored, "v1")
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Object["apiVersion"], r.Object["spec"], r.Pruned)
	// Output:
	// stable.example.com/v1 map[cronSpec:0 3 * * * replicas:2] [spec.image]
}
