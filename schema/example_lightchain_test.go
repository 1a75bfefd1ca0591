package schema_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// The light chain from a CRD file, without the module root and its CEL:
// the schema of one version, its structural model and rules 1–4, then an
// object pruned, defaulted and validated as the apiserver does on create
// (metadata coercion and validation are package embedded's; the
// x-kubernetes-validations rules need the root).
func ExampleDocument_VersionSchema() {
	data, err := os.ReadFile("../testdata/examples/crds/crontab-crd.yaml")
	if err != nil {
		panic(err)
	}
	docs, err := schema.ReadDocuments("crontab-crd.yaml", data)
	if err != nil {
		panic(err)
	}
	p, err := docs[0].VersionSchema("v1")
	if err != nil {
		panic(err)
	}

	// Rules 1–4: the apiserver rejects a CRD whose schema breaks them.
	s, err := structural.New(p)
	if err != nil {
		panic(err)
	}
	fmt.Println("rules 1-4:", structural.Validate(nil, s))

	obj := map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "my-cron"},
		"spec":     map[string]any{"image": "my-cron-image", "replicas": int64(20), "color": "blue", "cronSpec": nil},
	}
	show := func(step string) {
		b, _ := json.Marshal(obj["spec"])
		fmt.Printf("%s: spec %s\n", step, b)
	}
	show("request")

	// Prune unknown fields and drop the nulls of non-nullable fields
	// without default, reporting what was pruned as the apiserver warns.
	fmt.Println("pruned:", prune.Prune(obj, s, prune.Options{ResourceRoot: true, ReturnPaths: true, DropNulls: true}))
	show("pruned")

	// Default, with the schema the apiserver defaults with (its defaults
	// pruned as the objects are).
	defaulting.DropNullsAndDefault(obj, defaulting.PruneDefaults(s, nil))
	show("defaulted")

	// Validate the values.
	for _, e := range validation.New(s).Validate(obj) {
		fmt.Println("invalid:", e)
	}
	// Output:
	// rules 1-4: []
	// request: spec {"color":"blue","cronSpec":null,"image":"my-cron-image","replicas":20}
	// pruned: [spec.color]
	// pruned: spec {"cronSpec":null,"image":"my-cron-image","replicas":20}
	// defaulted: spec {"cronSpec":"5 0 * * *","image":"my-cron-image","replicas":20}
	// invalid: spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10
}
