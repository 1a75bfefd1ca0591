package crdschema_test

import (
	"fmt"
	"strings"

	crdschema "github.com/crdschema/crdschema"
)

// Changes classifies every change of a new revision by what the apiserver
// does: the tightened maximum is ratcheted (stored CronTabs with more
// replicas still update), the removed field is lost from every stored
// object on its next read. The probe for the new maxLength is a cron
// schedule the old pattern accepts, 21 bytes long.
func ExampleCRD_Changes() {
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
	for _, c := range next.Changes(stored) {
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
