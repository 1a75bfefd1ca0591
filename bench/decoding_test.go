package bench

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	kjson "k8s.io/apimachinery/pkg/util/json"

	crdschema "github.com/crdschema/crdschema"
)

// TestDefaultUnstructuredConverterNumbers checks that objects made by
// runtime.DefaultUnstructuredConverter from Go types (int32 replicas,
// map[string]string labels, resource.Quantity) get from every entry point
// the answer the same JSON bytes get. (The main module tests the other
// decodings; this one needs apimachinery's runtime package, which only this
// module links.)
func TestDefaultUnstructuredConverterNumbers(t *testing.T) {
	crd, err := crdschema.LoadCRD([]byte(`
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
              tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              memory: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
          status:
            type: object
            properties:
              replicas: {type: integer}
`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := crd.Version("v1")
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","labels":{"app":"web"}},
		"spec":{"replicas":7,"ratio":1.5,"tags":["a","a"],"memory":"1Gi"},"status":{"replicas":2}}`)
	type widget struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name   string            `json:"name"`
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
		Spec struct {
			Replicas int32             `json:"replicas"`
			Ratio    float64           `json:"ratio"`
			Tags     []string          `json:"tags"`
			Memory   resource.Quantity `json:"memory"`
		} `json:"spec"`
		Status struct {
			Replicas int `json:"replicas"`
		} `json:"status"`
	}
	var ref map[string]any
	if err := kjson.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	var w widget
	if err := json.Unmarshal(data, &w); err != nil {
		t.Fatal(err)
	}
	converted, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&w)
	if err != nil {
		t.Fatal(err)
	}
	for name, entry := range map[string]func(map[string]any) any{
		"Apply":    func(o map[string]any) any { return s.Apply(o) },
		"Prune":    func(o map[string]any) any { return s.Prune(o) },
		"Default":  func(o map[string]any) any { return s.Default(o) },
		"Validate": func(o map[string]any) any { return s.Validate(o) },
	} {
		want, got := entry(ref), entry(converted)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the converter's object differs from the JSON bytes' (-bytes +converter):\n%s", name, diff)
		}
	}
	if r := s.Apply(converted); len(r.Errors) != 2 {
		t.Errorf("Apply: %v, want the replicas maximum and the set duplicate", r.Errors)
	}
}
