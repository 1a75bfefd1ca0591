package crdschema_test

import (
	"os"
	"reflect"
	"testing"

	crdschema "github.com/crdschema/crdschema"
)

func loadSampleCRD(t testing.TB) *crdschema.CRD {
	t.Helper()
	data, err := os.ReadFile("testdata/sample/widgets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crd, err := crdschema.LoadCRD(data)
	if err != nil {
		t.Fatal(err)
	}
	if errs := crd.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	return crd
}

// TestSamplesAreValidAndDeterministic checks that every sample passes the
// create validation of its version, CEL rule included, and that a seed
// gives the same objects twice.
func TestSamplesAreValidAndDeterministic(t *testing.T) {
	crd := loadSampleCRD(t)
	s, err := crd.Version("v1")
	if err != nil {
		t.Fatal(err)
	}
	objs := s.Samples(7, 20)
	if len(objs) != 20 {
		t.Fatalf("got %d samples, want 20", len(objs))
	}
	fields := map[string]bool{}
	for _, obj := range objs {
		r := s.Apply(obj)
		if len(r.Errors) > 0 || len(r.Pruned) > 0 {
			t.Errorf("sample %v: errors %v, pruned %v", obj, r.Errors, r.Pruned)
		}
		spec, _ := obj["spec"].(map[string]any)
		for k := range spec {
			fields[k] = true
		}
	}
	for _, k := range []string{"size", "ratio", "name", "color", "id", "when", "address", "port", "tags", "ports", "labels", "template", "extra", "note"} {
		if !fields[k] {
			t.Errorf("no sample has spec.%s", k)
		}
	}
	if again := s.Samples(7, 20); !reflect.DeepEqual(objs, again) {
		t.Error("same seed, different samples")
	}
	if other := s.Samples(8, 20); reflect.DeepEqual(objs, other) {
		t.Error("another seed, same samples")
	}
	if objs[0]["apiVersion"] != "example.com/v1" || objs[0]["kind"] != "Widget" {
		t.Errorf("sample of a CRD version: apiVersion %v, kind %v", objs[0]["apiVersion"], objs[0]["kind"])
	}
}

// TestBareSchemaSamples: a bare schema names no group, version or kind:
// its samples carry neither apiVersion nor kind, and its create accepts
// them.
func TestBareSchemaSamples(t *testing.T) {
	s, err := crdschema.ParseSchema([]byte(`{type: object, properties: {spec: {type: object, required: [count], properties: {count: {type: integer, minimum: 3}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	objs := s.Samples(1, 3)
	if len(objs) != 3 {
		t.Fatalf("%d samples, want 3", len(objs))
	}
	for _, obj := range objs {
		_, hasAPIVersion := obj["apiVersion"]
		_, hasKind := obj["kind"]
		n, _ := obj["spec"].(map[string]any)["count"].(int64)
		if hasAPIVersion || hasKind || n < 3 {
			t.Errorf("sample %v", obj)
		}
		if r := s.Apply(obj); len(r.Errors) > 0 {
			t.Errorf("sample %v: %v", obj, r.Errors)
		}
	}
}
