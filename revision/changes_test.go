package revision_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/conversion"
	"github.com/crdschema/crdschema/revision"
)

// gadgetCRD is the old revision the unit tests edit.
const gadgetCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              name: {type: string, maxLength: 63}
              mode: {type: string, enum: [Fast, Slow, Stop]}
              replicas: {type: integer, minimum: 0, maximum: 100}
              note: {type: string, nullable: true}
              legacy: {type: string}
              port: {x-kubernetes-int-or-string: true}
              tags: {type: array, items: {type: string}}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
              labels: {type: object, additionalProperties: {type: string}}
              ratio: {type: number}
          status:
            type: object
            properties:
              phase: {type: string, enum: [Pending, Ready, Failed]}
`

// TestChangesFieldRemovedUnderPreserve: a field removed from an object
// that keeps unknown fields is not lost: it reads back as an unknown
// field, so the removal is safe.
func TestChangesFieldRemovedUnderPreserve(t *testing.T) {
	old := strings.Replace(gadgetCRD, "extra: {type: object, x-kubernetes-preserve-unknown-fields: true}",
		"extra: {type: object, x-kubernetes-preserve-unknown-fields: true, properties: {keep: {type: string}, drop: {type: integer}}}", 1)
	next := strings.Replace(old, ", drop: {type: integer}}", "}", 1)
	got := lines(changesOf(t, old, next))
	want := "v1 spec.extra.drop field-removed safe: field drop removed; objects stored under the old revision read, create and update unchanged"
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestChangesWebhookConversion: at a version that is not the storage
// version, a CRD converting through a webhook it was not given a
// converter for cannot be probed: the change is "unchecked", never a
// guess; given one (WithConverter), the version is probed through it.
func TestChangesWebhookConversion(t *testing.T) {
	const v2 = "  - name: v2\n    served: true\n    storage: false\n    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {name: {type: string, maxLength: 63}}}}}}\n"
	webhook := strings.Replace(gadgetCRD, "  scope: Namespaced\n", "  scope: Namespaced\n  conversion: {strategy: Webhook, webhook: {conversionReviewVersions: [v1], clientConfig: {url: \"https://conv.example.com/convert\"}}}\n", 1) + v2
	next := strings.Replace(strings.Replace(webhook, "name: {type: string, maxLength: 63}", "name: {type: string, maxLength: 10}", 1),
		"name: {type: string, maxLength: 63}", "name: {type: string, maxLength: 10}", 1)
	got := changesOf(t, webhook, next)
	if len(got) != 2 {
		t.Fatalf("got %q", lines(got))
	}
	if c := got[0]; c.Version != "v1" || c.Static || c.Class != "ratcheted" {
		t.Errorf("storage version: %s", line(c))
	}
	if c := got[1]; c.Version != "v2" || c.Static || c.Class != "unchecked" || !strings.Contains(c.Detail, "conversion webhook") {
		t.Errorf("other version: %s", line(c))
	}
	// A webhook that only rewrites apiVersion, as strategy None would.
	conv := conversion.FromFunc(func(_ context.Context, objs []map[string]any, desired string) ([]any, error) {
		out := make([]any, len(objs))
		for i, o := range objs {
			o["apiVersion"] = desired
			out[i] = o
		}
		return out, nil
	})
	oldCRD, err := crdschema.LoadCRD([]byte(webhook))
	if err != nil {
		t.Fatal(err)
	}
	newCRD, err := crdschema.LoadCRD([]byte(next))
	if err != nil {
		t.Fatal(err)
	}
	got = revision.Changes(oldCRD.WithConverter(conv), newCRD.WithConverter(conv))
	if len(got) != 2 {
		t.Fatalf("with a converter: got %q", lines(got))
	}
	if c := got[1]; c.Version != "v2" || c.Static || c.Class != "ratcheted" {
		t.Errorf("other version, with a converter: %s", line(c))
	}
}

func TestChangesNilOld(t *testing.T) {
	next, err := crdschema.LoadCRD([]byte(gadgetCRD))
	if err != nil {
		t.Fatal(err)
	}
	if got := revision.Changes(nil, next); got != nil {
		t.Errorf("Changes(nil, next) = %v, want nil", got)
	}
	if got := revision.Changes(next, nil); got != nil {
		t.Errorf("Changes(next, nil) = %v, want nil", got)
	}
}

func changesOf(t *testing.T, oldDoc, newDoc string) []revision.Change {
	t.Helper()
	old, err := crdschema.LoadCRD([]byte(oldDoc))
	if err != nil {
		t.Fatal(err)
	}
	next, err := crdschema.LoadCRD([]byte(newDoc))
	if err != nil {
		t.Fatal(err)
	}
	return revision.Changes(old, next)
}

func line(c revision.Change) string {
	static := ""
	if c.Static {
		static = " (static)"
	}
	return fmt.Sprintf("%s %s %s %s%s: %s", c.Version, c.Path, c.Kind, c.Class, static, c.Detail)
}

// TestChangesClasses pins one edit per change kind of gadgetCRD and the
// class the engine computes for it.
func TestChangesClasses(t *testing.T) {
	const v2 = "  - name: v2\n    served: true\n    storage: true\n    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {name: {type: string}}}}}}\n"
	tests := []struct {
		from, to string
		want     []string // version path kind class[ (static)]
	}{
		{"name: {type: string, maxLength: 63}", "name: {type: string, maxLength: 10}", []string{"v1 spec.name bounds-tightened ratcheted"}},
		{"enum: [Fast, Slow, Stop]", "enum: [Fast, Slow]", []string{"v1 spec.mode enum-narrowed ratcheted"}},
		{"              legacy: {type: string}\n", "", []string{"v1 spec.legacy field-removed data-loss"}},
		{"note: {type: string, nullable: true}", "note: {type: string}", []string{"v1 spec.note nullable-removed data-loss"}},
		{"minimum: 0, maximum: 100}", "minimum: 0, maximum: 100, default: 1}", []string{"v1 spec.replicas default-changed safe"}},
		{"replicas: {type: integer,", "replicas: {type: string,", []string{"v1 spec.replicas type-changed ratcheted"}},
		{"extra: {type: object, x-kubernetes-preserve-unknown-fields: true}", "extra: {type: object}", []string{"v1 spec.extra preserve-unknown-fields-removed data-loss"}},
		{"tags: {type: array, items: {type: string}}", "tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}", []string{"v1 spec.tags list-type-changed ratcheted"}},
		{"port: {x-kubernetes-int-or-string: true}", "port: {type: string}", []string{"v1 spec.port int-or-string-changed ratcheted"}},
		{"name: {type: string, maxLength: 63}", "name: {type: string, maxLength: 63, pattern: '^[a-z]+$'}", []string{"v1 spec.name pattern-changed ratcheted"}},
		{"name: {type: string, maxLength: 63}", "name: {type: string, maxLength: 63, x-kubernetes-validations: [{rule: \"self.startsWith('x')\"}]}", []string{"v1 spec.name rule-added ratcheted"}},
		{"name: {type: string, maxLength: 63}", "name: {type: string, maxLength: 63, x-kubernetes-validations: [{rule: \"self == oldSelf\"}]}", []string{"v1 spec.name rule-added breaking"}},
		{"name: {type: string, maxLength: 63}", "name: {type: string, maxLength: 63, x-kubernetes-validations: [{rule: \"self != oldSelf\"}]}", []string{"v1 spec.name rule-added breaking"}},
		{"            type: object\n            properties:\n              name:", "            type: object\n            required: [name]\n            properties:\n              name:", []string{"v1 spec.name required-added ratcheted"}},
		{"phase: {type: string, enum: [Pending, Ready, Failed]}", "phase: {type: string, enum: [Pending, Ready]}", []string{"v1 status.phase enum-narrowed ratcheted"}},
		{"scope: Namespaced", "scope: Cluster", []string{"  scope-changed rejected"}},
		{"extra: {type: object, x-kubernetes-preserve-unknown-fields: true}", "extra: {type: object, x-kubernetes-preserve-unknown-fields: true, x-kubernetes-embedded-resource: true}", []string{"v1 spec.extra embedded-resource-changed breaking"}},
		{"tags: {type: array, items: {type: string}}", "tags: {type: array, items: {type: object, properties: {n: {type: string}}}}", []string{"v1 spec.tags[*] type-changed ratcheted"}},
		{"labels: {type: object, additionalProperties: {type: string}}", "labels: {type: object, additionalProperties: {type: string}, x-kubernetes-validations: [{rule: \"self.size() == oldSelf.size() + 1\"}]}", []string{"v1 spec.labels rule-added breaking"}},
		{"plural: gadgets,", "plural: gizmos,", []string{"  names-changed rejected"}},
		{"group: example.com", "group: example.org", []string{"  group-changed rejected"}},
		{"name: gadgets.example.com", "name: gizmos.example.com", []string{"  name-changed rejected"}},
		{"mode: {type: string, enum: [Fast, Slow, Stop]}", "mode: {type: string, enum: [Fast, Slow, Stop], default: Nope}", []string{"  invalid rejected", "v1 spec.mode default-changed safe (static)"}},
		{"  - name: v1\n", "  - name: v2\n", []string{"v1  version-removed rejected", "v2  version-added safe"}},
		{"ratio: {type: number}", "ratio: {type: number, multipleOf: 0.5}", []string{"v1 spec.ratio bounds-tightened ratcheted"}},
		{"replicas: {type: integer, minimum: 0,", "replicas: {type: integer, minimum: 5,", []string{"v1 spec.replicas bounds-tightened ratcheted"}},
		{"labels: {type: object, additionalProperties: {type: string}}", "labels: {type: object, additionalProperties: {type: string}, maxProperties: 1}", []string{"v1 spec.labels bounds-tightened ratcheted"}},
		{"labels: {type: object, additionalProperties: {type: string}}", "labels: {type: object}", []string{"v1 spec.labels[*] field-removed data-loss"}},
		{"tags: {type: array, items: {type: string}}", "tags: {type: array, items: {type: string}, maxItems: 1}", []string{"v1 spec.tags bounds-tightened ratcheted"}},
		{"name: {type: string, maxLength: 63}", "name: {type: string, maxLength: 63, format: date}", []string{"v1 spec.name format-changed ratcheted"}},
		{"name: {type: string, maxLength: 63}", "name: {type: string, maxLength: 63, format: no-such-format}", []string{"v1 spec.name format-changed safe"}},
		{"            type: object\n            properties:\n              name:", "            type: object\n            x-kubernetes-preserve-unknown-fields: true\n            properties:\n              name:", nil},
		{"  - name: v1\n    served: true\n", "  - name: v1\n    served: false\n", []string{"v1  version-unserved breaking"}},
		{"    storage: true\n", "    storage: false\n", []string{"v2  storage-version-changed data-loss", "v2  version-added data-loss"}},
	}
	for _, tt := range tests {
		newDoc := strings.Replace(gadgetCRD, tt.from, tt.to, 1)
		if newDoc == gadgetCRD {
			t.Fatalf("edit %q not applied", tt.from)
		}
		if strings.Contains(tt.to, "storage: false") {
			newDoc += v2
		}
		var got []string
		for _, c := range changesOf(t, gadgetCRD, newDoc) {
			s := fmt.Sprintf("%s %s %s %s", c.Version, c.Path, c.Kind, c.Class)
			if c.Static {
				s += " (static)"
			}
			got = append(got, s)
			if c.Detail == "" {
				t.Errorf("%s: no detail", s)
			}
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%q → %q:\n got %q\nwant %q", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestChangesConcurrent: the same revisions give the same changes,
// from fresh loads and from concurrent calls on shared values (run with
// -race).
func TestChangesConcurrent(t *testing.T) {
	newDoc := strings.NewReplacer(
		"name: {type: string, maxLength: 63}", "name: {type: string, maxLength: 10, x-kubernetes-validations: [{rule: \"self != 'x'\"}]}",
		"enum: [Fast, Slow, Stop]", "enum: [Fast]",
		"              legacy: {type: string}\n", "",
		"tags: {type: array, items: {type: string}}", "tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}",
	).Replace(gadgetCRD)
	want := lines(changesOf(t, gadgetCRD, newDoc))
	if len(want) != 5 {
		t.Fatalf("want 5 changes, got %q", want)
	}
	old, _ := crdschema.LoadCRD([]byte(gadgetCRD))
	next, _ := crdschema.LoadCRD([]byte(newDoc))
	results := make(chan []string, 4)
	for range 4 {
		go func() { results <- lines(revision.Changes(old, next)) }()
	}
	for range 4 {
		if got := <-results; strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestChangesStaticSaysWhy: a change no probe decided says what happened
// to its probe objects. Here they are built and stored under the old
// revision, but the new one no longer serves the version, so no read at
// it succeeds: the Detail says so and why, not that no probe object could
// be built.
func TestChangesStaticSaysWhy(t *testing.T) {
	const v2 = "  - name: v2\n    served: true\n    storage: false\n    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {name: {type: string, maxLength: 63}}}}}}\n"
	old := gadgetCRD + v2
	next := strings.Replace(strings.Replace(old, "served: true\n    storage: false", "served: false\n    storage: false", 1),
		"{name: {type: string, maxLength: 63}}", "{name: {type: string, maxLength: 10}}", 1)
	got := changesOf(t, old, next)
	want := `v2 spec.name bounds-tightened ratcheted (static): maxLength 63 → 10; static approximation (probe objects were built and stored, but none could be read at v2 under the new revision: apiVersion: Not found: CustomResourceDefinition "gadgets.example.com" does not serve version "v2" (serves v1)): value validations are ratcheted for unchanged values`
	if len(got) != 2 || line(got[1]) != want {
		t.Errorf("got %q\nwant [_ %q]", lines(got), want)
	}
	// A default changed to a value a new rule refuses without another
	// field: probe objects are stored, but every create under the new
	// revision fails (as crossplane v1.20 → v2.0's mode "Resources" →
	// "Pipeline" does).
	old = strings.Replace(gadgetCRD, "legacy: {type: string}", "legacy: {type: string, default: a}", 1)
	next = strings.Replace(strings.Replace(old, "legacy: {type: string, default: a}", "legacy: {type: string, default: b}", 1),
		"          spec:\n            type: object\n", "          spec:\n            type: object\n            x-kubernetes-validations: [{rule: \"self.legacy != 'b' || has(self.note)\", message: note is required with legacy b}]\n", 1)
	want = `v1 spec.legacy default-changed default-changed (static): default "a" → "b"; static approximation (probe objects were built and stored, but a create at v1 under the new revision failed: spec: Invalid value: note is required with legacy b): a create leaving the field out stores the old default under the old revision only`
	if got := lines(changesOf(t, old, next)); !slices.Contains(got, want) {
		t.Errorf("got %q\nwant among them %q", got, want)
	}
}
