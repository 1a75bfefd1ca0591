package defaulting

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/internal/golden"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// coerceEmbedded coerces the embedded resources of a default as the
// apiserver does before serving it.
func coerceEmbedded(v any, s *structural.Schema) {
	embedded.CoerceEmbedded(v, s, embedded.CoerceOptions{DropMalformed: true})
}

// mustSchema builds a structural schema from YAML.
func mustSchema(t testing.TB, src string) *structural.Schema {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := &model.Props{}
	if err := model.DecodeProps(j, p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mustObject decodes a YAML object as the command does (integers as int64).
func mustObject(t testing.TB, src string) map[string]any {
	t.Helper()
	docs, err := schema.ReadDocuments("obj.yaml", []byte(src))
	if err != nil || len(docs) != 1 || docs[0].Object == nil {
		t.Fatalf("bad object %q: %v", src, err)
	}
	return docs[0].Object
}

// apiserver runs what the apiserver does after pruning: drop the
// non-nullable nulls without default, then default, with pruned defaults.
func apiserver(obj any, s *structural.Schema) {
	s = PruneDefaults(s, coerceEmbedded)
	prune.DropNulls(obj, s)
	Default(obj, s)
}

func asJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func jsonValue(t testing.TB, v any) any {
	t.Helper()
	var out any
	if err := json.Unmarshal([]byte(asJSON(t, v)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func checkDefault(t *testing.T, schemaYAML, objYAML, wantYAML string) {
	t.Helper()
	s := mustSchema(t, schemaYAML)
	obj := mustObject(t, objYAML)
	apiserver(obj, s)
	if got, want := jsonValue(t, obj), jsonValue(t, mustObject(t, wantYAML)); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %s\nwant %s", asJSON(t, got), asJSON(t, want))
	}
}

const cronTabSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      cronSpec: {type: string, pattern: '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$', default: "5 0 * * *"}
      image: {type: string}
      replicas: {type: integer, minimum: 1, maximum: 10, default: 1}
`

// The Kubernetes docs' CronTab: cronSpec and replicas defaulted, image kept.
func TestDocsCronTab(t *testing.T) {
	checkDefault(t, cronTabSchema,
		`{apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: my-new-cron-object}, spec: {image: my-awesome-cron-image}}`,
		`{apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: my-new-cron-object}, spec: {cronSpec: "5 0 * * *", image: my-awesome-cron-image, replicas: 1}}`)
}

// semantics.md §4: {foo: null, bar: null, baz: null} → {foo: "default", bar: null}.
func TestDocsNullable(t *testing.T) {
	checkDefault(t, `
type: object
properties:
  spec:
    type: object
    properties:
      foo: {type: string, nullable: false, default: "default"}
      bar: {type: string, nullable: true}
      baz: {type: string}
`, `{spec: {foo: null, bar: null, baz: null}}`, `{spec: {foo: "default", bar: null}}`)
}

// The At resource's image defaults to busybox.
func TestDocsAtImage(t *testing.T) {
	checkDefault(t, `
type: object
properties:
  spec:
    type: object
    properties:
      schedule: {type: string}
      command: {type: string}
      image: {type: string, default: busybox}
`, `{apiVersion: cnat.programming-kubernetes.info/v1alpha1, kind: At, spec: {schedule: "2019-04-12T10:12:00Z", command: echo YAY}}`,
		`{apiVersion: cnat.programming-kubernetes.info/v1alpha1, kind: At, spec: {schedule: "2019-04-12T10:12:00Z", command: echo YAY, image: busybox}}`)
}

func TestSemantics(t *testing.T) {
	for _, tc := range []struct{ name, schema, obj, want string }{
		{"absent property defaulted",
			`{type: object, properties: {a: {type: string, default: x}}}`,
			`{}`, `{a: x}`},
		{"nullable null kept, not defaulted",
			`{type: object, properties: {a: {type: string, nullable: true, default: x}}}`,
			`{a: null}`, `{a: null}`},
		{"default defaulted further",
			`{type: object, properties: {a: {type: object, default: {b: 1}, properties: {b: {type: integer}, c: {type: integer, default: 2}}}}}`,
			`{}`, `{a: {b: 1, c: 2}}`},
		{"additionalProperties: only nulls replaced",
			`{type: object, properties: {m: {type: object, additionalProperties: {type: string, default: d}}}}`,
			`{m: {x: null, y: v}}`, `{m: {x: d, y: v}}`},
		{"additionalProperties: no keys created",
			`{type: object, properties: {m: {type: object, default: {}, additionalProperties: {type: string, default: d}}}}`,
			`{}`, `{m: {}}`},
		{"additionalProperties without default: null dropped",
			`{type: object, properties: {m: {type: object, additionalProperties: {type: string}}}}`,
			`{m: {x: null}}`, `{m: {}}`},
		{"additionalProperties: true keeps nulls",
			`{type: object, properties: {m: {type: object, additionalProperties: true}}}`,
			`{m: {x: null}}`, `{m: {x: null}}`},
		{"items: null replaced, length kept",
			`{type: object, properties: {l: {type: array, items: {type: string, default: d}}}}`,
			`{l: [null, v]}`, `{l: [d, v]}`},
		{"items without default: null item kept",
			`{type: object, properties: {l: {type: array, items: {type: string}}}}`,
			`{l: [null]}`, `{l: [null]}`},
		{"unknown fields kept, their nulls too",
			`{type: object, properties: {a: {type: string, default: x}}}`,
			`{u: null, w: {z: null}}`, `{a: x, u: null, w: {z: null}}`},
		{"null dropped deep inside",
			`{type: object, properties: {l: {type: array, items: {type: object, properties: {a: {type: string}}}}}}`,
			`{l: [{a: null}, {a: s}]}`, `{l: [{}, {a: s}]}`},
		{"root metadata fields are walked",
			`{type: object, properties: {metadata: {type: object, properties: {name: {type: string}}}}}`,
			`{metadata: {name: null}}`, `{metadata: {}}`},
	} {
		t.Run(tc.name, func(t *testing.T) { checkDefault(t, tc.schema, tc.obj, tc.want) })
	}
}

// TestNoAliasing defaults two objects from one schema and mutates all of the
// first: the second object and the schema's defaults stay unchanged.
func TestNoAliasing(t *testing.T) {
	s := mustSchema(t, `
type: object
properties:
  spec:
    type: object
    default: {list: [{a: 1}], m: {k: [1]}}
    properties:
      list:
        type: array
        items:
          type: object
          default: {nested: {x: [1, 2]}}
          x-kubernetes-preserve-unknown-fields: true
      m:
        type: object
        additionalProperties:
          type: array
          default: [{deep: true}]
          items: {type: object, x-kubernetes-preserve-unknown-fields: true}
`)
	before := asJSON(t, s.Properties["spec"].Default)
	schemaBefore := snapshot(t, s)

	a := mustObject(t, `{spec: null}`)
	b := mustObject(t, `{spec: null}`)
	Default(a, s)
	Default(b, s)
	a2 := mustObject(t, `{spec: {list: [null, null], m: {x: null, y: null}}}`)
	b2 := mustObject(t, `{spec: {list: [null, null], m: {x: null, y: null}}}`)
	Default(a2, s)
	Default(b2, s)
	wantB, wantB2 := asJSON(t, b), asJSON(t, b2)

	mutateAll(a)
	mutateAll(a2)

	if got := asJSON(t, b); got != wantB {
		t.Errorf("second object changed: %s, want %s", got, wantB)
	}
	if got := asJSON(t, b2); got != wantB2 {
		t.Errorf("second object changed: %s, want %s", got, wantB2)
	}
	if got := asJSON(t, s.Properties["spec"].Default); got != before {
		t.Errorf("schema default changed: %s, want %s", got, before)
	}
	if got := snapshot(t, s); got != schemaBefore {
		t.Errorf("schema changed:\n%s\nwant\n%s", got, schemaBefore)
	}
}

// mutateAll changes every map and slice reachable from v.
func mutateAll(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			mutateAll(e)
			x[k] = "mutated"
		}
		x["added"] = true
	case []any:
		for i, e := range x {
			mutateAll(e)
			x[i] = "mutated"
		}
	}
}

// snapshot renders every default and flag of a schema tree.
func snapshot(t testing.TB, s *structural.Schema) string {
	var b strings.Builder
	var walk func(path string, s *structural.Schema)
	walk = func(path string, s *structural.Schema) {
		if s == nil {
			return
		}
		d, _ := json.Marshal(s.Default)
		b.WriteString(path + " " + s.Type + " " + string(d) + "\n")
		for k, c := range s.Properties {
			walk(path+"."+k, c)
		}
		walk(path+"[]", s.Items)
		if s.AdditionalProperties != nil {
			walk(path+".*", s.AdditionalProperties.Schema)
		}
	}
	walk("", s)
	lines := strings.Split(b.String(), "\n")
	sortStrings(lines)
	return strings.Join(lines, "\n")
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func TestPruneDefaults(t *testing.T) {
	s := mustSchema(t, `
type: object
properties:
  m:
    type: object
    additionalProperties:
      type: object
      default: {extra: 3, unknownInDefault: 1}
      properties: {extra: {type: integer}}
  keep:
    type: array
    x-kubernetes-preserve-unknown-fields: true
    items:
      type: object
      default: {known: 1, unknown: 2}
      properties: {known: {type: integer}}
  deep:
    type: array
    x-kubernetes-preserve-unknown-fields: true
    items:
      type: array
      items:
        type: object
        default: {known: 1, unknown: 2}
        properties:
          known: {type: integer}
          inner:
            type: object
            default: {known: 1, unknown: 2}
            properties: {known: {type: integer}}
  plain:
    type: array
    items:
      type: object
      default: {known: 1, unknown: 2}
      properties: {known: {type: integer}}
  res:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      metadata:
        type: object
        properties: {name: {type: string, default: nm}}
  clean: {type: object, default: {a: 1}, properties: {a: {type: integer}}}
`)
	orig := snapshot(t, s)
	p := PruneDefaults(s, nil)
	if snapshot(t, s) != orig {
		t.Fatal("PruneDefaults changed its input")
	}
	for path, want := range map[string]string{
		"m.*":               `{"extra":3}`,
		"keep[]":            `{"known":1,"unknown":2}`,
		"plain[]":           `{"known":1}`,
		"res.metadata.name": `"nm"`,
		"clean":             `{"a":1}`,
	} {
		if got := asJSON(t, at(p, path).Default); got != want {
			t.Errorf("%s: default %s, want %s", path, got, want)
		}
	}
	if at(p, "clean") != at(s, "clean") || at(p, "res") != at(s, "res") {
		t.Error("unchanged nodes should be shared")
	}
	if at(p, "m.*") == at(s, "m.*") {
		t.Error("changed node not copied")
	}
	if PruneDefaults(p, nil) != p {
		t.Error("pruning pruned defaults again should change nothing")
	}
	clean := mustSchema(t, `{type: object, properties: {a: {type: string, default: x}}}`)
	if PruneDefaults(clean, nil) != clean {
		t.Error("a schema with pruned defaults should be returned as is")
	}
	if PruneDefaults(nil, nil) != nil {
		t.Error("nil schema")
	}
}

// at finds a node by a dotted path; "*" is additionalProperties and a
// trailing "[]" the items.
func at(s *structural.Schema, path string) *structural.Schema {
	for _, part := range strings.Split(path, ".") {
		name := strings.TrimRight(part, "[]")
		if name == "*" {
			s = s.AdditionalProperties.Schema
		} else {
			s = s.Properties[name]
		}
		for range (len(part) - len(name)) / 2 {
			s = s.Items
		}
	}
	return s
}

func TestNilAndOddInputs(t *testing.T) {
	s := mustSchema(t, cronTabSchema)
	for _, v := range []any{nil, "x", int64(1), 1.5, true, []any{nil}, map[string]any{"spec": "x"}, map[string]any{"spec": []any{nil}}} {
		prune.DropNulls(v, s)
		Default(v, s)
		prune.DropNulls(v, nil)
		Default(v, nil)
	}
}

// TestGolden runs every testdata/defaulting/<case>.yaml (a schema, then the
// objects) and compares the defaulted objects with <case>.golden.
func TestGolden(t *testing.T) {
	golden.Run(t, filepath.Join("..", "testdata", "defaulting"), func(t *testing.T, f string, data []byte) string {
		docs, err := schema.ReadDocuments(f, data)
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) < 2 {
			t.Fatal("want a schema and at least one object")
		}
		p := &model.Props{}
		if err := model.DecodeProps(docs[0].JSON(), p); err != nil {
			t.Fatal(err)
		}
		s, err := structural.New(p)
		if err != nil {
			t.Fatal(err)
		}
		orig := snapshot(t, s)
		var out bytes.Buffer
		for i, d := range docs[1:] {
			apiserver(d.Object, s)
			b, err := yaml.Marshal(d.Object)
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 {
				out.WriteString("---\n")
			}
			out.Write(b)
		}
		if snapshot(t, s) != orig {
			t.Error("schema changed")
		}
		return out.String()
	})
}

func TestPruneDefaultsCoercesEmbedded(t *testing.T) {
	s := mustSchema(t, `
type: object
properties:
  r:
    type: object
    x-kubernetes-embedded-resource: true
    default: {apiVersion: v1, kind: 3, metadata: {name: x, foo: 1}}
  plain: {type: object, default: {a: 1}, x-kubernetes-preserve-unknown-fields: true}
`)
	calls := 0
	p := PruneDefaults(s, func(v any, s *structural.Schema) {
		calls++
		coerceEmbedded(v, s)
	})
	if got, want := asJSON(t, at(p, "r").Default), `{"apiVersion":"v1","metadata":{"name":"x"}}`; got != want {
		t.Errorf("default %s, want %s", got, want)
	}
	if calls != 1 {
		t.Errorf("%d calls of the hook, want 1 (only defaults holding embedded resources)", calls)
	}
	if got := asJSON(t, at(PruneDefaults(s, nil), "r").Default); got != `{"apiVersion":"v1","kind":3,"metadata":{"foo":1,"name":"x"}}` {
		t.Errorf("PruneDefaults without hook changed metadata: %s", got)
	}
}
