package crdfake

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"
)

// Server-side apply: the apply patch is merged into the live object by
// the version's field manager (apimachinery's, over the CRD's types: list
// maps merge by key, sets as sets, atomic lists whole; conflicts with
// other managers unless forced), then the result goes through the create
// or update path as the apiserver's patch handler sends it: validated,
// prepared, stored.

func (s *semantics) apply(ctx context.Context, c client.WithWatch, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
	data, gvk, err := applyConfiguration(obj)
	if err != nil {
		return err
	}
	t, err := s.targetOf(ctx, gvk)
	if t == nil {
		if err != nil {
			return err
		}
		return c.Apply(ctx, obj, opts...)
	}
	o := &client.ApplyOptions{}
	o.ApplyOptions(opts)
	po := o.AsPatchOptions()
	if errs := validation.ValidatePatchOptions(po, types.ApplyPatchType); len(errs) > 0 {
		return apierrors.NewInvalid(kschema.GroupKind{Group: metav1.GroupName, Kind: "PatchOptions"}, "", errs)
	}
	u := unstructured.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		return err
	}
	out, err := s.applyRequest(ctx, t, u.GetNamespace(), u.GetName(), data, "", po)
	if err != nil {
		return err
	}
	return s.intoApplyConfiguration(out, obj)
}

// applyConfiguration is the JSON of an apply configuration and the kind
// it names.
func applyConfiguration(obj runtime.ApplyConfiguration) ([]byte, kschema.GroupVersionKind, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, kschema.GroupVersionKind{}, fmt.Errorf("failed to marshal apply configuration: %w", err)
	}
	var tm metav1.TypeMeta
	if err := json.Unmarshal(data, &tm); err != nil {
		return nil, kschema.GroupVersionKind{}, fmt.Errorf("failed to unmarshal apply configuration: %w", err)
	}
	return data, tm.GroupVersionKind(), nil
}

// intoApplyConfiguration makes obj the response, as the fake does: an
// unstructured apply configuration takes the object, any other the JSON.
func (s *semantics) intoApplyConfiguration(out map[string]any, obj runtime.ApplyConfiguration) error {
	u := &unstructured.Unstructured{}
	if err := s.decode(out, u); err != nil {
		return err
	}
	// client.ApplyConfigurationFromUnstructured's configuration embeds the
	// *unstructured.Unstructured, whose methods it has.
	if uc, ok := obj.(interface{ SetUnstructuredContent(map[string]any) }); ok {
		uc.SetUnstructuredContent(u.Object)
		return nil
	}
	data, err := json.Marshal(u.Object)
	if err != nil {
		return err
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("apply configuration %T is not a pointer", obj)
	}
	v.Elem().Set(reflect.Zero(v.Elem().Type()))
	return json.Unmarshal(data, obj)
}

// applyRequest is an apply patch (data, YAML or JSON) of the object
// namespace/name of the target's kind, of the main resource (sub "") or
// of the status subresource.
func (s *semantics) applyRequest(ctx context.Context, t *target, namespace, name string, data []byte, sub string, po *metav1.PatchOptions) (map[string]any, error) {
	patch, err := decodeApplyPatch(data)
	if err != nil {
		return nil, err
	}
	fm, err := t.k.fieldManager(t.v.name, sub)
	if err != nil {
		return nil, serverError(err)
	}
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	_, exists := s.store.objects[keyOf(t.k, namespace, name)]
	var w *update
	live := map[string]any{"apiVersion": t.gvk.GroupVersion().String(), "kind": t.gvk.Kind}
	if exists {
		if w, err = s.openUpdate(ctx, t, namespace, name); err != nil {
			return nil, err
		}
		live = w.live
	} else if sub != "" {
		// A subresource never creates its object.
		return nil, notFound(t, name)
	}
	force := po.Force != nil && *po.Force
	merged, err := fm.Apply(&unstructured.Unstructured{Object: deepCopy(live)}, &unstructured.Unstructured{Object: patch}, po.FieldManager, force)
	if err != nil {
		return nil, serverError(err)
	}
	out := merged.(*unstructured.Unstructured).Object
	if err := checkRequestName(t, out, namespace, name); err != nil {
		return nil, err
	}
	if !exists {
		delete(metadata(out), "resourceVersion")
		delete(metadata(out), "uid")
		delete(metadata(out), "creationTimestamp")
		created, err := s.prepareCreate(ctx, t, out, "")
		if err != nil {
			return nil, err
		}
		return s.commitCreate(ctx, t, created, isDryRun(po.DryRun))
	}
	updated, err := s.updateLocked(ctx, w, out, sub, "")
	if err != nil {
		return nil, err
	}
	return s.commitUpdate(ctx, w, updated, isDryRun(po.DryRun))
}

// decodeApplyPatch reads an apply patch as the apiserver does (YAML or
// JSON), integers as int64.
func decodeApplyPatch(data []byte) (map[string]any, error) {
	js, err := yaml.YAMLToJSON(data)
	var m map[string]any
	if err == nil {
		err = kjson.Unmarshal(js, &m)
	}
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// checkRequestName is the patch handler's check of the patched object
// against the request's name and namespace (taken from the object by a
// controller-runtime client, so they differ only when the patch changes
// them).
func checkRequestName(t *target, obj map[string]any, namespace, name string) error {
	if got := metaString(obj, "name"); got != name {
		return apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", got, name))
	}
	md := metadata(obj)
	switch ns := metaString(obj, "namespace"); {
	case !t.k.namespaced:
		delete(md, "namespace")
	case ns == "":
		if namespace != "" {
			md["namespace"] = namespace
		}
	case ns != namespace:
		return apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	return nil
}
