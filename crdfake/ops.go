package crdfake

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/embedded"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The create, update and patch paths. Each computes what the apiserver
// would store with crdschema, then stores it through the fake's main
// resource as an unstructured object (the fake keeps a kind registered in
// its scheme as its Go type) and decodes the stored object into the
// caller's object, which is left unchanged when the request fails.
//
// The status subresource is the interceptors' alone: the kinds are not
// registered WithStatusSubresource, because the fake would then rewrite
// what is stored (restore the stored object's other fields as stored,
// unpruned, on a status update, and write "status": null into an object
// without status on every update).

func (s *semantics) create(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
	gvk, sch, err := s.route(ctx, c, obj)
	if err != nil || sch == nil {
		if err != nil {
			return err
		}
		return c.Create(ctx, obj, opts...)
	}
	m, err := toMap(obj, gvk)
	if err != nil {
		return err
	}
	out, err := s.created(ctx, sch, gvk, m)
	if err != nil {
		return err
	}
	u := &unstructured.Unstructured{Object: out}
	if err := c.Create(ctx, u, opts...); err != nil {
		return err
	}
	return fromMap(u.Object, obj)
}

// prepareCreate makes obj what a create request of it would store.
func (s *semantics) prepareCreate(ctx context.Context, sch *crdschema.Schema, gvk kschema.GroupVersionKind, obj client.Object) (map[string]any, error) {
	m, err := toMap(obj, gvk)
	if err != nil {
		return nil, err
	}
	out, err := s.created(ctx, sch, gvk, m)
	if err != nil {
		return nil, err
	}
	return out, fromMap(out, obj)
}

// created is the create pipeline on a request body: the object the
// apiserver stores (generation 1, as PrepareForCreate sets it).
func (s *semantics) created(ctx context.Context, sch *crdschema.Schema, gvk kschema.GroupVersionKind, m map[string]any) (map[string]any, error) {
	r := sch.Apply(m)
	s.warnPruned(ctx, r)
	if err := invalid(gvk, metaString(m, "name"), r); err != nil {
		return nil, err
	}
	s.warnFinalizers(ctx, r.Object, nil)
	metadata(r.Object)["generation"] = int64(1)
	return r.Object, nil
}

func (s *semantics) update(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
	gvk, sch, err := s.route(ctx, c, obj)
	if err != nil || sch == nil {
		if err != nil {
			return err
		}
		return c.Update(ctx, obj, opts...)
	}
	old, err := stored(ctx, c, gvk, obj)
	if err != nil {
		// Not found: the fake answers as the apiserver does.
		return c.Update(ctx, obj, opts...)
	}
	m, err := toMap(obj, gvk)
	if err != nil {
		return err
	}
	out, err := s.updated(ctx, sch, gvk, m, old.Object, false)
	if err != nil {
		return err
	}
	u := &unstructured.Unstructured{Object: out}
	if err := c.Update(ctx, u, opts...); err != nil {
		return err
	}
	return fromMap(u.Object, obj)
}

func (s *semantics) subResourceUpdate(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	gvk, sch, err := s.route(ctx, c, obj)
	if err != nil {
		return err
	}
	if sub != "status" || sch == nil || !sch.HasStatusSubresource() {
		return c.SubResource(sub).Update(ctx, obj, opts...)
	}
	o := &client.SubResourceUpdateOptions{}
	o.ApplyOptions(opts)
	body := obj
	if o.SubResourceBody != nil {
		body = o.SubResourceBody
	}
	old, err := stored(ctx, c, gvk, body)
	if err != nil {
		return c.SubResource(sub).Update(ctx, obj, opts...)
	}
	m, err := toMap(body, gvk)
	if err != nil {
		return err
	}
	out, err := s.updated(ctx, sch, gvk, m, old.Object, true)
	if err != nil {
		return err
	}
	u := &unstructured.Unstructured{Object: out}
	if err := c.Update(ctx, u, &o.UpdateOptions); err != nil {
		return err
	}
	return fromMap(u.Object, body)
}

// updated is the update pipeline (of the main resource, or of the status
// subresource) on a request body and the stored object: the object the
// apiserver stores, with the metadata the generic registry keeps from the
// stored object and the request's resourceVersion for the fake's
// optimistic concurrency check.
func (s *semantics) updated(ctx context.Context, sch *crdschema.Schema, gvk kschema.GroupVersionKind, m, old map[string]any, status bool) (map[string]any, error) {
	var r crdschema.Result
	if status {
		r = sch.ApplyStatusUpdate(m, old)
	} else {
		r = sch.ApplyUpdate(m, old)
	}
	s.warnPruned(ctx, r)
	if err := invalid(gvk, metaString(m, "name"), r); err != nil {
		return nil, err
	}
	if !status {
		// The status strategy has no warnings.
		s.warnFinalizers(ctx, r.Object, old)
	}
	keepServerMetadata(r.Object, old, metaString(m, "resourceVersion"), !status && !embedded.SameExceptMetadata(r.Object, old))
	return r.Object, nil
}

// keepServerMetadata sets what the generic registry takes from the stored
// object on update: the generation (plus one when anything outside
// metadata changed, as for every custom resource), the uid when the
// request has none, the creation and deletion timestamps, the deletion
// grace period when the request has none; the resourceVersion is the
// request's.
func keepServerMetadata(obj, old map[string]any, resourceVersion string, changed bool) {
	md, oldMD := metadata(obj), metadata(old)
	gen, _ := oldMD["generation"].(int64)
	if f, ok := oldMD["generation"].(float64); ok {
		gen = int64(f)
	}
	if gen == 0 {
		gen = 1
	}
	if changed {
		gen++
	}
	md["generation"] = gen
	if metaString(obj, "uid") == "" {
		copyKey(md, oldMD, "uid")
	}
	for _, k := range []string{"creationTimestamp", "deletionTimestamp"} {
		if ts := metaString(old, k); ts != "" {
			md[k] = utcTimestamp(ts)
		}
	}
	if _, ok := md["deletionGracePeriodSeconds"]; !ok {
		copyKey(md, oldMD, "deletionGracePeriodSeconds")
	}
	if resourceVersion == "" {
		delete(md, "resourceVersion")
	} else {
		md["resourceVersion"] = resourceVersion
	}
}

// utcTimestamp is a stored timestamp as the apiserver reads it back
// (metav1.Time: RFC 3339 in UTC); unparsable text is kept.
func utcTimestamp(ts string) string {
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return ts
	}
	return t.UTC().Format(time.RFC3339)
}

func copyKey(dst, src map[string]any, k string) {
	if v, ok := src[k]; ok {
		dst[k] = v
	}
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

// stored reads the stored object obj names, unstructured.
func stored(ctx context.Context, c client.Client, gvk kschema.GroupVersionKind, obj client.Object) (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u, c.Get(ctx, client.ObjectKeyFromObject(obj), u)
}

func (s *semantics) patch(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	gvk, sch, err := s.route(ctx, c, obj)
	if err != nil {
		return err
	}
	if sch == nil || patch.Type() == types.ApplyPatchType {
		return c.Patch(ctx, obj, patch, opts...)
	}
	o := &client.PatchOptions{}
	o.ApplyOptions(opts)
	store := func(u *unstructured.Unstructured) error {
		return c.Update(ctx, u, &client.UpdateOptions{DryRun: o.DryRun, FieldManager: o.FieldManager})
	}
	return s.patchWith(ctx, c, gvk, sch, obj, patch, false, store)
}

func (s *semantics) subResourcePatch(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	gvk, sch, err := s.route(ctx, c, obj)
	if err != nil {
		return err
	}
	if sub != "status" || sch == nil || !sch.HasStatusSubresource() || patch.Type() == types.ApplyPatchType {
		return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
	}
	o := &client.SubResourcePatchOptions{}
	o.ApplyOptions(opts)
	body := obj
	if o.SubResourceBody != nil {
		body = o.SubResourceBody
	}
	store := func(u *unstructured.Unstructured) error {
		return c.Update(ctx, u, &client.UpdateOptions{DryRun: o.DryRun, FieldManager: o.FieldManager})
	}
	return s.patchWith(ctx, c, gvk, sch, body, patch, true, store)
}

// maxConflictRetries bounds the retries of a patch that does not name a
// resourceVersion, which the apiserver applies again to the newest stored
// object when a concurrent write wins.
const maxConflictRetries = 16

// patchWith applies a JSON merge patch or JSON patch to the stored object
// as the apiserver's patch handler does, then takes the result through the
// update pipeline and stores it with store.
func (s *semantics) patchWith(ctx context.Context, c client.Client, gvk kschema.GroupVersionKind, sch *crdschema.Schema, obj client.Object, patch client.Patch, status bool, store func(*unstructured.Unstructured) error) error {
	if patch.Type() != types.MergePatchType && patch.Type() != types.JSONPatchType {
		return unsupportedPatch()
	}
	data, err := patch.Data(obj)
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		old, err := stored(ctx, c, gvk, obj)
		if err != nil {
			return err
		}
		m, err := applyPatch(patch.Type(), old.Object, data)
		if err != nil {
			return err
		}
		pinned := metaString(m, "resourceVersion") != "" && metaString(m, "resourceVersion") != old.GetResourceVersion()
		if metaString(m, "resourceVersion") == "" {
			metadata(m)["resourceVersion"] = old.GetResourceVersion()
		}
		out, err := s.updated(ctx, sch, gvk, m, old.Object, status)
		if err != nil {
			return err
		}
		u := &unstructured.Unstructured{Object: out}
		err = store(u)
		if apierrors.IsConflict(err) && !pinned && attempt < maxConflictRetries {
			continue
		}
		if err != nil {
			return err
		}
		return fromMap(u.Object, obj)
	}
}

// maxJSONPatchOperations is the apiserver's limit on the operations of one
// JSON patch.
const maxJSONPatchOperations = 10000

// applyPatch patches the stored object, with the apiserver's errors for
// patches that cannot be applied.
func applyPatch(pt types.PatchType, old map[string]any, data []byte) (map[string]any, error) {
	oldJSON, err := json.Marshal(old)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	var patched []byte
	if pt == types.JSONPatchType {
		p, err := jsonpatch.DecodePatch(data)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		if len(p) > maxJSONPatchOperations {
			return nil, apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("The allowed maximum operations in a JSON patch is %d, got %d", maxJSONPatchOperations, len(p)))
		}
		if patched, err = p.Apply(oldJSON); err != nil {
			return nil, apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", kschema.GroupResource{}, "", err.Error(), 0, false)
		}
	} else if patched, err = jsonpatch.MergePatch(oldJSON, data); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	var m map[string]any
	if err := kjson.Unmarshal(patched, &m); err != nil || m == nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the patched object is not a JSON object: %s", summarize(patched)))
	}
	return m, nil
}

func summarize(data []byte) string {
	if len(data) > 30 {
		return string(data[:30]) + " ..."
	}
	return string(data)
}

// unsupportedPatch is the apiserver's answer to a patch type custom
// resources do not take (strategic merge patch): 415 Unsupported Media
// Type, naming the accepted types.
func unsupportedPatch() error {
	accepted := []string{string(types.JSONPatchType), string(types.MergePatchType), string(types.ApplyYAMLPatchType)}
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusUnsupportedMediaType,
		Reason:  metav1.StatusReasonUnsupportedMediaType,
		Message: "the body of the request was in an unknown format - accepted media types include: " + strings.Join(accepted, ", "),
	}}
}
