package revision_test

import (
	"context"
	"fmt"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/revision"
)

// The storage-version migration of a CRD whose storage version moved from
// v1beta1 to v1 (the new version no longer declares spec.color and limits
// spec.replicas with a rule): each stored object is read at the preferred
// version and written back unchanged, as kube-storage-version-migrator
// does. status.storedVersions may drop v1beta1 only once every object is
// migrated.
func ExampleMigrate() {
	crd, err := crdschema.LoadCRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties: {replicas: {type: integer}, color: {type: string}}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations: [{rule: "self.replicas <= 5"}]
            properties: {replicas: {type: integer}, paused: {type: boolean, default: false}}
`))
	if err != nil {
		panic(err)
	}
	stored := func(name string, spec map[string]any) map[string]any {
		return map[string]any{"apiVersion": "example.com/v1beta1", "kind": "Widget",
			"metadata": map[string]any{"name": name, "namespace": "default"}, "spec": spec}
	}
	ready := true
	for _, obj := range []map[string]any{
		stored("small", map[string]any{"replicas": 2}),
		stored("blue", map[string]any{"replicas": 2, "color": "blue"}),
		stored("big", map[string]any{"replicas": 9}),
	} {
		m := revision.Migrate(context.Background(), nil, crd, obj)
		switch {
		case m.Migrated == nil:
			ready = false
			fmt.Printf("%s: fails: %v\n", obj["metadata"].(map[string]any)["name"], m.Update.ToAggregate())
		case len(m.Losses) > 0:
			fmt.Printf("%s: stored at %s, loses %s (%s)\n", obj["metadata"].(map[string]any)["name"], m.Migrated["apiVersion"], m.Losses[0].Path, m.Losses[0].Step)
		default:
			fmt.Printf("%s: stored at %s with spec %v\n", obj["metadata"].(map[string]any)["name"], m.Migrated["apiVersion"], m.Migrated["spec"])
		}
	}
	if ready {
		fmt.Printf(`patch: {"status":{"storedVersions":["%s"]}}`+"\n", crd.StorageVersion())
	} else {
		fmt.Println("storedVersions must keep v1beta1")
	}
	// Output:
	// small: stored at example.com/v1 with spec map[paused:false replicas:2]
	// blue: stored at example.com/v1, loses spec.color (read at v1beta1)
	// big: fails: spec: Invalid value: failed rule: self.replicas <= 5
	// storedVersions must keep v1beta1
}
