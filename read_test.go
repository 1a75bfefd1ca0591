package crdschema_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	crdschema "github.com/crdschema/crdschema"
)

// cronTabVersions is the CronTab of the Kubernetes docs with two versions
// whose schemas and defaults differ: v1beta1 (storage, defaults replicas)
// and v1 (served, deprecated by a v2 that is not served, defaults suspend).
const cronTabVersions = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab, listKind: CronTabList}
  versions:
  - name: v1beta1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              image: {type: string}
              replicas: {type: integer, default: 1}
              template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              replicas: {type: integer}
              labelSelector: {type: string}
  - name: v1
    served: true
    storage: false
    deprecated: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec: {type: string}
              replicas: {type: integer}
              suspend: {type: boolean, default: false}
              template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            x-kubernetes-preserve-unknown-fields: true
  - name: v2
    served: false
    storage: false
    schema:
      openAPIV3Schema: {type: object}
`

func loadTestCRD(t *testing.T, doc string) *crdschema.CRD {
	t.Helper()
	crd, err := crdschema.LoadCRD([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if errs := crd.Errors(); len(errs) > 0 {
		t.Fatalf("CRD rejected: %v", errs)
	}
	return crd
}

func yamlObject(t *testing.T, doc string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestReadAtAnotherVersion pins the storage read path: the stored
// version's pruning and defaults, then the requested version's pruning,
// without its defaults; metadata coerced, generation repaired.
func TestReadAtAnotherVersion(t *testing.T) {
	crd := loadTestCRD(t, cronTabVersions)
	stored := yamlObject(t, `
apiVersion: stable.example.com/v1beta1
kind: CronTab
metadata: {name: c1, namespace: default, bogus: 1, creationTimestamp: "2026-11-20T10:00:00Z", generation: 0}
spec: {cronSpec: "* * * * */5", image: my-image, unknown: x}
status: {replicas: 2, labelSelector: app=cron}
`)
	before, _ := json.Marshal(stored)
	r := crd.Read(stored, "v1")
	after, _ := json.Marshal(stored)
	if string(before) != string(after) {
		t.Errorf("Read changed its input")
	}
	want := yamlObject(t, `
apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: c1, namespace: default, creationTimestamp: "2026-11-20T10:00:00Z", generation: 1}
spec: {cronSpec: "* * * * */5", replicas: 1}
status: {replicas: 2, labelSelector: app=cron}
`)
	if len(r.Errors) > 0 {
		t.Fatalf("errors: %v", r.Errors)
	}
	got, _ := json.Marshal(r.Object)
	wantJSON, _ := json.Marshal(want)
	if string(got) != string(wantJSON) {
		t.Errorf("object\n got %s\nwant %s", got, wantJSON)
	}
	if want := []string{"metadata.bogus", "spec.image", "spec.unknown"}; !reflect.DeepEqual(r.Pruned, want) {
		t.Errorf("pruned %v, want %v", r.Pruned, want)
	}
	if want := "stable.example.com/v1 CronTab is deprecated"; r.Deprecation != want {
		t.Errorf("deprecation %q, want %q", r.Deprecation, want)
	}
}

// TestReadErrors pins the errors of a read that cannot be served.
func TestReadErrors(t *testing.T) {
	crd := loadTestCRD(t, cronTabVersions)
	cases := []struct {
		name, obj, version string
		typ                field.ErrorType
		field              string
	}{
		{"not served", `{apiVersion: stable.example.com/v1beta1, kind: CronTab, metadata: {name: a}}`, "v2", field.ErrorTypeNotFound, "apiVersion"},
		{"not defined", `{apiVersion: stable.example.com/v9, kind: CronTab, metadata: {name: a}}`, "v1", field.ErrorTypeNotFound, "apiVersion"},
		{"other group", `{apiVersion: stable.example.com/v1beta1, kind: CronTab, metadata: {name: a}}`, "other.example.com/v1", field.ErrorTypeNotFound, "apiVersion"},
		{"other kind", `{apiVersion: stable.example.com/v1beta1, kind: Other, metadata: {name: a}}`, "v1", field.ErrorTypeNotFound, "kind"},
		{"no metadata", `{apiVersion: stable.example.com/v1beta1, kind: CronTab}`, "v1", field.ErrorTypeInternal, "metadata"},
		{"metadata not a mapping", `{apiVersion: stable.example.com/v1beta1, kind: CronTab, metadata: [1]}`, "v1", field.ErrorTypeInvalid, "metadata"},
		{"malformed embedded resource", `{apiVersion: stable.example.com/v1beta1, kind: CronTab, metadata: {name: a}, spec: {template: {kind: 1}}}`, "v1", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := crd.Read(yamlObject(t, c.obj), c.version)
			if c.typ == "" {
				// Coercion at the stored version drops it: no error.
				if len(r.Errors) > 0 || r.Object == nil {
					t.Fatalf("got %v", r.Errors)
				}
				return
			}
			if r.Object != nil || len(r.Errors) != 1 || r.Errors[0].Type != c.typ || r.Errors[0].Field != c.field {
				t.Fatalf("got object %v, errors %v; want one %s at %s", r.Object, r.Errors, c.typ, c.field)
			}
		})
	}
}
