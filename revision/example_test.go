package revision_test

import (
	"context"
	"fmt"
	"strings"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/revision"
)

// cronTabCRD is the CronTab CRD of the Kubernetes documentation, the one
// the root package's examples use too.
const cronTabCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec:
                type: string
                pattern: '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'
                default: "5 0 * * *"
              image: {type: string}
              replicas: {type: integer, minimum: 1, maximum: 10, default: 1}
`

// Changes classifies every change of a new revision by what the apiserver
// does: the tightened maximum is ratcheted (stored CronTabs with more
// replicas still update), the removed field is lost from every stored
// object on its next read. The probe for the new maxLength is a cron
// schedule the old pattern accepts, 21 bytes long.
func ExampleChanges() {
	stored, err := crdschema.LoadCRD([]byte(cronTabCRD))
	if err != nil {
		panic(err)
	}
	next, err := crdschema.LoadCRD([]byte(strings.NewReplacer(
		"maximum: 10, default: 1", "maximum: 5, default: 1",
		"              image: {type: string}\n", "",
		"                default: \"5 0 * * *\"\n", "                default: \"5 0 * * *\"\n                maxLength: 20\n",
	).Replace(cronTabCRD)))
	if err != nil {
		panic(err)
	}
	for _, c := range revision.Changes(stored, next) {
		fmt.Printf("%s %s %s: %s\n  %s\n", c.Version, c.Path, c.Kind, c.Class, c.Detail)
	}
	// Output:
	// v1 spec.cronSpec bounds-tightened: ratcheted
	//   maxLength 20 added; a create with the old value fails (spec.cronSpec: Too long: may not be more than 20 bytes); an update of the unchanged stored object is accepted (ratcheting)
	// v1 spec.image field-removed: data-loss
	//   field image removed; a read at v1 of an object stored under the old revision drops spec.image
	// v1 spec.replicas bounds-tightened: ratcheted
	//   maximum 10 → 5; a create with the old value fails (spec.replicas: Invalid value: 6: spec.replicas in body should be less than or equal to 5); an update of the unchanged stored object is accepted (ratcheting)
}

// Replay shows what a new revision of the CronTab CRD does to an object
// the cluster already stores: the new revision drops spec.image, so every
// read loses it; it caps replicas at 3, which the next write of the
// unchanged object survives (ratcheting) but a fresh create does not.
func ExampleReplay() {
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
	r := revision.Replay(context.Background(), old, next, stored)
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

// gadgetVersions has two versions; only v1 declares spec.color.
const gadgetVersions = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size, color]
            properties:
              size: {type: integer, minimum: 1, maximum: 9}
              color: {type: string, enum: [red, blue]}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
`

// A go test of a CRD's versions: what does a round trip lose?
func ExampleRoundTrips() {
	crd, _ := crdschema.LoadCRD([]byte(gadgetVersions))
	trips, _ := revision.RoundTrips(context.Background(), crd, 1, 1)
	for _, t := range trips {
		for _, l := range t.Losses {
			fmt.Println(t.From, "->", t.To, l.Path, "lost at:", l.Step)
		}
	}
	// Output: v1 -> v2 spec.color lost at: read at v2
}
