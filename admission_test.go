package crdschema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	kjson "k8s.io/apimachinery/pkg/util/json"

	crdschema "github.com/crdschema/crdschema"
)

// applyPatch applies an RFC 6902 patch of add, remove and replace
// operations to a JSON document, for the tests.
func applyPatch(t *testing.T, doc map[string]any, patch []byte) map[string]any {
	t.Helper()
	var ops []struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(patch, &ops); err != nil {
		t.Fatalf("patch %s: %v", patch, err)
	}
	var root any = doc
	for _, op := range ops {
		steps := strings.Split(op.Path, "/")[1:]
		for i, s := range steps {
			steps[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		}
		var value any
		if op.Op != "remove" {
			if op.Value == nil {
				t.Fatalf("%s %s without value", op.Op, op.Path)
			}
			if err := kjson.Unmarshal(op.Value, &value); err != nil {
				t.Fatal(err)
			}
		}
		parent := root
		for _, s := range steps[:len(steps)-1] {
			switch p := parent.(type) {
			case map[string]any:
				parent = p[s]
			case []any:
				i, _ := strconv.Atoi(s)
				parent = p[i]
			}
		}
		last := steps[len(steps)-1]
		switch p := parent.(type) {
		case map[string]any:
			_, exists := p[last]
			switch {
			case op.Op == "remove" && exists:
				delete(p, last)
			case op.Op == "add" && !exists, op.Op == "replace" && exists:
				p[last] = value
			default:
				t.Fatalf("%s %s: the path does not fit the document", op.Op, op.Path)
			}
		case []any:
			i, err := strconv.Atoi(last)
			if err != nil || i >= len(p) || op.Op != "replace" {
				t.Fatalf("%s %s: unexpected list operation", op.Op, op.Path)
			}
			p[i] = value
		default:
			t.Fatalf("%s %s: no such parent", op.Op, op.Path)
		}
	}
	return doc
}

// widgetSchema is version v1 of widgetCRD, which the apiserver accepts.
func widgetSchema(t testing.TB) *crdschema.Schema {
	t.Helper()
	crd, err := crdschema.LoadCRD([]byte(widgetCRD))
	if err != nil {
		t.Fatal(err)
	}
	if errs := crd.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	s, err := crd.Version("v1")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPatchTurnsRequestIntoResult applies the patch to the request and
// gets the Result's object, for requests decoded in every way.
func TestPatchTurnsRequestIntoResult(t *testing.T) {
	s := widgetSchema(t)
	requests := map[string]string{
		"pruned, defaulted, coerced": `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","labels":{},"creationTimestamp":null,"x/y":1},
			"spec":{"replicas":3,"tags":["a"],"extra":{"deep":[1,2]},"a/b~c":1,"size":"small"},"status":{"replicas":1}}`,
		"nothing to change":      `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"level":2},"status":{"replicas":1}}`,
		"lists of other lengths": `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","finalizers":[]},"spec":{"level":2,"tags":["a",{"x":1}]}}`,
	}
	for name, text := range requests {
		for dec, decode := range map[string]func([]byte, *map[string]any) error{
			"apiserver":     func(b []byte, m *map[string]any) error { return kjson.Unmarshal(b, m) },
			"encoding/json": func(b []byte, m *map[string]any) error { return json.Unmarshal(b, m) },
		} {
			var req map[string]any
			if err := decode([]byte(text), &req); err != nil {
				t.Fatal(err)
			}
			r := s.Apply(req)
			patch, err := r.Patch(req)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if name == "nothing to change" && string(patch) != "[]" {
				t.Errorf("%s (%s): patch %s, want []", name, dec, patch)
			}
			var patched map[string]any
			if err := decode([]byte(text), &patched); err != nil {
				t.Fatal(err)
			}
			patched = applyPatch(t, patched, patch)
			// Compare as JSON text: numbers by value.
			got, _ := json.Marshal(patched)
			want, _ := json.Marshal(r.Object)
			if string(got) != string(want) {
				t.Errorf("%s (%s): patched request\n%s\nwant the result\n%s\npatch %s", name, dec, got, want, patch)
			}
		}
	}
}

func TestPatchOfRejectedRequest(t *testing.T) {
	s := widgetSchema(t)
	req := map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": "not a map"}
	r := s.Apply(req)
	if r.Object != nil {
		t.Fatalf("malformed metadata accepted: %v", r.Object)
	}
	if _, err := r.Patch(req); err == nil {
		t.Error("Patch of a rejected request: no error")
	}
}

func TestWarnings(t *testing.T) {
	r := crdschema.Result{Pruned: []string{"metadata.foo", "spec.list[0].bar"}}
	want := []string{`unknown field "metadata.foo"`, `unknown field "spec.list[0].bar"`}
	if got := r.Warnings(); !cmp.Equal(got, want) {
		t.Errorf("Warnings() = %q, want %q", got, want)
	}
	if got := (crdschema.Result{Pruned: []string{}}).Warnings(); got != nil {
		t.Errorf("no pruned fields: %q", got)
	}
}

// widgetObject is a Go type for Widgets: fields with defaults are pointers
// or omitempty, so that their absence reaches the schema.
type widgetObject struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name   string            `json:"name"`
		Labels map[string]string `json:"labels,omitempty"`
	} `json:"metadata"`
	Spec struct {
		Level    *int     `json:"level,omitempty"`
		Replicas int      `json:"replicas"`
		Tags     []string `json:"tags,omitempty"`
	} `json:"spec"`
}

func TestDefaultInto(t *testing.T) {
	s := widgetSchema(t)
	var w widgetObject
	w.APIVersion, w.Kind, w.Metadata.Name = "example.com/v1", "Widget", "w"
	w.Metadata.Labels = map[string]string{"app": "web"}
	if err := s.DefaultInto(&w); err != nil {
		t.Fatal(err)
	}
	if w.Spec.Level == nil || *w.Spec.Level != 2 {
		t.Errorf("spec.level = %v, want the default 2", w.Spec.Level)
	}
	if w.Metadata.Labels["app"] != "web" || w.Spec.Replicas != 0 {
		t.Errorf("other fields changed: %+v", w)
	}
	level := 5
	w.Spec.Level = &level
	if err := s.DefaultInto(&w); err != nil || *w.Spec.Level != 5 {
		t.Errorf("a set field was defaulted: %v, %v", *w.Spec.Level, err)
	}
	for _, bad := range []any{nil, w, (*widgetObject)(nil), new([]string), new(chan int)} {
		if err := s.DefaultInto(bad); err == nil {
			t.Errorf("DefaultInto(%T): no error", bad)
		}
	}
}

func ExampleSchema_DefaultInto() {
	crd, err := crdschema.LoadCRD([]byte(cronTabCRD))
	if err != nil {
		panic(err)
	}
	s, err := crd.Version("v1")
	if err != nil {
		panic(err)
	}
	type cronTab struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Spec       struct {
			CronSpec string `json:"cronSpec,omitempty"`
			Image    string `json:"image"`
			Replicas *int   `json:"replicas,omitempty"`
		} `json:"spec"`
	}
	ct := cronTab{APIVersion: "stable.example.com/v1", Kind: "CronTab"}
	ct.Spec.Image = "my-awesome-cron-image"
	if err := s.DefaultInto(&ct); err != nil {
		panic(err)
	}
	fmt.Printf("%q %d\n", ct.Spec.CronSpec, *ct.Spec.Replicas)
	// Output:
	// "5 0 * * *" 1
}

// FuzzPatchAndDecodings checks, for any JSON object: the same answer
// whether the bytes are decoded by the apiserver's decoder (ApplyJSON) or
// by encoding/json with UseNumber (Apply; json.Number keeps the text, so
// "3.0" stays a float as in the apiserver), and a patch that turns the
// request into the result.
func FuzzPatchAndDecodings(f *testing.F) {
	for _, seed := range []string{
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","labels":{"a":"b"}},"spec":{"replicas":3,"ratio":1.5,"tags":["a","a"],"extra":{"x":[1,2]}},"status":{"replicas":1}}`,
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","creationTimestamp":null,"finalizers":[]},"spec":{"level":null,"a/b~c":1}}`,
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":3.0,"big":12345678901234567890}}`,
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":"x"}`,
	} {
		f.Add([]byte(seed))
	}
	s := widgetSchema(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) || len(data) > 4096 {
			return
		}
		want, err := s.ApplyJSON(data)
		if err != nil {
			return // not one JSON object, or one the apiserver's decoder refuses
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil || obj == nil {
			return
		}
		got := s.Apply(obj)
		// Only the request body can hold a key twice: a decoded object
		// has lost the duplicates ApplyJSON reports.
		want.Duplicates = nil
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Apply of the UseNumber decoding differs from ApplyJSON (-ApplyJSON +Apply):\n%s", diff)
		}
		if want.Object == nil {
			return
		}
		patch, err := got.Patch(obj)
		if err != nil {
			t.Fatal(err)
		}
		var fresh map[string]any
		if err := kjson.Unmarshal(data, &fresh); err != nil {
			t.Fatal(err)
		}
		patched, _ := json.Marshal(applyPatch(t, fresh, patch))
		result, _ := json.Marshal(got.Object)
		if !jsonEqual(patched, result) {
			t.Fatalf("patched request\n%s\nwant the result\n%s\npatch %s", patched, result, patch)
		}
	})
}

// jsonEqual compares two JSON texts as values, numbers by value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return cmp.Equal(x, y)
}

// TestWarningsOrderDeprecationDuplicatesPruned pins the order of
// Result.Warnings when all three kinds meet (convert's deprecation and
// lint's duplicate fields were written apart): the deprecation warning
// first, then the fields the body holds twice, then the pruned ones.
func TestWarningsOrderDeprecationDuplicatesPruned(t *testing.T) {
	crd, err := crdschema.LoadCRD([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1beta1
    served: true
    storage: true
    deprecated: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := crd.Version("v1beta1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.ApplyJSON([]byte(`{"apiVersion":"stable.example.com/v1beta1","kind":"CronTab","metadata":{"name":"a"},"spec":{"replicas":1,"replicas":2,"bogus":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"stable.example.com/v1beta1 CronTab is deprecated",
		`duplicate field "spec.replicas"`,
		`unknown field "spec.bogus"`,
	}
	if diff := cmp.Diff(want, r.Warnings()); diff != "" {
		t.Errorf("Warnings (-want +got):\n%s", diff)
	}
}
