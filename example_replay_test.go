package crdschema_test

import (
	"context"
	"fmt"
	"strings"

	crdschema "github.com/crdschema/crdschema"
)

// Replay shows what a new revision of the CronTab CRD does to an object
// the cluster already stores: the new revision drops spec.image, so every
// read loses it; it caps replicas at 3, which the next write of the
// unchanged object survives (ratcheting) but a fresh create does not.
func ExampleCRD_Replay() {
	old, err := crdschema.LoadCRD([]byte(cronTabCRD))
	if err != nil {
		panic(err)
	}
	next, err := crdschema.LoadCRD([]byte(strings.NewReplacer(
		"              image: {type: string}\n", "",
		"maximum: 10", "maximum: 3",
	).Replace(cronTabCRD)))
	if err != nil {
		panic(err)
	}
	stored := map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "nightly", "namespace": "default", "resourceVersion": "7"},
		"spec":     map[string]any{"cronSpec": "0 2 * * *", "image": "backup:1", "replicas": 5},
	}
	r := next.Replay(context.Background(), old, stored, nil)
	for _, l := range r.Losses {
		fmt.Println("lost on", l.Step+":", l.Path)
	}
	fmt.Println("next write:", r.Update)
	fmt.Println("create:", r.Create)
	fmt.Println("create under the old revision:", r.OldCreate)
	// Output:
	// lost on read at v1: spec.image
	// next write: []
	// create: [spec.replicas: Invalid value: 5: spec.replicas in body should be less than or equal to 3]
	// create under the old revision: []
}
