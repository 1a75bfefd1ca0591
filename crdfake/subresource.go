package crdfake

import (
	"context"
	"errors"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The status and scale subresources of the versions that have them; any
// other subresource of a custom resource is NotFound, as the apiserver
// answers it.

func (s *semantics) subResourceGet(ctx context.Context, c client.Client, sub string, obj, subObj client.Object, opts ...client.SubResourceGetOption) error {
	t, err := s.route(ctx, c, obj)
	if t == nil {
		if err != nil {
			return err
		}
		return c.SubResource(sub).Get(ctx, obj, subObj, opts...)
	}
	if !t.has(sub) {
		return notFound(t, obj.GetName())
	}
	s.store.mu.Lock()
	stored, ok := s.store.objects[keyOf(t.k, obj.GetNamespace(), obj.GetName())]
	s.store.mu.Unlock()
	if !ok {
		return notFound(t, obj.GetName())
	}
	live, err := s.read(ctx, t, stored)
	if err != nil {
		return err
	}
	if sub == "scale" {
		if live, err = scaleOfLive(t, live); err != nil {
			return err
		}
	}
	return s.decode(live, subObj)
}

// has tells whether the target's version has a subresource.
func (t *target) has(sub string) bool {
	switch sub {
	case "status":
		return t.v.status
	case "scale":
		return t.v.scale != nil
	}
	return false
}

// scaleOfLive is the Scale of an object served at a version with the
// scale subresource, with ScaleREST.Get's errors.
func scaleOfLive(t *target, live map[string]any) (map[string]any, error) {
	sc, errs := scaleOf(t.k, live)
	if len(errs) > 0 {
		return nil, apierrors.NewInternalError(errors.New(errs[0].Detail))
	}
	return sc, nil
}

func (s *semantics) subResourceUpdate(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	t, err := s.route(ctx, c, obj)
	if t == nil {
		if err != nil {
			return err
		}
		return c.SubResource(sub).Update(ctx, obj, opts...)
	}
	o := &client.SubResourceUpdateOptions{}
	o.ApplyOptions(opts)
	if !t.has(sub) {
		return notFound(t, obj.GetName())
	}
	if sub == "status" {
		body := obj
		if o.SubResourceBody != nil {
			body = o.SubResourceBody
		}
		return s.updateBody(ctx, t, body, "status", &o.UpdateOptions)
	}
	if o.SubResourceBody == nil {
		return apierrors.NewBadRequest("missing SubResourceBody")
	}
	scale, err := toMap(o.SubResourceBody, scaleGVK)
	if err != nil {
		return err
	}
	out, err := s.scaleRequest(ctx, t, obj.GetNamespace(), obj.GetName(), func(map[string]any) (map[string]any, error) { return scale, nil }, managerName(o.FieldManager), isDryRun(o.DryRun))
	if err != nil {
		return err
	}
	return s.decode(out, o.SubResourceBody)
}

func (s *semantics) subResourcePatch(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	t, err := s.route(ctx, c, obj)
	if t == nil {
		if err != nil {
			return err
		}
		return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
	}
	o := &client.SubResourcePatchOptions{}
	o.ApplyOptions(opts)
	if !t.has(sub) {
		return notFound(t, obj.GetName())
	}
	if sub == "status" {
		body := obj
		if o.SubResourceBody != nil {
			body = o.SubResourceBody
		}
		return s.patchBody(ctx, t, body, patch, "status", o.AsPatchOptions())
	}
	return s.scalePatch(ctx, t, obj, patch, o)
}

// scalePatch is a JSON merge patch or JSON patch of the scale
// subresource; the Scale is decoded into the SubResourceBody.
func (s *semantics) scalePatch(ctx context.Context, t *target, obj client.Object, patch client.Patch, o *client.SubResourcePatchOptions) error {
	if o.SubResourceBody == nil {
		return apierrors.NewBadRequest("missing SubResourceBody")
	}
	po := o.AsPatchOptions()
	if errs := validation.ValidatePatchOptions(po, patch.Type()); len(errs) > 0 {
		return apierrors.NewInvalid(kschema.GroupKind{Group: metav1.GroupName, Kind: "PatchOptions"}, "", errs)
	}
	if patch.Type() != types.MergePatchType && patch.Type() != types.JSONPatchType {
		return unsupportedPatch()
	}
	data, err := patch.Data(o.SubResourceBody)
	if err != nil {
		return err
	}
	out, err := s.scaleRequest(ctx, t, obj.GetNamespace(), obj.GetName(), func(old map[string]any) (map[string]any, error) {
		return applyPatch(patch.Type(), old, data)
	}, managerName(po.FieldManager), isDryRun(po.DryRun))
	if err != nil {
		return err
	}
	return s.decode(out, o.SubResourceBody)
}

// invalidSpecReplicas marks a Scale whose object has no spec replicas
// (ScaleREST's signal).
const invalidSpecReplicas = -2147483648

// scaleRequest is an update of the scale subresource, as the apiserver's
// ScaleREST makes it: the Scale of the live object (its managed fields
// mapped to the Scale's), the new Scale from it (newScale: the request's
// body, or the patched Scale), the spec replicas written through
// specReplicasPath, the Scale's resourceVersion a precondition when it has
// one, the Scale's managed fields mapped back; then the object is updated
// as the main resource is (validation, generation) and the response is
// its Scale.
func (s *semantics) scaleRequest(ctx context.Context, t *target, namespace, name string, newScale func(old map[string]any) (map[string]any, error), manager string, dryRun bool) (map[string]any, error) {
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	w, err := s.openUpdate(ctx, t, namespace, name)
	if err != nil {
		return nil, err
	}
	cr := deepCopy(w.live)
	specPath := strings.Split(strings.TrimPrefix(t.v.scale.SpecReplicasPath, "."), ".")
	_, found, _ := unstructured.NestedFieldNoCopy(cr, specPath...)
	oldScale, err := s.scaleWithSentinel(t, cr, found)
	if err != nil {
		return nil, err
	}
	handler := managedfields.NewScaleHandler((&unstructured.Unstructured{Object: cr}).GetManagedFields(), t.gvk.GroupVersion(), t.k.replicasPaths())
	scaleManaged, err := handler.ToSubresource()
	if err != nil {
		return nil, serverError(err)
	}
	oldU := &unstructured.Unstructured{Object: oldScale}
	oldU.SetManagedFields(scaleManaged)
	next, err := newScale(deepCopy(oldU.Object))
	if err != nil {
		return nil, err
	}
	next = s.recordScale(t, oldU.Object, next, manager)
	replicas := int64Of(object(next, "spec")["replicas"])
	if replicas == invalidSpecReplicas {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the spec replicas field %q cannot be empty", t.v.scale.SpecReplicasPath))
	}
	if err := unstructured.SetNestedField(cr, int64(int32(replicas)), specPath...); err != nil {
		return nil, serverError(err)
	}
	if rv := metaString(next, "resourceVersion"); rv != "" {
		metadata(cr)["resourceVersion"] = rv
	}
	nextU := &unstructured.Unstructured{Object: next}
	parent, err := handler.ToParent(nextU.GetManagedFields())
	if err != nil {
		return nil, serverError(err)
	}
	(&unstructured.Unstructured{Object: cr}).SetManagedFields(parent)
	out, err := s.updateLocked(ctx, w, cr, "", "")
	if err != nil {
		return nil, err
	}
	if out, err = s.commitUpdate(ctx, w, out, dryRun); err != nil {
		return nil, err
	}
	return scaleOfLive(t, out)
}

// scaleWithSentinel is the Scale of the live object, its spec replicas
// invalidSpecReplicas when the object has none.
func (s *semantics) scaleWithSentinel(t *target, cr map[string]any, found bool) (map[string]any, error) {
	obj := cr
	if !found {
		obj = deepCopy(cr)
		_ = unstructured.SetNestedField(obj, int64(0), strings.Split(strings.TrimPrefix(t.v.scale.SpecReplicasPath, "."), ".")...)
	}
	sc, err := scaleOfLive(t, obj)
	if err != nil {
		return nil, err
	}
	if !found {
		object(sc, "spec")["replicas"] = int64(invalidSpecReplicas)
	}
	return sc, nil
}

// recordScale records the scale subresource's managed fields of a Scale
// update; a failure keeps the old Scale's.
func (s *semantics) recordScale(t *target, old, next map[string]any, manager string) map[string]any {
	fm, err := t.k.fieldManager(t.v.name, "scale")
	if err != nil {
		copyKey(metadata(next), metadata(old), "managedFields")
		return next
	}
	out := fm.UpdateNoErrors(&unstructured.Unstructured{Object: old}, &unstructured.Unstructured{Object: next}, manager)
	if u, ok := out.(*unstructured.Unstructured); ok {
		return u.Object
	}
	return next
}

// replicasPaths are the spec replicas paths of the versions, for the
// scale subresource's managed fields (nil for a version without it).
func (k *kind) replicasPaths() managedfields.ResourcePathMappings {
	out := managedfields.ResourcePathMappings{}
	for name, v := range k.versions {
		gv := k.gk.WithVersion(name).GroupVersion().String()
		if v.scale == nil {
			out[gv] = nil
			continue
		}
		var p fieldpath.Path
		for _, e := range strings.Split(strings.TrimPrefix(v.scale.SpecReplicasPath, "."), ".") {
			p = append(p, fieldpath.PathElement{FieldName: &e})
		}
		out[gv] = p
	}
	return out
}

func (s *semantics) subResourceApply(ctx context.Context, c client.Client, sub string, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
	o := &client.SubResourceApplyOptions{}
	o.ApplyOpts(opts)
	body := obj
	if o.SubResourceBody != nil {
		body = o.SubResourceBody
	}
	data, gvk, err := applyConfiguration(obj)
	if err != nil {
		return err
	}
	t, err := s.targetOf(ctx, gvk)
	if t == nil {
		if err != nil {
			return err
		}
		return c.SubResource(sub).Apply(ctx, obj, opts...)
	}
	u := unstructured.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		return err
	}
	if sub != "status" || !t.has(sub) {
		return notFound(t, u.GetName())
	}
	if body != obj {
		if data, _, err = applyConfiguration(body); err != nil {
			return err
		}
	}
	po := o.AsPatchOptions()
	if errs := validation.ValidatePatchOptions(po, types.ApplyPatchType); len(errs) > 0 {
		return apierrors.NewInvalid(kschema.GroupKind{Group: metav1.GroupName, Kind: "PatchOptions"}, "", errs)
	}
	out, err := s.applyRequest(ctx, t, u.GetNamespace(), u.GetName(), data, "status", po)
	if err != nil {
		return err
	}
	return s.intoApplyConfiguration(out, body)
}
