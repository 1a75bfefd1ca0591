package crdschema_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/conversion"
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

// TestReadJSON: ReadJSON on the stored bytes (JSON, YAML, or JSON the
// fast decoder declines) serves what Read serves on the decoded object,
// and refuses bytes that are not one mapping document.
func TestReadJSON(t *testing.T) {
	crd := loadTestCRD(t, cronTabVersions)
	const doc = `{"apiVersion": "stable.example.com/v1beta1", "kind": "CronTab", "metadata": {"name": "c1", "namespace": "default", "bogus": 1},
 "spec": {"cronSpec": "x", "image": "i", "unknown": "\ud83d\ude00", "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": 5}}}}`
	var stored map[string]any
	if err := kjson.Unmarshal([]byte(doc), &stored); err != nil {
		t.Fatal(err)
	}
	want := crd.Read(stored, "v1")
	if len(want.Errors) > 0 || len(want.Pruned) != 3 {
		t.Fatalf("Read: %v, pruned %v", want.Errors, want.Pruned)
	}
	yamlDoc := "apiVersion: stable.example.com/v1beta1\nkind: CronTab\nmetadata: {name: c1, namespace: default, bogus: 1}\nspec: {cronSpec: x, image: i, unknown: \"\U0001F600\", template: {apiVersion: v1, kind: Pod, metadata: {name: 5}}}\n"
	// The fast decoder declines the surrogate pair; without it, it decodes.
	plain := strings.Replace(doc, `\ud83d\ude00`, "x", 1)
	for _, in := range []string{doc, plain, yamlDoc} {
		got, err := crd.ReadJSON(context.Background(), []byte(in), "v1", nil)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ReadJSON(%.30q): %v\n got %+v\nwant %+v", in, err, got, want)
		}
	}
	for _, bad := range []string{`[1]`, `{"a": 1} {"b": 2}`, `{"kind": "CronTabList", "items": [{"a": 1}, {"b": 2}]}`, `{`} {
		if r, err := crd.ReadJSON(context.Background(), []byte(bad), "v1", nil); err == nil {
			t.Errorf("ReadJSON(%q): no error, %+v", bad, r)
		}
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
		// Coercion at the stored version keeps a string metadata of an
		// embedded resource; at the requested version it fails, even
		// when both are the same version (one schema: nothing to prune).
		{"embedded metadata not a mapping", `{apiVersion: stable.example.com/v1beta1, kind: CronTab, metadata: {name: a}, spec: {template: {metadata: delta}}}`, "v1", field.ErrorTypeInvalid, "spec.template.metadata"},
		{"embedded metadata not a mapping, same version", `{apiVersion: stable.example.com/v1beta1, kind: CronTab, metadata: {name: a}, spec: {template: {metadata: delta}}}`, "v1beta1", field.ErrorTypeInvalid, "spec.template.metadata"},
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

// TestReadWithWebhook: a Webhook CRD reads other versions only through a
// converter, whose answer is then pruned with the requested version's
// schema.
func TestReadWithWebhook(t *testing.T) {
	crd := loadTestCRD(t, strings.Replace(cronTabVersions, "  versions:\n", "  conversion:\n    strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1]\n      clientConfig: {url: \"https://example.com/convert\"}\n  versions:\n", 1))
	stored := yamlObject(t, `{apiVersion: stable.example.com/v1beta1, kind: CronTab, metadata: {name: c1, namespace: default}, spec: {cronSpec: x, image: i}}`)
	r := crd.Read(stored, "v1")
	if r.Object != nil || len(r.Errors) != 1 || r.Errors[0].Type != field.ErrorTypeInternal || r.Errors[0].Field != "apiVersion" {
		t.Fatalf("without converter: %v", r.Errors)
	}
	convert := conversion.FromFunc(func(_ context.Context, objects []map[string]any, desired string) ([]any, error) {
		o := objects[0]
		o["apiVersion"] = desired
		spec := o["spec"].(map[string]any)
		spec["suspend"] = true
		spec["image2"] = spec["image"] // unknown to v1: pruned
		return []any{o}, nil
	})
	r = crd.ReadWith(context.Background(), stored, "v1", convert)
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	got, _ := json.Marshal(r.Object)
	want := `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"generation":1,"name":"c1","namespace":"default"},"spec":{"cronSpec":"x","replicas":1,"suspend":true}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if want := []string{"spec.image", "spec.image2"}; !reflect.DeepEqual(r.Pruned, want) {
		t.Errorf("pruned %v, want %v", r.Pruned, want)
	}
}

// TestWrite: a create at v1 is stored at v1beta1, losing what v1beta1
// does not declare; an update of the stored object at v1 likewise.
func TestWrite(t *testing.T) {
	crd := loadTestCRD(t, cronTabVersions)
	obj := yamlObject(t, `{apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: c1, namespace: default}, spec: {cronSpec: x, suspend: true, bogus: 1}}`)
	r := crd.Write(context.Background(), obj, nil, nil)
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	got, _ := json.Marshal(r.Object)
	want := `{"apiVersion":"stable.example.com/v1beta1","kind":"CronTab","metadata":{"name":"c1","namespace":"default"},"spec":{"cronSpec":"x"}}`
	if string(got) != want {
		t.Errorf("create: got  %s\nwant %s", got, want)
	}
	if want := []string{"spec.bogus", "spec.suspend"}; !reflect.DeepEqual(r.Pruned, want) {
		t.Errorf("create: pruned %v, want %v", r.Pruned, want)
	}
	if r.Deprecation == "" {
		t.Errorf("create at deprecated v1: no warning")
	}
	stored := r.Object
	upd := yamlObject(t, `{apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: c1, namespace: default}, spec: {cronSpec: z}}`)
	r = crd.Write(context.Background(), upd, stored, nil)
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	got, _ = json.Marshal(r.Object)
	want = `{"apiVersion":"stable.example.com/v1beta1","kind":"CronTab","metadata":{"name":"c1","namespace":"default"},"spec":{"cronSpec":"z"}}`
	if string(got) != want {
		t.Errorf("update: got  %s\nwant %s", got, want)
	}
	r = crd.Write(context.Background(), yamlObject(t, `{apiVersion: stable.example.com/v2, kind: CronTab, metadata: {name: c1}}`), nil, nil)
	if len(r.Errors) != 1 || r.Errors[0].Field != "apiVersion" {
		t.Errorf("not served: %v", r.Errors)
	}
}

// BenchmarkRead reads a stored CronTab at the other version (the storage
// read path: prune, coerce, default, convert, prune).
func BenchmarkRead(b *testing.B) {
	crd, err := crdschema.LoadCRD([]byte(cronTabVersions))
	if err != nil {
		b.Fatal(err)
	}
	var stored map[string]any
	if err := yaml.Unmarshal([]byte(`
apiVersion: stable.example.com/v1beta1
kind: CronTab
metadata: {name: c1, namespace: default, creationTimestamp: "2026-11-20T10:00:00Z", generation: 3, labels: {app: cron}}
spec: {cronSpec: "* * * * */5", image: my-image, replicas: 2, template: {apiVersion: v1, kind: Pod, metadata: {name: p}}}
status: {replicas: 2, labelSelector: app=cron}
`), &stored); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if r := crd.Read(stored, "v1"); r.Object == nil {
			b.Fatal(r.Errors)
		}
	}
}

// TestRoundTrip: a CronTab created at v1beta1 (storage), read at v1,
// written back at v1 and read at v1beta1 loses image (v1 does not declare
// it): the write at v1 prunes nothing, the read at v1 did.
func TestRoundTrip(t *testing.T) {
	crd := loadTestCRD(t, cronTabVersions)
	obj := yamlObject(t, `{apiVersion: stable.example.com/v1beta1, kind: CronTab, metadata: {name: c1, namespace: default}, spec: {cronSpec: x, image: nginx, replicas: 3}}`)
	losses, errs := crd.RoundTrip(context.Background(), obj, "v1", nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []crdschema.Loss{{Path: "spec.image", Step: "read at v1"}}
	if !reflect.DeepEqual(losses, want) {
		t.Errorf("got %+v, want %+v", losses, want)
	}
	losses, errs = crd.RoundTrip(context.Background(), obj, "v2", nil)
	if len(errs) != 1 || errs[0].Field != "apiVersion" || !strings.HasPrefix(errs[0].Detail, "read at v2: ") || losses != nil {
		t.Errorf("not served: %v %v", losses, errs)
	}
}
