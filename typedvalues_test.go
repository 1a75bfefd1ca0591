package crdschema_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/conversion"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/serving"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// The rule for Go values, held over every public entry point that takes
// an object (doc.go and each package's doc; internal/jsonvalue): a value
// is read as the JSON encoding/json writes for it. Every entry point gives
// the same answer on an object holding Go values of other types
// (map[string]string labels, []string, int32, nil slices and pointers, a
// MarshalJSON value, a struct) as on that object's JSON, decoded as the
// apiserver decodes it; an entry point that reads a value with no JSON
// form (a channel, NaN) and returns errors names its path and Go type.

const typedCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    additionalPrinterColumns:
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    - {name: Size, type: string, jsonPath: .spec.size}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, minimum: 1}
              tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}
              labels: {type: object, additionalProperties: {type: string, maxLength: 5}}
              known: {type: object, properties: {a: {type: string}}}
              size: {type: string, pattern: "^[0-9]+Gi$"}
              mode: {type: string, default: auto}
              items: {type: array, items: {type: string}, default: [d]}
              opt: {type: string}
              template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              replicas: {type: integer}
`

// gibibytes is a value with a MarshalJSON method, as resource.Quantity is.
type gibibytes int

func (q gibibytes) MarshalJSON() ([]byte, error) { return json.Marshal(fmt.Sprintf("%dGi", int(q))) }

// pod is a struct, read through its JSON form.
type pod struct {
	APIVersion string  `json:"apiVersion"`
	Kind       string  `json:"kind"`
	Metadata   podMeta `json:"metadata"`
	Extra      int     `json:"extra,omitempty"`
}

type podMeta struct {
	Name    string            `json:"name"`
	Labels  map[string]string `json:"labels,omitempty"`
	Unknown string            `json:"unknownField,omitempty"`
}

// typedInput is an object holding Go values that are not plain JSON.
type typedInput struct {
	name string
	// spec and meta change a fresh object's spec and metadata.
	spec, meta func(spec, meta map[string]any)
	// noJSON is set for an input holding a value with no JSON form, at
	// the path an entry point reading it must name.
	noJSON string
}

var typedInputs = []typedInput{
	{name: "map[string]string labels, in metadata, in spec and in an embedded resource", spec: func(spec, meta map[string]any) {
		meta["labels"] = map[string]string{"bad key!": "v", "ok": "x"}
		spec["labels"] = map[string]string{"k": "toolong"}
		spec["template"] = map[string]any{"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": "p", "unknownField": "u", "labels": map[string]string{"bad key!": "v"}}}
	}},
	{name: "[]string set with a duplicate, map[string]string object with an unknown key", spec: func(spec, _ map[string]any) {
		spec["tags"] = []string{"a", "a"}
		spec["known"] = map[string]string{"a": "x", "b": "y"}
	}},
	{name: "int32 and int numbers", spec: func(spec, meta map[string]any) {
		spec["replicas"] = int32(0)
		meta["generation"] = int(3)
	}},
	{name: "nil slice, nil map and nil pointer (null)", spec: func(spec, _ map[string]any) {
		spec["items"] = []any(nil)
		spec["mode"] = (*string)(nil)
		spec["opt"] = map[string]any(nil)
		spec["tags"] = []string(nil)
	}},
	{name: "MarshalJSON values and a struct", spec: func(spec, _ map[string]any) {
		spec["size"] = gibibytes(3)
		spec["tags"] = []gibibytes{1, 2, 1}
		spec["template"] = pod{APIVersion: "v1", Kind: "Pod", Extra: 1,
			Metadata: podMeta{Name: "p", Unknown: "u", Labels: map[string]string{"bad key!": "v"}}}
	}},
	{name: "a channel in spec", noJSON: "spec.labels.k", spec: func(spec, _ map[string]any) {
		spec["labels"] = map[string]any{"k": make(chan int)}
	}},
	{name: "NaN in spec", noJSON: "spec.replicas", spec: func(spec, _ map[string]any) {
		spec["replicas"] = math.NaN()
	}},
	{name: "a channel in metadata", noJSON: "metadata.labels.k", spec: func(_, meta map[string]any) {
		meta["labels"] = map[string]any{"k": make(chan int)}
	}},
}

// build is a fresh object of the input.
func (in typedInput) build() map[string]any {
	spec := map[string]any{"replicas": int64(2)}
	meta := map[string]any{"name": "w", "namespace": "ns"}
	in.spec(spec, meta)
	return map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": meta, "spec": spec,
		"status": map[string]any{"replicas": int64(1)}}
}

// jsonForm is v's JSON decoded as the apiserver decodes it.
func jsonForm(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := kjson.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// answer renders what an entry point returned.
func answer(vals ...any) string {
	var b strings.Builder
	for _, v := range vals {
		switch x := v.(type) {
		case field.ErrorList:
			errs := make([]string, len(x))
			for i, e := range x {
				errs[i] = e.Error()
			}
			slices.Sort(errs)
			fmt.Fprintf(&b, "errors %q; ", errs)
		case *field.Error:
			if x == nil {
				b.WriteString("no error; ")
				continue
			}
			fmt.Fprintf(&b, "error %q; ", x.Error())
		case error:
			fmt.Fprintf(&b, "error %q; ", x.Error())
		case []string:
			s := slices.Clone(x)
			slices.Sort(s)
			fmt.Fprintf(&b, "paths %q; ", s)
		default:
			// JSON with its keys sorted however the Go value orders them.
			j, err := json.Marshal(x)
			var canonical any
			if err == nil {
				err = json.Unmarshal(j, &canonical)
			}
			if err == nil {
				j, err = json.Marshal(canonical)
			}
			if err != nil {
				fmt.Fprintf(&b, "%v (%v); ", x, err)
				continue
			}
			fmt.Fprintf(&b, "%s; ", j)
		}
	}
	return b.String()
}

// typedEntry is an entry point of a public package.
type typedEntry struct {
	name string
	// run calls it with obj and old (another build of the same input) and
	// renders its answer and what it made of obj.
	run func(obj, old map[string]any) string
	// reads lists the inputs with a value of no JSON form it must reject
	// (by the input's noJSON path); it must not panic on the others.
	reads []string
}

func typedEntries(t *testing.T) []typedEntry {
	crd, err := crdschema.LoadCRD([]byte(typedCRD))
	if err != nil {
		t.Fatal(err)
	}
	root, err := crd.Version("v1")
	if err != nil {
		t.Fatal(err)
	}
	s := root.Structural()
	served := defaulting.PruneDefaults(s, nil)
	val := validation.New(s)
	meta := func(o map[string]any) map[string]any { m, _ := o["metadata"].(map[string]any); return m }
	mp := field.NewPath("metadata")
	table := serving.NewTable([]serving.Column{{Name: "Replicas", Type: "integer", JSONPath: ".spec.replicas"}, {Name: "Size", Type: "string", JSONPath: ".spec.size"}})
	storage := conversion.NewStorage("widgets.example.com", "example.com", map[string]conversion.Version{"v1": {Schema: s, Defaults: served}, "v2": {Schema: s}}, false, true)
	identity := conversion.FromFunc(func(_ context.Context, objs []map[string]any, to string) ([]any, error) {
		out := make([]any, len(objs))
		for i, o := range objs {
			o["apiVersion"] = to
			out[i] = o
		}
		return out, nil
	})
	all := []string{"spec.labels.k", "spec.replicas", "metadata.labels.k"}
	inSpec := all[:2]
	inMeta := all[2:]
	return []typedEntry{
		{name: "prune.Prune", run: func(obj, _ map[string]any) string {
			return answer(prune.Prune(obj, s, prune.Options{ResourceRoot: true, ReturnPaths: true, DropNulls: true}), obj)
		}},
		{name: "prune.DropNulls", run: func(obj, _ map[string]any) string { prune.DropNulls(obj, s); return answer(obj) }},
		{name: "defaulting.Default", run: func(obj, _ map[string]any) string { defaulting.Default(obj, served); return answer(obj) }},
		{name: "defaulting.DropNullsAndDefault", run: func(obj, _ map[string]any) string {
			defaulting.DropNullsAndDefault(obj, served)
			return answer(obj)
		}},
		{name: "embedded.CoerceResourceMeta", reads: inMeta, run: func(obj, _ map[string]any) string {
			paths, err := embedded.CoerceResourceMeta(obj, embedded.CoerceOptions{ReturnPaths: true})
			return answer(paths, err, obj)
		}},
		{name: "embedded.CoerceEmbedded", run: func(obj, _ map[string]any) string {
			paths, errs := embedded.CoerceEmbedded(obj, s, embedded.CoerceOptions{ReturnPaths: true})
			return answer(paths, errs, obj)
		}},
		{name: "embedded.Validate", reads: inMeta, run: func(obj, _ map[string]any) string {
			return answer(embedded.Validate(nil, obj, s, true))
		}},
		{name: "embedded.ValidateResourceMeta", reads: inMeta, run: func(obj, _ map[string]any) string {
			return answer(embedded.ValidateResourceMeta(meta(obj), true))
		}},
		{name: "embedded.ValidateObjectMeta", reads: inMeta, run: func(obj, _ map[string]any) string {
			return answer(embedded.ValidateObjectMeta(mp, meta(obj), true, embedded.NameIsPathSegment))
		}},
		{name: "embedded.ValidateObjectMetaUpdate", reads: inMeta, run: func(obj, old map[string]any) string {
			n, o := embedded.MetaForUpdate(meta(obj), meta(old), true, false)
			return answer(embedded.ValidateObjectMetaUpdate(mp, n, o))
		}},
		{name: "embedded.MetaForCreate, MetaIsAsCreated, SameExceptMetadata", run: func(obj, old map[string]any) string {
			return answer(embedded.MetaForCreate(meta(obj), true), embedded.MetaIsAsCreated(meta(obj), true),
				embedded.SameExceptMetadata(obj, old))
		}},
		{name: "validation.Validate", reads: inSpec, run: func(obj, _ map[string]any) string { return answer(val.Validate(obj)) }},
		{name: "validation.ValidateValue", reads: inSpec, run: func(obj, _ map[string]any) string {
			return answer(val.ValidateValue(field.NewPath("x"), obj))
		}},
		{name: "validation.ValidateUpdate", reads: inSpec, run: func(obj, old map[string]any) string {
			return answer(val.ValidateUpdate(obj, old))
		}},
		{name: "validation.ValidateUpdate with a changed value", reads: inSpec, run: func(obj, old map[string]any) string {
			return answer(val.ValidateUpdate(obj, map[string]any{"spec": map[string]any{"replicas": int64(5)}}))
		}},
		{name: "validation.ValidateListsUpdate", run: func(obj, _ map[string]any) string {
			return answer(val.ValidateListsUpdate(obj, map[string]any{}))
		}},
		{name: "validation.ValidateValueUpdate", reads: inSpec, run: func(obj, old map[string]any) string {
			return answer(val.ValidateValueUpdate(nil, obj, old))
		}},
		{name: "serving.Scale", reads: all, run: func(obj, _ map[string]any) string {
			scale, err := serving.Scale(obj, ".spec.replicas", ".status.replicas", "")
			return answer(scale, err)
		}},
		{name: "serving.Table.Row", reads: all, run: func(obj, _ map[string]any) string {
			cells, err := table.Row(obj, time.Unix(0, 0))
			return answer(cells, err)
		}},
		{name: "conversion.Storage.Read", reads: inMeta, run: func(obj, _ map[string]any) string {
			out, paths, errs := storage.Read(context.Background(), obj, "v1", nil)
			return answer(out, paths, errs)
		}},
		{name: "conversion.Storage.Convert through a Func", reads: all, run: func(obj, _ map[string]any) string {
			out, paths, errs := storage.Convert(context.Background(), obj, "v2", identity)
			return answer(out, paths, errs)
		}},
		{name: "crdschema.Schema.Apply", reads: all, run: func(obj, _ map[string]any) string {
			r := root.Apply(obj)
			return answer(r.Object, r.Pruned, r.Errors)
		}},
		{name: "crdschema.Schema.ApplyUpdate", reads: all, run: func(obj, old map[string]any) string {
			r := root.ApplyUpdate(obj, old)
			return answer(r.Object, r.Pruned, r.Errors)
		}},
		{name: "crdschema.Schema.Validate", reads: all, run: func(obj, _ map[string]any) string { return answer(root.Validate(obj)) }},
	}
}

// TestTypedValuesOneRule: every entry point × every input, as the package
// docs say.
func TestTypedValuesOneRule(t *testing.T) {
	for _, e := range typedEntries(t) {
		for _, in := range typedInputs {
			t.Run(e.name+"/"+in.name, func(t *testing.T) {
				var got string
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("panic: %v", p)
						}
					}()
					got = e.run(in.build(), in.build())
				}()
				if in.noJSON == "" {
					if want := e.run(jsonForm(t, in.build()), jsonForm(t, in.build())); got != want {
						t.Errorf("on Go values:\n\t%s\non their JSON:\n\t%s", got, want)
					}
					return
				}
				if !slices.Contains(e.reads, in.noJSON) {
					return
				}
				typ := "chan int"
				if strings.Contains(in.name, "NaN") {
					typ = "float64"
				}
				if !strings.Contains(got, in.noJSON+": Invalid value: ") || !strings.Contains(got, "Go type "+typ) {
					t.Errorf("got %s\nwant an error at %s naming Go type %s", got, in.noJSON, typ)
				}
			})
		}
	}
}

// TestTypedValuesUnchanged: the entry points that do not work in place
// leave a caller's typed values as they were, and those that do replace
// them in the object rather than change them.
func TestTypedValuesUnchanged(t *testing.T) {
	for _, e := range typedEntries(t) {
		obj := typedInputs[1].build()
		known := obj["spec"].(map[string]any)["known"].(map[string]string)
		labels := typedInputs[0].build()
		typedLabels := labels["metadata"].(map[string]any)["labels"].(map[string]string)
		e.run(obj, typedInputs[1].build())
		e.run(labels, typedInputs[0].build())
		if len(known) != 2 || len(typedLabels) != 2 {
			t.Errorf("%s changed a caller's typed map: %v, %v", e.name, known, typedLabels)
		}
	}
}

// TestEmbeddedValidateTypedLabels: the finding
// ../shared/findings/typed-go-values/embedded-validate-typed-labels: an
// invalid label key given in a map[string]string is reported, as the
// apiserver's objectmeta.Validate reports it for the JSON form.
func TestEmbeddedValidateTypedLabels(t *testing.T) {
	p, err := schema.Parse([]byte(`{"type":"object","properties":{"template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(p)
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{"template": map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "x", "labels": map[string]string{"bad key!": "v"}}}}
	errs := embedded.Validate(nil, obj, s, false)
	if len(errs) != 1 || errs[0].Field != "template.metadata.labels" || !strings.Contains(errs[0].Detail, "name part must consist of") {
		t.Errorf("got %v, want one error at template.metadata.labels", errs)
	}
}

// TestTypedLabelsKeptByEmbedded: embedded.CoerceResourceMeta keeps labels
// given as a map[string]string, with or without DropMalformed, as the
// apiserver's GetObjectMetaWithOptions does (8 cases of its
// TestGetObjectMetaWithOptions).
func TestTypedLabelsKeptByEmbedded(t *testing.T) {
	for _, drop := range []bool{true, false} {
		obj := map[string]any{
			"kind": "Pod", "apiVersion": "v1",
			"metadata": map[string]any{"name": "my-meta", "unknownField": "foo", "labels": map[string]string{"foo": "bar"}},
		}
		paths, err := embedded.CoerceResourceMeta(obj, embedded.CoerceOptions{DropMalformed: drop, ReturnPaths: true})
		want := map[string]any{"name": "my-meta", "labels": map[string]any{"foo": "bar"}}
		if err != nil || !reflect.DeepEqual(obj["metadata"], want) || fmt.Sprint(paths) != "[metadata.unknownField]" {
			t.Errorf("DropMalformed=%v: metadata %v, paths %v, err %v; want %v, [metadata.unknownField], no error", drop, obj["metadata"], paths, err, want)
		}
	}
}

// TestNilSliceOldIsNull: an old object holding []any(nil) is taken as
// null (what json.Marshal writes), so a transition rule is skipped as the
// apiserver skips it for a null old value.
func TestNilSliceOldIsNull(t *testing.T) {
	s, err := crdschema.ParseSchema([]byte(`{"type":"object","properties":{"spec":{"type":"array","items":{"type":"string"},
		"x-kubernetes-list-type":"atomic","x-kubernetes-validations":[{"rule":"!(oldSelf == self)","message":"transition rule evaluated"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for name, old := range map[string]any{"typed nil slice": []any(nil), "null": nil} {
		r := s.ApplyUpdate(map[string]any{"metadata": map[string]any{"name": "x"}, "spec": []any{}},
			map[string]any{"metadata": map[string]any{"name": "x"}, "spec": old})
		if len(r.Errors) > 0 {
			t.Errorf("old spec %s: %v, want the transition rule skipped", name, r.Errors)
		}
	}
	// With an old value the rule runs: the test can fail.
	r := s.ApplyUpdate(map[string]any{"metadata": map[string]any{"name": "x"}, "spec": []any{}},
		map[string]any{"metadata": map[string]any{"name": "x"}, "spec": []any{}})
	if len(r.Errors) != 1 {
		t.Errorf("old spec []: %v, want the transition rule's error", r.Errors)
	}
}
