package crdschema_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// widgetCRD has what tells number types apart: a scale subresource (its
// replica paths must hold int64), integer and number fields with bounds, an
// enum of numbers, a list-type set, and labels.
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
    subresources:
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, maximum: 5}
              ratio: {type: number, enum: [0.5, 1.5, 3]}
              big: {type: integer}
              level: {type: integer, default: 2}
              tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              size: {type: string, enum: [small, large]}
              memory: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
          status:
            type: object
            properties:
              replicas: {type: integer}
`

// widgetJSON holds an unknown field, a duplicate in a set, a value beyond a
// maximum and a value outside an enum, so that every part of the Result is
// exercised.
const widgetJSON = `{"apiVersion": "example.com/v1", "kind": "Widget",
 "metadata": {"name": "w", "labels": {"app": "web"}},
 "spec": {"replicas": 7, "ratio": 3, "big": 12345678901, "tags": ["a", "b", "a"],
          "size": "huge", "memory": "1Gi", "extra": 1},
 "status": {"replicas": 2}}`

// widget is widgetJSON as Go types. (bench/decoding_test.go checks what
// runtime.DefaultUnstructuredConverter makes of it; importing the converter
// here would add six modules to the main module's requirements.)
type widget struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name   string            `json:"name"`
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		Replicas int32    `json:"replicas"`
		Ratio    float64  `json:"ratio"`
		Big      int64    `json:"big"`
		Tags     []string `json:"tags"`
		Size     string   `json:"size"`
		Memory   quantity `json:"memory"`
		Extra    int      `json:"extra"`
	} `json:"spec"`
	Status struct {
		Replicas int `json:"replicas"`
	} `json:"status"`
}

// quantity stands for the types with their own JSON form (such as
// resource.Quantity): a string in JSON.
type quantity struct{ s string }

func (q quantity) MarshalJSON() ([]byte, error) { return json.Marshal(q.s) }

func (q *quantity) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &q.s) }

// decodings returns widgetJSON decoded every way a caller may decode it
// (and Go values built by hand);
// "apiserver" is the apiserver's own JSON decoder, the reference.
func decodings(t *testing.T) map[string]func() map[string]any {
	t.Helper()
	data := []byte(widgetJSON)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	return map[string]func() map[string]any{
		"apiserver": func() map[string]any {
			var m map[string]any
			must(kjson.Unmarshal(data, &m))
			return m
		},
		"encoding/json": func() map[string]any {
			var m map[string]any
			must(json.Unmarshal(data, &m))
			return m
		},
		"encoding/json UseNumber": func() map[string]any {
			var m map[string]any
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			must(dec.Decode(&m))
			return m
		},
		"sigs.k8s.io/yaml": func() map[string]any {
			var m map[string]any
			must(yaml.Unmarshal(data, &m))
			return m
		},
		"Go struct": func() map[string]any {
			var w widget
			must(json.Unmarshal(data, &w))
			return map[string]any{"apiVersion": w.APIVersion, "kind": w.Kind, "metadata": w.Metadata, "spec": w.Spec, "status": w.Status}
		},
		"Go types": func() map[string]any {
			return map[string]any{
				"apiVersion": "example.com/v1", "kind": "Widget",
				"metadata": map[string]any{"name": "w", "labels": map[string]string{"app": "web"}},
				"spec": map[string]any{"replicas": 7, "ratio": float32(3), "big": uint64(12345678901),
					"tags": []string{"a", "b", "a"}, "size": "huge", "memory": quantity{"1Gi"}, "extra": int8(1)},
				"status": map[string]int{"replicas": 2},
			}
		},
	}
}

// TestNumbersEveryEntryPoint decodes the same bytes every way and checks
// that each entry point answers exactly as for the apiserver's decoding.
func TestNumbersEveryEntryPoint(t *testing.T) {
	s := widgetSchema(t)
	entryPoints := map[string]func(map[string]any) any{
		"Apply": func(o map[string]any) any { return s.Apply(o) },
		"ApplyJSON": func(o map[string]any) any {
			b, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.ApplyJSON(b)
			if err != nil {
				t.Fatal(err)
			}
			return r
		},
		"ApplyUpdate": func(o map[string]any) any {
			old := decodings(t)["apiserver"]()
			old["metadata"].(map[string]any)["resourceVersion"] = "1"
			return s.ApplyUpdate(o, old)
		},
		"ApplyUpdate, old decoded too": func(o map[string]any) any {
			old := jsonvalue.DeepCopy(o).(map[string]any)
			return s.ApplyUpdate(decodings(t)["apiserver"](), old)
		},
		"ApplyStatusUpdate": func(o map[string]any) any {
			return s.ApplyStatusUpdate(o, decodings(t)["apiserver"]())
		},
		"Prune":    func(o map[string]any) any { return s.Prune(o) },
		"Default":  func(o map[string]any) any { return s.Default(o) },
		"Validate": func(o map[string]any) any { return s.Validate(o) },
	}
	decs := decodings(t)
	for name, entry := range entryPoints {
		want := entry(decs["apiserver"]())
		if r, ok := want.(crdschema.Result); ok && name == "Apply" {
			// The reference answer itself must be the apiserver's.
			wantErrs := []string{"spec.replicas FieldValueInvalid", "spec.size FieldValueNotSupported", "spec.tags[2] FieldValueDuplicate"}
			if got := pairs(r.Errors); !cmp.Equal(got, wantErrs) {
				t.Errorf("Apply of the apiserver's decoding: errors %v, want %v", got, wantErrs)
			}
			if !cmp.Equal(r.Pruned, []string{"spec.extra"}) {
				t.Errorf("Apply of the apiserver's decoding: pruned %v", r.Pruned)
			}
		}
		for dec, decode := range decs {
			if dec == "apiserver" {
				continue
			}
			got := entry(decode())
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s of the %s decoding differs from the apiserver's decoding (-want +got):\n%s", name, dec, diff)
			}
		}
	}
}

func pairs(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Field+" "+string(e.Type))
	}
	return out
}

// TestScaleReplicasFloat64 is the bug a webhook author hit: replicas
// decoded by encoding/json as float64 failed the scale subresource's
// accessor ("3 is of the type float64, expected int64").
func TestScaleReplicasFloat64(t *testing.T) {
	s := widgetSchema(t)
	var obj map[string]any
	if err := json.Unmarshal([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":3},"status":{"replicas":1}}`), &obj); err != nil {
		t.Fatal(err)
	}
	if r := s.Apply(obj); len(r.Errors) > 0 {
		t.Errorf("Apply: %v", r.Errors)
	}
	if errs := s.Validate(obj); len(errs) > 0 {
		t.Errorf("Validate: %v", errs)
	}
	if _, isFloat := obj["spec"].(map[string]any)["replicas"].(float64); !isFloat {
		t.Errorf("the caller's object was changed")
	}
}

// TestValuesWithoutJSONForm: a value JSON cannot hold is named with its
// path and Go type, never a panic.
func TestValuesWithoutJSONForm(t *testing.T) {
	s := widgetSchema(t)
	for _, tc := range []struct {
		name  string
		value any
		path  string
		want  string
	}{
		{"channel", make(chan int), "spec.tags[1]", "chan int"},
		{"function", func() {}, "spec.tags[1]", "func()"},
		{"int keys", map[int]string{1: "a"}, "spec.tags[1]", "map[int]string"},
		{"NaN", nanValue(), "spec.tags[1]", "float64"},
	} {
		obj := map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"},
			"spec": map[string]any{"tags": []any{"a", tc.value}}}
		for name, errs := range map[string]field.ErrorList{
			"Apply":       s.Apply(obj).Errors,
			"ApplyUpdate": s.ApplyUpdate(obj, obj).Errors,
			"Prune":       s.Prune(obj).Errors,
			"Default":     s.Default(obj).Errors,
			"Validate":    s.Validate(obj),
		} {
			if len(errs) != 1 || errs[0].Field != tc.path || errs[0].Type != field.ErrorTypeInvalid || !strings.Contains(errs[0].Detail, tc.want) {
				t.Errorf("%s, %s: %v, want one Invalid error at %s naming %s", tc.name, name, errs, tc.path, tc.want)
			}
		}
	}
}

func nanValue() float64 {
	zero := 0.0
	return zero / zero
}
