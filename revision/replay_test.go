package revision

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/conversion"
)

// widgetCRD is the old revision the replay tests edit: v1 (storage) and
// v1beta1, both served, with the status subresource and the same schema
// (widgetVersionBody; an edit of it applies to both versions).
const widgetCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
` + widgetVersionBody + `  - name: v1beta1
    served: true
    storage: false
` + widgetVersionBody

// widgetVersionBody is the subresources and schema of both versions of
// widgetCRD.
const widgetVersionBody = `    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              name: {type: string}
              size: {type: integer}
              note: {type: string}
              tags: {type: array, items: {type: string}}
              ports:
                type: array
                items: {type: object, properties: {name: {type: string}, port: {type: integer}}}
          status:
            type: object
            properties:
              phase: {type: string}
`

// widget is a stored Widget as a dump shows it.
func widget(version string, spec map[string]any) map[string]any {
	return map[string]any{
		"apiVersion": "example.com/" + version, "kind": "Widget",
		"metadata": map[string]any{
			"name": "w", "namespace": "default", "uid": "0b7e5c1a-0000-4000-8000-000000000001",
			"resourceVersion": "42", "generation": int64(3), "creationTimestamp": "2026-01-02T03:04:05Z",
		},
		"spec":   spec,
		"status": map[string]any{"phase": "Ready"},
	}
}

func loadWidget(t *testing.T, edits ...string) *crdschema.CRD {
	t.Helper()
	doc := widgetCRD
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(doc, edits[i]) {
			t.Fatalf("edit %q does not apply", edits[i])
		}
		doc = strings.ReplaceAll(doc, edits[i], edits[i+1])
	}
	c, err := crdschema.LoadCRD([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func dumpReplay(r Effect) string {
	var b strings.Builder
	for _, l := range r.Losses {
		fmt.Fprintf(&b, "loss %s %s changed=%t\n", l.Step, l.Path, l.Changed)
	}
	for _, l := range []struct {
		name string
		errs field.ErrorList
	}{{"update", r.Update}, {"create", r.Create}, {"old update", r.OldUpdate}, {"old create", r.OldCreate}, {"not checked", r.NotChecked}, {"error", r.Errors}} {
		for _, e := range l.errs {
			fmt.Fprintf(&b, "%s: %s\n", l.name, e)
		}
	}
	return b.String()
}

// replayCase is a new revision (edits of widgetCRD), an object stored
// under widgetCRD and what the replay reports (dumpReplay).
type replayCase struct {
	name  string
	edits []string
	obj   map[string]any
	want  string
}

// dropNote is the edit of widgetCRD that removes spec.note from both
// versions.
var dropNote = []string{"              note: {type: string}\n", ""}

// noteLost is the replay of an object with spec.note by a revision
// without it: lost at both reads.
const noteLost = "loss read at v1 spec.note changed=false\nloss read at v1beta1 spec.note changed=false\n"

const (
	portsAtomic = "                type: array\n                items: {type: object, properties: {name: {type: string}, port: {type: integer}}}"
	portsMap    = "                type: array\n                x-kubernetes-list-type: map\n                x-kubernetes-list-map-keys: [name]\n                items: {type: object, required: [name], properties: {name: {type: string}, port: {type: integer, maximum: 1}}}"
)

var replayCases = []replayCase{
	{name: "same revision", obj: widget("v1", map[string]any{"name": "abcdef", "note": "x"})},
	{
		name:  "field removed: lost at every read",
		edits: dropNote,
		obj:   widget("v1", map[string]any{"name": "abcdef", "note": "x"}),
		want:  noteLost,
	},
	{
		// The storage version loses it; v1beta1 still declares it, but
		// reads the object stored at v1 through the pruning of v1.
		name:  "field removed from the storage version only",
		edits: []string{"  - name: v1\n    served: true\n    storage: true\n    subresources: {status: {}}\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              name: {type: string}\n              size: {type: integer}\n              note: {type: string}\n", "  - name: v1\n    served: true\n    storage: true\n    subresources: {status: {}}\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              name: {type: string}\n              size: {type: integer}\n"},
		obj:   widget("v1beta1", map[string]any{"note": "x"}),
		want:  noteLost,
	},
	{
		name:  "maxLength tightened: ratcheted on update, not on create",
		edits: []string{"name: {type: string}", "name: {type: string, maxLength: 3}"},
		obj:   widget("v1", map[string]any{"name": "abcdef"}),
		want:  "create: spec.name: Too long: may not be more than 3 bytes\n",
	},
	{
		name:  "required added: ratcheted",
		edits: []string{"            properties:\n              name: {type: string}", "            required: [name]\n            properties:\n              name: {type: string}"},
		obj:   widget("v1", map[string]any{"size": int64(1)}),
		want:  "create: spec.name: Required value\n",
	},
	{
		name:  "CEL rule added: ratcheted",
		edits: []string{"              size: {type: integer}\n", "              size: {type: integer, x-kubernetes-validations: [{rule: 'self <= 5'}]}\n"},
		obj:   widget("v1", map[string]any{"size": int64(9)}),
		want:  "create: spec.size: Invalid value: 9: failed rule: self <= 5\n",
	},
	{
		// A transition rule is not ratcheted, and not run on a create.
		name:  "CEL transition rule added: the next write fails",
		edits: []string{"              size: {type: integer}\n", "              size: {type: integer, x-kubernetes-validations: [{rule: 'self != oldSelf'}]}\n"},
		obj:   widget("v1", map[string]any{"size": int64(9)}),
		want:  "update: spec.size: Invalid value: 9: failed rule: self != oldSelf\n",
	},
	{
		name:  "items of an atomic list tightened: ratcheted",
		edits: []string{"tags: {type: array, items: {type: string}}", "tags: {type: array, items: {type: string, maxLength: 1}}"},
		obj:   widget("v1", map[string]any{"tags": []any{"abc"}}),
		want:  "create: spec.tags[0]: Too long: may not be more than 1 byte\n",
	},
	{
		// Uniqueness is checked only when the stored list was valid.
		name:  "list type set on a list with duplicates: ratcheted",
		edits: []string{"tags: {type: array, items: {type: string}}", "tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}"},
		obj:   widget("v1", map[string]any{"tags": []any{"a", "a"}}),
		want:  "create: spec.tags[1]: Duplicate value: \"a\"\n",
	},
	{
		// An item without the new key cannot be correlated with the
		// stored one: its new errors are not ratcheted (KEP-4008), those
		// of keyed items are.
		name:  "list type map with a required key: unkeyed item not ratcheted",
		edits: []string{portsAtomic, portsMap},
		obj:   widget("v1", map[string]any{"ports": []any{map[string]any{"port": int64(1)}, map[string]any{"name": "a", "port": int64(2)}}}),
		want:  "update: spec.ports[0].name: Required value\ncreate: spec.ports[0].name: Required value\ncreate: spec.ports[1].port: Invalid value: 2: spec.ports[1].port in body should be less than or equal to 1\n",
	},
	{
		name:  "version unserved: the next write moves to the storage version, a create fails",
		edits: []string{"  - name: v1beta1\n    served: true", "  - name: v1beta1\n    served: false"},
		obj:   widget("v1beta1", map[string]any{"name": "abc"}),
		want:  "create: apiVersion: Not found: CustomResourceDefinition \"widgets.example.com\" does not serve version \"v1beta1\" (serves v1)\n",
	},
	{
		// The new revision renames the storage version: no read works (the
		// apiserver also rejects the CRD update, see crdschema.CheckUpdate).
		name:  "storage version removed",
		edits: []string{"  - name: v1\n", "  - name: v1alpha1\n"},
		obj:   widget("v1", map[string]any{"name": "abc"}),
		want: "update: apiVersion: Not found: read at v1alpha1: no matches for kind \"Widget\" in version \"example.com/v1\": CustomResourceDefinition \"widgets.example.com\" does not define version \"v1\"\n" +
			"update: apiVersion: Not found: read at v1beta1: no matches for kind \"Widget\" in version \"example.com/v1\": CustomResourceDefinition \"widgets.example.com\" does not define version \"v1\"\n" +
			"create: apiVersion: Not found: no matches for kind \"Widget\" in version \"example.com/v1\": CustomResourceDefinition \"widgets.example.com\" does not define version \"v1\"\n",
	},
	{
		name: "another kind",
		obj:  map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": map[string]any{"name": "g"}},
		want: "error: kind: Not found: the old revision of CustomResourceDefinition \"widgets.example.com\" defines kind \"Widget\", not \"Gadget\"\n",
	},
	{
		name: "a version the old revision does not define",
		obj:  widget("v2", nil),
		want: "error: apiVersion: Not found: the old revision of CustomResourceDefinition \"widgets.example.com\" does not define version \"v2\", so the object cannot be stored under it\n",
	},
}

func TestReplay(t *testing.T) {
	old := loadWidget(t)
	for _, tc := range replayCases {
		t.Run(tc.name, func(t *testing.T) {
			c := loadWidget(t, tc.edits...)
			before := fmt.Sprint(tc.obj)
			r := Replay(context.Background(), old, c, tc.obj)
			if got := dumpReplay(r); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if fmt.Sprint(tc.obj) != before {
				t.Errorf("the object was changed: %v", tc.obj)
			}
			if len(r.Errors) == 0 && r.Stored == nil {
				t.Errorf("no stored object")
			}
		})
	}
}

// The stored object is the input converted to the old storage version:
// apiVersion changes, unknown fields are pruned, nothing is validated and
// server-set metadata and status stay.
func TestReplayStored(t *testing.T) {
	old := loadWidget(t)
	obj := widget("v1beta1", map[string]any{"name": "abc", "bogus": true})
	r := Replay(context.Background(), old, loadWidget(t), obj)
	want := widget("v1", map[string]any{"name": "abc"})
	if !reflect.DeepEqual(r.Stored, want) {
		t.Errorf("stored %v, want %v", r.Stored, want)
	}
	if r.Losses != nil || r.Update != nil || r.Create != nil || r.OldUpdate != nil || r.OldCreate != nil {
		t.Errorf("the same revision finds something:\n%s", dumpReplay(r))
	}
}

// A Webhook strategy converts through the converter: the stored object is
// converted to v1 by it, and each read at v1beta1 calls it again.
func TestReplayWebhook(t *testing.T) {
	webhook := []string{"  names: {plural: widgets, singular: widget, kind: Widget}\n", "  names: {plural: widgets, singular: widget, kind: Widget}\n  conversion:\n    strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1]\n      clientConfig: {url: \"https://conv.example.com/convert\"}\n"}
	old := loadWidget(t, webhook...)
	c := loadWidget(t, append(webhook, dropNote...)...)
	calls := 0
	// v1beta1 calls spec.size spec.count.
	conv := conversion.FromFunc(func(_ context.Context, objects []map[string]any, desired string) ([]any, error) {
		calls++
		from, to := "count", "size"
		if strings.HasSuffix(desired, "v1beta1") {
			from, to = to, from
		}
		out := make([]any, len(objects))
		for i, o := range objects {
			o["apiVersion"] = desired
			if spec, ok := o["spec"].(map[string]any); ok {
				if v, ok := spec[from]; ok {
					spec[to] = v
					delete(spec, from)
				}
			}
			out[i] = o
		}
		return out, nil
	})
	obj := widget("v1beta1", map[string]any{"count": int64(2), "note": "x"})
	r := Replay(context.Background(), old.WithConverter(conv), c.WithConverter(conv), obj)
	if got, want := dumpReplay(r), noteLost; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := r.Stored["spec"]; !reflect.DeepEqual(got, map[string]any{"size": int64(2), "note": "x"}) {
		t.Errorf("stored spec %v", got)
	}
	if calls == 0 {
		t.Error("the converter was not called")
	}
	r = Replay(context.Background(), old, c, obj)
	if got, want := dumpReplay(r), "not checked: apiVersion: Internal error: store under the old revision: converting example.com/v1beta1 to example.com/v1 needs the conversion webhook of CustomResourceDefinition \"widgets.example.com\"\n"; got != want {
		t.Errorf("without a converter: got\n%s\nwant\n%s", got, want)
	}
}

// An old revision the apiserver would reject still stores and reads the
// object (the cluster has some valid revision of it); its own requests
// are refused.
func TestReplayInvalidOld(t *testing.T) {
	old := loadWidget(t, "name: {type: string}", "name: {type: string, default: 5}")
	if len(old.Errors()) == 0 {
		t.Fatal("the old revision is valid")
	}
	c := loadWidget(t, dropNote...)
	r := Replay(context.Background(), old, c, widget("v1", map[string]any{"name": "abc", "note": "x"}))
	if r.Errors != nil || r.Stored == nil {
		t.Fatalf("not replayed: %v", r.Errors)
	}
	if got, want := dumpReplay(Effect{Losses: r.Losses, Update: r.Update, Create: r.Create}), noteLost; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if len(r.OldUpdate) == 0 || len(r.OldCreate) == 0 {
		t.Errorf("the old revision's requests are not refused: %v %v", r.OldUpdate, r.OldCreate)
	}
}

// Bad input is an error, never a panic: no old or new revision, an object
// without kind, one nested too deep, one holding a value with no JSON
// form.
func TestReplayBadInput(t *testing.T) {
	c := loadWidget(t)
	deep := map[string]any{}
	for d, i := deep, 0; i < 20000; i++ {
		n := map[string]any{}
		d["a"] = n
		d = n
	}
	for name, tc := range map[string]struct {
		old *crdschema.CRD
		obj map[string]any
	}{
		"nil old":    {nil, widget("v1", nil)},
		"nil object": {c, nil},
		"no kind":    {c, map[string]any{"apiVersion": "example.com/v1"}},
		"too deep":   {c, map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "spec": deep}},
		"no JSON":    {c, map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "spec": map[string]any{"c": make(chan int)}}},
	} {
		r := Replay(context.Background(), tc.old, c, tc.obj)
		if len(r.Errors) != 1 || r.Stored != nil {
			t.Errorf("%s: %+v", name, r)
		}
	}
	if r := Replay(context.Background(), c, nil, widget("v1", nil)); len(r.Errors) != 1 || r.Stored != nil {
		t.Errorf("nil next: %+v", r)
	}
}

// FuzzReplay replays arbitrary objects between two revisions made of
// arbitrary schemas: it must never panic, must leave its input alone, and
// fills either Errors or Stored.
func FuzzReplay(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"},"n":{"type":"integer"}}}}}`),
		[]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{"n":{"type":"integer","maximum":3,"x-kubernetes-validations":[{"rule":"self != oldSelf"}]}}}}}`),
		[]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","resourceVersion":"1"},"spec":{"a":"x","n":5}}`))
	f.Fuzz(func(t *testing.T, oldSchema, newSchema, objJSON []byte) {
		crd := func(schema []byte) *crdschema.CRD {
			doc := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.example.com"},` +
				`"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},` +
				`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":` + string(schema) + `}}]}}`
			c, err := crdschema.LoadCRD([]byte(doc))
			if err != nil {
				return nil
			}
			return c
		}
		old, next := crd(oldSchema), crd(newSchema)
		var obj map[string]any
		if old == nil || next == nil || kjson.Unmarshal(objJSON, &obj) != nil {
			return
		}
		before := deepCopyMap(obj)
		r := Replay(context.Background(), old, next, obj)
		if (len(r.Errors) > 0) == (r.Stored != nil) {
			t.Fatalf("errors %v with stored %v", r.Errors, r.Stored)
		}
		if !reflect.DeepEqual(obj, before) {
			t.Fatalf("input changed: %v, was %v", obj, before)
		}
	})
}

// The replay compares what the next write stores, read back: a new
// storage version without spec.note keeps it on every read of the object
// stored at v1, and drops it once the object is written back (issue 30:
// the replay compared the reads before the write it simulates).
func TestReplayWrittenBack(t *testing.T) {
	old := loadWidget(t)
	flipped := strings.Replace(widgetCRD, "    storage: true\n", "    storage: false\n", 1)
	flipped = strings.Replace(flipped, "    storage: false\n"+widgetVersionBody+"  - name: v1beta1\n    served: true\n    storage: false\n"+widgetVersionBody,
		"    storage: false\n"+widgetVersionBody+"  - name: v1beta1\n    served: true\n    storage: true\n"+strings.Replace(widgetVersionBody, "              note: {type: string}\n", "", 1), 1)
	next, err := crdschema.LoadCRD([]byte(flipped))
	if err != nil {
		t.Fatal(err)
	}
	if next.StorageVersion() != "v1beta1" {
		t.Fatalf("storage version %s", next.StorageVersion())
	}
	r := Replay(context.Background(), old, next, widget("v1", map[string]any{"name": "abc", "note": "x"}))
	want := "loss read at v1beta1 spec.note changed=false\nloss written back, read at v1 spec.note changed=false\n"
	if got := dumpReplay(r); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A manifest (no uid, resourceVersion or creationTimestamp) is created
// under the old revision first, so the defaults that create persisted
// stay: a default removed loses nothing on read. The same object from a
// dump is taken as stored, without the default, and loses it.
func TestReplayManifest(t *testing.T) {
	withDefault := []string{"              size: {type: integer}\n", "              size: {type: integer, default: 1}\n"}
	old, next := loadWidget(t, withDefault...), loadWidget(t)
	dump := widget("v1", map[string]any{"name": "abc"})
	manifest := widget("v1", map[string]any{"name": "abc"})
	manifest["metadata"] = map[string]any{"name": "w", "namespace": "default"}
	r := Replay(context.Background(), old, next, manifest)
	if !r.Manifest || dumpReplay(r) != "" {
		t.Errorf("manifest %t:\n%s", r.Manifest, dumpReplay(r))
	}
	if got := r.Stored["spec"]; !reflect.DeepEqual(got, map[string]any{"name": "abc", "size": int64(1)}) {
		t.Errorf("stored spec %v, want the create's default", got)
	}
	r = Replay(context.Background(), old, next, dump)
	if want := "loss read at v1 spec.size changed=false\nloss read at v1beta1 spec.size changed=false\n"; r.Manifest || dumpReplay(r) != want {
		t.Errorf("dump (manifest %t):\n%s\nwant\n%s", r.Manifest, dumpReplay(r), want)
	}
	// A manifest the old revision refuses is taken as stored, as a dump
	// is, and OldCreate says why (it was taken as created, with the
	// refused create's output, while CRD.Write returned an object for a
	// rejected request: found on strimzi 0.51.0 → 1.0.0's examples).
	refused := widget("v1", map[string]any{"name": "abc", "size": "big"})
	refused["metadata"] = map[string]any{"name": "w", "namespace": "default"}
	r = Replay(context.Background(), old, next, refused)
	if r.Manifest || !r.RefusedManifest || len(r.OldCreate) == 0 || !reflect.DeepEqual(r.Stored["spec"], map[string]any{"name": "abc", "size": "big"}) {
		t.Errorf("refused manifest: manifest %t, refused %t, stored spec %v, old create %v", r.Manifest, r.RefusedManifest, r.Stored["spec"], r.OldCreate)
	}
	// A dump the old revision would refuse to create is no refused
	// manifest: a dump is never created.
	dump["spec"] = map[string]any{"name": "abc", "size": "big"}
	if r = Replay(context.Background(), old, next, dump); r.RefusedManifest || r.Manifest || len(r.OldCreate) == 0 {
		t.Errorf("refused dump: manifest %t, refused %t, old create %v", r.Manifest, r.RefusedManifest, r.OldCreate)
	}
	if r = Replay(context.Background(), old, next, manifest); r.RefusedManifest {
		t.Errorf("an accepted manifest is said refused")
	}
}

// A manifest with only metadata.generateName is stored with the name the
// apiserver generates on create, and in the request's namespace, so its
// next write is accepted: it got "metadata.name: Required value: name or
// generateName is required" under both revisions (argo-workflows'
// examples, held-out measurement 12), and under a new revision only when
// the old one is refused.
func TestReplayGenerateName(t *testing.T) {
	old, next := loadWidget(t), loadWidget(t)
	manifest := widget("v1", map[string]any{"name": "abc"})
	manifest["metadata"] = map[string]any{"generateName": "w-"}
	r := Replay(context.Background(), old, next, manifest)
	if !r.Manifest || dumpReplay(r) != "" {
		t.Errorf("manifest %t:\n%s", r.Manifest, dumpReplay(r))
	}
	if got, want := r.Stored["metadata"], map[string]any{"generateName": "w-", "name": "w-bcdfg", "namespace": "default"}; !reflect.DeepEqual(got, want) {
		t.Errorf("stored metadata %v, want %v", got, want)
	}
	if got := manifest["metadata"]; !reflect.DeepEqual(got, map[string]any{"generateName": "w-"}) {
		t.Errorf("the caller's manifest changed: metadata %v", got)
	}
	// Under an old revision the apiserver refuses, the manifest is taken
	// as stored; the cluster would still have named it.
	rejected := loadWidget(t, "scope: Namespaced", "scope: Nowhere")
	r = Replay(context.Background(), rejected, next, manifest)
	if len(r.Update) > 0 || len(r.OldUpdate) == 0 || !r.RefusedManifest {
		t.Errorf("old revision refused: update %v, old update %v, refused manifest %t", r.Update, r.OldUpdate, r.RefusedManifest)
	}
	// A cluster-scoped kind stores no namespace.
	cluster := loadWidget(t, "scope: Namespaced", "scope: Cluster")
	r = Replay(context.Background(), cluster, cluster, manifest)
	if got, want := r.Stored["metadata"], map[string]any{"generateName": "w-", "name": "w-bcdfg"}; dumpReplay(r) != "" || !reflect.DeepEqual(got, want) {
		t.Errorf("cluster-scoped: stored metadata %v, want %v\n%s", got, want, dumpReplay(r))
	}
}
