package crdschema_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"

	crdschema "github.com/crdschema/crdschema"
)

const celSchema = `{"type":"object","properties":{"spec":{"type":"object","required":["mode"],
 "properties":{"mode":{"type":"string","enum":["a","b"]},"replicas":{"type":"integer"},
  "items":{"type":"array","maxItems":5,"items":{"type":"string","maxLength":10},"x-kubernetes-validations":[{"rule":"self.all(x, x != 'bad')","message":"no bad items","reason":"FieldValueForbidden"}]}},
 "x-kubernetes-validations":[{"rule":"self.mode != 'b' || has(self.replicas)","messageExpression":"'mode ' + self.mode + ' needs replicas'","fieldPath":".replicas","reason":"FieldValueRequired"}]}}}`

// TestApplyCEL checks the CEL step of Apply: rule errors after the OpenAPI
// validation, and the one root error instead of them when a blocking error
// was found.
func TestApplyCEL(t *testing.T) {
	s, err := crdschema.ParseSchema([]byte(celSchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		spec string
		want []string
	}{
		{`{"mode":"a"}`, nil},
		{`{"mode":"b"}`, []string{"spec.replicas: Required value: mode b needs replicas"}},
		{`{"mode":"a","items":["ok","bad"]}`, []string{"spec.items: Forbidden: no bad items"}},
		// A blocking error (an unsupported value) skips the rules.
		{`{"mode":"c","items":["bad"]}`, []string{
			`<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`,
			`spec.mode: Unsupported value: "c": supported values: "a", "b"`}},
	} {
		obj := map[string]any{"apiVersion": "x/v1", "kind": "X", "metadata": map[string]any{"name": "n"}}
		var spec map[string]any
		if err := kjson.Unmarshal([]byte(tc.spec), &spec); err != nil {
			t.Fatal(err)
		}
		obj["spec"] = spec
		var got []string
		for _, e := range s.Apply(obj).Errors {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.spec, got, tc.want)
		}
	}
}

// TestApplyCELUntypedRulesOnly: a schema whose only rule sits where the
// CEL type of its parent has no field for it (below an embedded resource's
// metadata, typed with name and generateName alone) has no rule to
// evaluate; the apiserver then has no CEL validator at all, and a blocking
// error does not add the error saying that rules were skipped.
func TestApplyCELUntypedRulesOnly(t *testing.T) {
	s, err := crdschema.ParseSchema([]byte(`{"type":"object","required":["spec"],"properties":{"spec":{"type":"object","properties":{
 "e":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"object","properties":{
  "labels":{"type":"object","additionalProperties":{"type":"string"},"x-kubernetes-validations":[{"rule":"false"}]}}}}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if errs := s.Errors(); len(errs) > 0 {
		t.Fatalf("the apiserver accepts the schema; got %v", errs)
	}
	r := s.Apply(map[string]any{"apiVersion": "x/v1", "kind": "X", "metadata": map[string]any{"name": "n"}})
	var got []string
	for _, e := range r.Errors {
		got = append(got, e.Error())
	}
	if want := []string{"spec: Required value"}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestCELSixtyFourGoroutines evaluates one schema's rules from 64 goroutines;
// run with -race (CI does).
func TestCELSixtyFourGoroutines(t *testing.T) {
	s, err := crdschema.ParseSchema([]byte(celSchema))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				r := s.Apply(map[string]any{"apiVersion": "x/v1", "kind": "X", "metadata": map[string]any{"name": fmt.Sprintf("o-%d-%d", g, i)},
					"spec": map[string]any{"mode": "b", "items": []any{"bad"}}})
				if len(r.Errors) != 2 {
					errs <- fmt.Sprintf("goroutine %d: %v", g, r.Errors)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
