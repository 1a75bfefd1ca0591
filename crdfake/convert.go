package crdfake

import (
	"encoding/json"
	"fmt"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
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
func toMap(obj runtime.Object, gvk kschema.GroupVersionKind) (map[string]any, error) {
	name := ""
	if o, ok := obj.(client.Object); ok {
		name = o.GetName()
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("crdfake: cannot encode %T %q as JSON: %w", obj, name, err)
	}
	var m map[string]any
	if err := kjson.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("crdfake: cannot decode the JSON of %T %q: %w", obj, name, err)
	}
	if m == nil {
		return nil, fmt.Errorf("crdfake: %T %q encodes as null", obj, name)
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
func fromMap(m map[string]any, obj runtime.Object) error {
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

func newUnstructured(gvk kschema.GroupVersionKind) client.Object {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u
}

func newPartial(gvk kschema.GroupVersionKind) client.Object {
	p := &metav1.PartialObjectMetadata{}
	p.SetGroupVersionKind(gvk)
	return p
}

// metadata is obj's metadata, created when absent.
func metadata(obj map[string]any) map[string]any {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		md = map[string]any{}
		obj["metadata"] = md
	}
	return md
}

func metaString(obj map[string]any, k string) string {
	md, _ := obj["metadata"].(map[string]any)
	s, _ := md[k].(string)
	return s
}

func copyKey(dst, src map[string]any, k string) {
	if v, ok := src[k]; ok {
		dst[k] = v
	}
}

func finalizers(obj map[string]any) []string {
	md, _ := obj["metadata"].(map[string]any)
	list, _ := md["finalizers"].([]any)
	out := make([]string, 0, len(list))
	for _, f := range list {
		if s, ok := f.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func deepCopy(m map[string]any) map[string]any {
	return runtime.DeepCopyJSON(m)
}

// sameJSON tells whether two objects of the store are the same bytes in
// etcd: both come out of the same decoding (integers as int64), so Go
// equality is JSON equality, without encoding them.
func sameJSON(a, b map[string]any) bool {
	return reflect.DeepEqual(a, b)
}

// keepManagedFieldsTimes is the generic registry's
// IgnoreManagedFieldsTimestampsTransformer: when an update changes
// nothing but the times of its managed fields entries, the old times are
// kept, so that the update is no change at all.
func keepManagedFieldsTimes(obj, live map[string]any) {
	entries, _ := metadata(obj)["managedFields"].([]any)
	old, _ := metadata(live)["managedFields"].([]any)
	if len(entries) == 0 || len(entries) != len(old) {
		return
	}
	restored := make([]any, len(entries))
	for i, e := range entries {
		em, ok1 := e.(map[string]any)
		om, ok2 := old[i].(map[string]any)
		if !ok1 || !ok2 {
			return
		}
		cp := make(map[string]any, len(em))
		for k, v := range em {
			cp[k] = v
		}
		copyOrDrop(cp, om, "time")
		restored[i] = cp
	}
	cand := make(map[string]any, len(obj))
	for k, v := range obj {
		cand[k] = v
	}
	md := make(map[string]any, len(metadata(obj)))
	for k, v := range metadata(obj) {
		md[k] = v
	}
	md["managedFields"] = restored
	cand["metadata"] = md
	if sameJSON(cand, live) {
		metadata(obj)["managedFields"] = restored
	}
}

func copyOrDrop(dst, src map[string]any, k string) {
	if v, ok := src[k]; ok {
		dst[k] = v
	} else {
		delete(dst, k)
	}
}
