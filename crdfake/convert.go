package crdfake

import (
	"encoding/json"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// toMap is the request body a real client sends for obj: its JSON
// encoding, decoded as the apiserver decodes it (integers as int64), with
// the apiVersion and kind of gvk when the object does not carry them (a
// typed object's TypeMeta is often empty). A typed object is sent as
// encoding/json writes it: a field whose tag lacks omitempty is sent with
// its zero value, as a real client sends it, and nothing else is added.
func toMap(obj client.Object, gvk kschema.GroupVersionKind) (map[string]any, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("crdfake: cannot encode %T %q as JSON: %w", obj, obj.GetName(), err)
	}
	var m map[string]any
	if err := kjson.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("crdfake: cannot decode the JSON of %T %q: %w", obj, obj.GetName(), err)
	}
	if m == nil {
		return nil, fmt.Errorf("crdfake: %T %q encodes as null", obj, obj.GetName())
	}
	if s, _ := m["apiVersion"].(string); s == "" {
		m["apiVersion"] = gvk.GroupVersion().String()
	}
	if s, _ := m["kind"].(string); s == "" {
		m["kind"] = gvk.Kind
	}
	return m, nil
}

// fromMap makes obj the object m, as a real client decodes a response
// into it: an unstructured object takes m itself; a typed object is decoded
// into a zero value of its type and then replaced (left unchanged on error), so that no field of the request survives that
// the response does not have.
func fromMap(m map[string]any, obj client.Object) error {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		u.Object = m
		return nil
	}
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("crdfake: cannot encode the stored object: %w", err)
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("crdfake: %T is not a pointer to an object", obj)
	}
	fresh := reflect.New(v.Elem().Type())
	if err := json.Unmarshal(data, fresh.Interface()); err != nil {
		return fmt.Errorf("crdfake: the object cannot be decoded into %T: %w", obj, err)
	}
	v.Elem().Set(fresh.Elem())
	return nil
}
