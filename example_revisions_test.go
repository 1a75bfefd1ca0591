package crdschema_test

import (
	"fmt"
	"strings"

	crdschema "github.com/crdschema/crdschema"
)

// Warnings are what `kubectl create` prints after "Warning: " for a CRD
// the apiserver accepts: here a format it does not know.
func ExampleCRD_Warnings() {
	crd, err := crdschema.LoadCRD([]byte(strings.Replace(cronTabCRD, "image: {type: string}", "image: {type: string, format: docker-image}", 1)))
	if err != nil {
		panic(err)
	}
	fmt.Println(crd.Warnings())
	// Output: [unrecognized format "docker-image"]
}

// CheckUpdate validates a new revision of a CRD as an update of the one
// the cluster stores: scope is immutable, and the stored version v1 must
// stay in spec.versions.
func ExampleCheckUpdate() {
	stored, err := crdschema.LoadCRD([]byte(cronTabCRD))
	if err != nil {
		panic(err)
	}
	next, err := crdschema.LoadCRD([]byte(strings.NewReplacer("scope: Namespaced", "scope: Cluster", "name: v1", "name: v2").Replace(cronTabCRD)))
	if err != nil {
		panic(err)
	}
	fmt.Println("as a create:", len(next.Errors()), "errors")
	errs, warnings := crdschema.CheckUpdate(stored, next)
	for _, e := range errs {
		fmt.Println(e)
	}
	fmt.Println(len(warnings), "warnings")
	// Output:
	// as a create: 0 errors
	// spec.scope: Invalid value: "Cluster": field is immutable
	// status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions
	// 0 warnings
}
