package crdfake

import (
	"context"
	"strconv"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The read path: Get, List and Watch serve the one stored object of a
// name at the version the request names, through the storage read path.

func (s *semantics) get(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	t, err := s.route(ctx, c, obj)
	if t == nil {
		if err != nil {
			return err
		}
		return c.Get(ctx, key, obj, opts...)
	}
	s.store.mu.Lock()
	stored, ok := s.store.objects[keyOf(t.k, key.Namespace, key.Name)]
	s.store.mu.Unlock()
	if !ok {
		return notFound(t, key.Name)
	}
	out, err := s.read(ctx, t, stored)
	if err != nil {
		return err
	}
	return s.decode(out, obj)
}

func (s *semantics) list(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
	t, err := s.route(ctx, c, list)
	if t == nil {
		if err != nil {
			return err
		}
		return c.List(ctx, list, opts...)
	}
	o := &client.ListOptions{}
	o.ApplyOptions(opts)
	ff, err := s.splitFields(t, o.FieldSelector)
	if err != nil {
		return err
	}
	newItem := itemFactory(c, list, t)
	s.store.mu.Lock()
	keys := s.store.list(t.k, o.Namespace)
	stored := make([]map[string]any, len(keys))
	for i, key := range keys {
		stored[i] = s.store.objects[key]
	}
	rv := strconv.FormatUint(s.store.rv, 10)
	s.store.mu.Unlock()

	items := make([]any, 0, len(stored))
	for _, obj := range stored {
		out, err := s.read(ctx, t, obj)
		if err != nil {
			return err
		}
		if s.selects(t, out, o.LabelSelector, ff.server) && s.indexSelects(ff, newItem, out) {
			items = append(items, out)
		}
	}
	m := map[string]any{
		"apiVersion": t.gvk.GroupVersion().String(),
		"kind":       t.k.listKind,
		"metadata":   map[string]any{"resourceVersion": rv},
		"items":      items,
	}
	return s.decodeList(m, list)
}

// indexSelects tells whether an object read at the target's version
// matches the indexed part of a field selector, decoded as the list's
// items for the index functions.
func (s *semantics) indexSelects(ff *fieldFilter, newItem func() client.Object, obj map[string]any) bool {
	if len(ff.indexed) == 0 {
		return true
	}
	item := newItem()
	if err := s.decode(deepCopy(obj), item); err != nil {
		return false
	}
	return ff.matches(item)
}

// decodeList is decode for a list: an unstructured list takes the items
// as objects, a typed or partial metadata list their JSON.
func (s *semantics) decodeList(m map[string]any, list client.ObjectList) error {
	if u, ok := list.(*unstructured.UnstructuredList); ok {
		u.Object = map[string]any{"apiVersion": m["apiVersion"], "kind": m["kind"], "metadata": m["metadata"]}
		u.Items = nil
		for _, item := range m["items"].([]any) {
			obj := &unstructured.Unstructured{}
			if err := s.decode(item.(map[string]any), obj); err != nil {
				return err
			}
			u.Items = append(u.Items, *obj)
		}
		return nil
	}
	if !s.returnManaged {
		items := m["items"].([]any)
		for i, item := range items {
			if md, ok := item.(map[string]any)["metadata"].(map[string]any); ok && md["managedFields"] != nil {
				cp := shallowWithMetadata(item.(map[string]any))
				delete(cp["metadata"].(map[string]any), "managedFields")
				items[i] = cp
			}
		}
	}
	if err := fromMap(m, list); err != nil {
		return err
	}
	if _, partial := list.(*metav1.PartialObjectMetadataList); partial {
		return nil
	}
	list.GetObjectKind().SetGroupVersionKind(kschema.GroupVersionKind{})
	return meta.EachListItem(list, func(o runtime.Object) error {
		o.GetObjectKind().SetGroupVersionKind(kschema.GroupVersionKind{})
		return nil
	})
}

func (s *semantics) watch(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) (watch.Interface, error) {
	t, err := s.route(ctx, c, list)
	if t == nil {
		if err != nil {
			return nil, err
		}
		return c.Watch(ctx, list, opts...)
	}
	o := &client.ListOptions{}
	o.ApplyOptions(opts)
	if err := checkFieldSelector(t, o.FieldSelector); err != nil {
		return nil, err
	}
	return s.openWatch(t, o, itemFactory(c, list, t)), nil
}
