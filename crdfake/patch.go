package crdfake

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Patches: JSON merge patch and JSON patch are applied to the live object
// at the request's version and the result goes through the update path;
// apply patches go to server-side apply (apply.go); strategic merge patch
// is refused, as custom resources refuse it.

func (s *semantics) patch(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	t, err := s.route(ctx, c, obj)
	if t == nil {
		if err != nil {
			return err
		}
		return c.Patch(ctx, obj, patch, opts...)
	}
	o := &client.PatchOptions{}
	o.ApplyOptions(opts)
	return s.patchBody(ctx, t, obj, patch, "", o.AsPatchOptions())
}

// patchBody is a patch of the main resource or of the status subresource
// of the object obj names; obj becomes the response.
func (s *semantics) patchBody(ctx context.Context, t *target, obj client.Object, patch client.Patch, sub string, po *metav1.PatchOptions) error {
	if errs := validation.ValidatePatchOptions(po, patch.Type()); len(errs) > 0 {
		return apierrors.NewInvalid(kschema.GroupKind{Group: metav1.GroupName, Kind: "PatchOptions"}, "", errs)
	}
	data, err := patch.Data(obj)
	if err != nil {
		return err
	}
	var out map[string]any
	switch patch.Type() {
	case types.ApplyPatchType:
		out, err = s.applyRequest(ctx, t, obj.GetNamespace(), obj.GetName(), data, sub, po)
	case types.MergePatchType, types.JSONPatchType:
		out, err = s.jsonPatchRequest(ctx, t, obj.GetNamespace(), obj.GetName(), patch.Type(), data, sub, po)
	default:
		err = unsupportedPatch()
	}
	if err != nil {
		return err
	}
	return s.decode(out, obj)
}

// jsonPatchRequest applies a JSON merge patch or JSON patch to the live
// object, as the apiserver's patch handler does, and takes the result
// through the update path.
func (s *semantics) jsonPatchRequest(ctx context.Context, t *target, namespace, name string, pt types.PatchType, data []byte, sub string, po *metav1.PatchOptions) (map[string]any, error) {
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	w, err := s.openUpdate(ctx, t, namespace, name)
	if err != nil {
		return nil, err
	}
	m, err := applyPatch(pt, w.live, data)
	if err != nil {
		return nil, err
	}
	out, err := s.updateLocked(ctx, w, m, sub, managerName(po.FieldManager))
	if err != nil {
		return nil, err
	}
	return s.commitUpdate(ctx, w, out, isDryRun(po.DryRun))
}

// maxJSONPatchOperations is the apiserver's limit on the operations of one
// JSON patch.
const maxJSONPatchOperations = 10000

// applyPatch patches an object, with the apiserver's errors for patches
// that cannot be applied.
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
