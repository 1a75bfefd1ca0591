package crdschema_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/embedded"
)

// The rule for Go values in every public package (issue 19, finding 8;
// ../shared/findings/typed-go-values/): a value is taken as the JSON
// encoding/json writes for it. A map[string]string of labels is that
// object; a nil []any or map[string]any is null.

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
