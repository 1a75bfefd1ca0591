package revision_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/conversion"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/revision"
)

// migrateCRD has moved its storage version from v1alpha1 to v1: v1 drops
// spec.legacy, defaults spec.mode and bounds spec.size with a rule on
// spec, which objects stored at v1alpha1 may break.
const migrateCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1alpha1
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
              legacy: {type: string}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations: [{rule: self.size <= 10}]
            properties:
              size: {type: integer}
              mode: {type: string, default: a}
`

func loadMigrateCRD(t *testing.T, edits ...string) *crdschema.CRD {
	t.Helper()
	doc := migrateCRD
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(doc, edits[i]) {
			t.Fatalf("edit %q does not apply", edits[i])
		}
		doc = strings.Replace(doc, edits[i], edits[i+1], 1)
	}
	crd, err := crdschema.LoadCRD([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if errs := crd.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	return crd
}

// gadget is a stored Gadget at version with spec.
func storedGadget(version string, spec map[string]any) map[string]any {
	return map[string]any{
		"apiVersion": "example.com/" + version, "kind": "Gadget",
		"metadata": map[string]any{"name": "g", "namespace": "default", "uid": "7c1e0000-0000-4000-8000-000000000001", "generation": int64(1)},
		"spec":     spec,
	}
}

// toJSON is v as compact JSON, for comparisons.
func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The three outcomes of a rewrite of objects stored at v1alpha1 under a
// CRD whose storage version is v1 (read and written at v1, the preferred
// version), and an object already at v1. The apiserver's storage and
// registry give the same answers (issue 30, checked with cf31's
// oracle.Cluster): v1's default of spec.mode is in the request only, so
// spec changed and its rule is evaluated, not ratcheted.
func TestMigrate(t *testing.T) {
	crd := loadMigrateCRD(t)
	for _, tc := range []struct {
		name     string
		obj      map[string]any
		migrated string // spec as stored after, "" when the rewrite fails
		losses   []revision.Loss
		update   string
	}{
		{name: "migrated", obj: storedGadget("v1alpha1", map[string]any{"size": int64(3)}), migrated: `{"mode":"a","size":3}`},
		{name: "loses a field v1 does not declare", obj: storedGadget("v1alpha1", map[string]any{"size": int64(3), "legacy": "x"}), migrated: `{"mode":"a","size":3}`,
			losses: []revision.Loss{{Path: "spec.legacy", Step: "read at v1alpha1"}}},
		{name: "fails the rule", obj: storedGadget("v1alpha1", map[string]any{"size": int64(20)}),
			update: "spec: Invalid value: failed rule: self.size <= 10"},
		{name: "at the storage version: ratcheted", obj: storedGadget("v1", map[string]any{"size": int64(20), "mode": "b"}), migrated: `{"mode":"b","size":20}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := jsonvalue.DeepCopy(tc.obj)
			m := revision.Migrate(context.Background(), nil, crd, tc.obj)
			if !reflect.DeepEqual(tc.obj, before) {
				t.Errorf("Migrate changed obj")
			}
			if len(m.Errors) > 0 {
				t.Fatalf("not migrated: %v", m.Errors)
			}
			if got := toJSON(t, m.Stored); got != toJSON(t, tc.obj) {
				t.Errorf("Stored %s, want obj as given", got)
			}
			update := ""
			if len(m.Update) > 0 {
				update = m.Update.ToAggregate().Error()
			}
			if update != tc.update {
				t.Errorf("Update %q, want %q", update, tc.update)
			}
			if tc.migrated == "" {
				if m.Migrated != nil {
					t.Errorf("a failed rewrite gives Migrated %v", m.Migrated)
				}
				return
			}
			if m.Migrated["apiVersion"] != "example.com/v1" || toJSON(t, m.Migrated["spec"]) != tc.migrated {
				t.Errorf("Migrated %s, want at v1 with spec %s", toJSON(t, m.Migrated), tc.migrated)
			}
			if !reflect.DeepEqual(m.Losses, tc.losses) {
				t.Errorf("Losses %+v, want %+v", m.Losses, tc.losses)
			}
		})
	}
}

// What a CRD cannot have stored is not migrated: Errors say why, and
// nothing else is filled.
func TestMigrateRefused(t *testing.T) {
	crd := loadMigrateCRD(t)
	for _, tc := range []struct {
		name string
		obj  map[string]any
		want string
	}{
		{"another kind", map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"}}, `kind: Not found: CustomResourceDefinition "gadgets.example.com" defines kind "Gadget", not "Widget"`},
		{"another group", map[string]any{"apiVersion": "other.com/v1", "kind": "Gadget", "metadata": map[string]any{"name": "g"}}, `defines group "example.com", not "other.com"`},
		{"a version not defined", storedGadget("v2", map[string]any{}), `does not define version "v2", so no object is stored at it`},
		{"no kind", map[string]any{"apiVersion": "example.com/v1"}, "kind"},
		{"a value with no JSON form", map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget", "spec": map[string]any{"c": make(chan int)}}, "chan int"},
		// A manifest names no stored object: it got the create's
		// "metadata.name: Required value: name or generateName is
		// required" from the rewrite, though it has a generateName.
		{"only generateName", map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": map[string]any{"generateName": "g-"}},
			"metadata.name: Required value: a manifest with only metadata.generateName names no stored object"},
		{"no name", map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": map[string]any{"name": ""}},
			"metadata.name: Required value: an object without a name names no stored object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := revision.Migrate(context.Background(), nil, crd, tc.obj)
			if len(m.Errors) == 0 || !strings.Contains(m.Errors.ToAggregate().Error(), tc.want) {
				t.Errorf("Errors %v, want one with %q", m.Errors, tc.want)
			}
			if m.Stored != nil || m.Migrated != nil || m.Losses != nil || m.Update != nil {
				t.Errorf("refused, yet filled: %+v", m)
			}
		})
	}
	if m := revision.Migrate(context.Background(), crd, nil, storedGadget("v1", nil)); len(m.Errors) != 1 {
		t.Errorf("nil next: %v", m.Errors)
	}
	// No metadata at all is the engine's (the apiserver's storage
	// decoder's) to word, not a manifest's refusal.
	if m := revision.Migrate(context.Background(), nil, crd, map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget"}); len(m.Errors) > 0 || len(m.Update) == 0 {
		t.Errorf("no metadata: errors %v, update %v", m.Errors, m.Update)
	}
	manifest := map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": map[string]any{"generateName": "g-"}}
	if m := revision.Migrate(context.Background(), crd, crd, manifest); len(m.Errors) != 1 || m.Errors[0].Field != "metadata.name" {
		t.Errorf("a manifest with only generateName, with an old revision: %v", m.Errors)
	}
}

// With the old revision (storage v1alpha1), a dump taken before the
// upgrade is stored as the old revision stores it (at v1alpha1, v1's
// spec.mode pruned), then migrated under the new one; losses are against
// what the old revision's reads showed.
func TestMigrateFromOldRevision(t *testing.T) {
	old := loadMigrateCRD(t, "    served: true\n    storage: false\n", "    served: true\n    storage: true\n", "    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            x-kubernetes-validations", "    served: true\n    storage: false\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            x-kubernetes-validations")
	if old.StorageVersion() != "v1alpha1" {
		t.Fatalf("old storage version %q", old.StorageVersion())
	}
	next := loadMigrateCRD(t)
	dumped := storedGadget("v1", map[string]any{"size": int64(3), "mode": "b"})
	m := revision.Migrate(context.Background(), old, next, dumped)
	if len(m.Errors) > 0 || len(m.Update) > 0 {
		t.Fatalf("errors %v, update %v", m.Errors, m.Update)
	}
	if got := toJSON(t, m.Stored); got != `{"apiVersion":"example.com/v1alpha1","kind":"Gadget","metadata":{"generation":1,"name":"g","namespace":"default","uid":"7c1e0000-0000-4000-8000-000000000001"},"spec":{"size":3}}` {
		t.Errorf("Stored %s", got)
	}
	if got := toJSON(t, m.Migrated["spec"]); m.Migrated["apiVersion"] != "example.com/v1" || got != `{"mode":"a","size":3}` {
		t.Errorf("Migrated %s", toJSON(t, m.Migrated))
	}
	// The old revision showed spec.legacy at v1alpha1; the rewrite drops it.
	m = revision.Migrate(context.Background(), old, next, storedGadget("v1alpha1", map[string]any{"size": int64(3), "legacy": "x"}))
	if want := []revision.Loss{{Path: "spec.legacy", Step: "read at v1alpha1"}}; !reflect.DeepEqual(m.Losses, want) {
		t.Errorf("Losses %+v, want %+v", m.Losses, want)
	}
	// An object at a version the old revision does not define.
	if m := revision.Migrate(context.Background(), old, next, storedGadget("v2", nil)); len(m.Errors) == 0 {
		t.Error("an object at an undefined version is migrated")
	}
}

// With strategy Webhook the rewrite converts through the CRD's converter;
// without one, an object stored at another version fails its read, as
// in a cluster whose webhook is down.
func TestMigrateWebhook(t *testing.T) {
	crd := loadMigrateCRD(t, "  versions:\n", "  conversion:\n    strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1]\n      clientConfig: {url: \"https://convert.example.com/\"}\n  versions:\n")
	obj := storedGadget("v1alpha1", map[string]any{"size": int64(3), "legacy": "x"})
	m := revision.Migrate(context.Background(), nil, crd, obj)
	if len(m.Update) == 0 || !strings.Contains(m.Update[0].Detail, "read at v1: ") || !strings.Contains(m.Update[0].Detail, "needs the conversion webhook") {
		t.Errorf("without a converter: Update %v", m.Update)
	}
	// A converter that carries spec.legacy over as spec.mode.
	conv := conversion.FromFunc(func(_ context.Context, objs []map[string]any, to string) ([]any, error) {
		out := make([]any, len(objs))
		for i, o := range objs {
			c := jsonvalue.DeepCopy(o).(map[string]any)
			c["apiVersion"] = to
			if spec, ok := c["spec"].(map[string]any); ok && to == "example.com/v1" {
				if l, ok := spec["legacy"]; ok {
					spec["mode"] = l
					delete(spec, "legacy")
				}
			}
			out[i] = c
		}
		return out, nil
	})
	m = revision.Migrate(context.Background(), nil, crd.WithConverter(conv), obj)
	if len(m.Errors)+len(m.Update) > 0 {
		t.Fatalf("errors %v, update %v", m.Errors, m.Update)
	}
	if got := toJSON(t, m.Migrated["spec"]); got != `{"mode":"x","size":3}` {
		t.Errorf("Migrated spec %s", got)
	}
	// Read back at v1alpha1 the converter gives spec.mode, not spec.legacy:
	// the webhook's round trip loses it.
	if want := []revision.Loss{{Path: "spec.legacy", Step: "read at v1alpha1"}}; !reflect.DeepEqual(m.Losses, want) {
		t.Errorf("Losses %+v, want %+v", m.Losses, want)
	}
}
