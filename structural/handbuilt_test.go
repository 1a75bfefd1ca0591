package structural_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// byHand rebuilds s as a literal, node by node, with only the exported
// fields: what a user writing the model by hand gets.
func byHand(s *structural.Schema) *structural.Schema {
	if s == nil {
		return nil
	}
	out := &structural.Schema{
		Type: s.Type, Nullable: s.Nullable, Default: s.Default, HasDefault: s.HasDefault,
		Items:                 byHand(s.Items),
		PreserveUnknownFields: s.PreserveUnknownFields, EmbeddedResource: s.EmbeddedResource,
		IntOrString: s.IntOrString, ListType: s.ListType, ListMapKeys: s.ListMapKeys, MapType: s.MapType,
		Source: s.Source,
	}
	if s.Properties != nil {
		out.Properties = map[string]*structural.Schema{}
		for k, c := range s.Properties {
			out.Properties[k] = byHand(c)
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		out.AdditionalProperties = &structural.AdditionalProperties{Allows: ap.Allows, Schema: byHand(ap.Schema)}
	}
	return out
}

const handSchema = `
type: object
properties:
  apiVersion: {type: string}
  kind: {type: string}
  metadata: {type: object}
  spec:
    type: object
    required: [replicas]
    properties:
      replicas: {type: integer, minimum: 1, default: 1}
      mode: {type: string, enum: [a, b], default: a}
      port:
        x-kubernetes-int-or-string: true
        anyOf: [{type: integer}, {type: string}]
      tags:
        type: array
        x-kubernetes-list-type: set
        items: {type: string, maxLength: 3}
      nested:
        type: object
        default: {}
        properties:
          deep: {type: string, default: x, pattern: '^[a-z]+$'}
      labels:
        type: object
        additionalProperties: {type: string, nullable: true, default: v}
      template:
        type: object
        x-kubernetes-embedded-resource: true
        x-kubernetes-preserve-unknown-fields: true
`

// TestHandBuiltBehavesAsParsed: a structural.Schema written by hand (only
// the exported fields) prunes, defaults, coerces and validates exactly as
// the same tree built by New, which precomputes facts the hand-built one
// computes when asked (issue 19, finding 2).
func TestHandBuiltBehavesAsParsed(t *testing.T) {
	p, err := schema.Parse([]byte(handSchema))
	if err != nil {
		t.Fatal(err)
	}
	built, err := structural.New(p)
	if err != nil {
		t.Fatal(err)
	}
	hand := byHand(built)
	objects := []string{
		`{"apiVersion":"a/v1","kind":"K","metadata":{"name":"x"},"spec":{"unknown":1,"labels":{"a":null,"b":"c"},"nested":{},"tags":["abcd","abcd"],"port":"p"}}`,
		`{"apiVersion":"a/v1","kind":"K","spec":{"replicas":0,"mode":"c","nested":{"deep":"X1"},"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"-","extra":1}}}}`,
		`{"spec":{"replicas":"two","port":1.5,"tags":"x"}}`,
		`{"spec":null}`,
	}
	for _, js := range objects {
		var fromNew, fromHand map[string]any
		for _, side := range []struct {
			s   *structural.Schema
			out *map[string]any
		}{{built, &fromNew}, {hand, &fromHand}} {
			obj := mustJSON(t, js)
			pruned := prune.Prune(obj, side.s, prune.Options{ResourceRoot: true, ReturnPaths: true})
			_, coerceErrs := embedded.CoerceEmbedded(obj, side.s, embedded.CoerceOptions{})
			defaulting.Default(obj, side.s)
			errs := validation.New(side.s).Validate(obj)
			errs = append(errs, embedded.Validate(nil, obj, side.s, true)...)
			*side.out = map[string]any{"object": obj, "pruned": pruned, "coerce": fmt.Sprint(coerceErrs), "errors": fmt.Sprint(errs)}
		}
		if !reflect.DeepEqual(fromNew, fromHand) {
			t.Errorf("%s:\nbuilt by New: %v\nby hand:      %v", js, fromNew, fromHand)
		}
		if fromNew["errors"] == "[]" && js != objects[0] {
			t.Errorf("%s: no errors; the test validates nothing", js)
		}
	}
	if got := structural.Validate(nil, hand); fmt.Sprint(got) != fmt.Sprint(structural.Validate(nil, built)) {
		t.Errorf("rules: hand-built %v, built %v", got, structural.Validate(nil, built))
	}
}

// TestHandBuiltWithoutSource: a hand-built tree without Source still
// validates what the model says (types, nullable) and defaults.
func TestHandBuiltWithoutSource(t *testing.T) {
	s := &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{
		"n": {Type: "integer", Default: int64(3), HasDefault: true},
		"s": {Type: "string"},
	}}
	obj := map[string]any{"s": int64(1)}
	defaulting.Default(obj, s)
	if obj["n"] != int64(3) {
		t.Errorf("defaulting: %v", obj)
	}
	errs := validation.New(s).Validate(obj)
	if len(errs) != 1 || errs[0].Field != "s" {
		t.Errorf("validation: %v, want one type error at s", errs)
	}
}

func mustJSON(t *testing.T, js string) map[string]any {
	t.Helper()
	docs, err := schema.ReadDocuments("object", []byte(js))
	if err != nil || len(docs) != 1 {
		t.Fatalf("%s: %v", js, err)
	}
	return docs[0].Object
}
