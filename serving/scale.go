package serving

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/objpath"
)

// Scale returns the autoscaling/v1 Scale that GET .../NAME/scale returns
// for obj, an object as served, as a JSON value, given the paths of the
// version's scale subresource (labelSelectorPath "" when it has none).
// The paths are not
// JSONPaths: they are split at every dot after the leading one. Replica
// counts are truncated to int32 as the apiserver does. Errors (one
// InternalError at a path without its leading dot): a value of the wrong
// type on a path (a float included), checked in the order spec, status,
// selector; a missing spec replicas value; a value with no JSON form (see
// the package doc). obj is not changed.
func Scale(obj map[string]any, specReplicasPath, statusReplicasPath, labelSelectorPath string) (map[string]any, *field.Error) {
	obj, ferr := plainObject(obj)
	if ferr != nil {
		return nil, ferr
	}
	paths := scalePaths{specReplicasPath, statusReplicasPath, labelSelectorPath}
	spec, foundSpec, err := nestedInt64(obj, paths.SpecReplicas)
	if err != nil {
		return nil, err
	}
	status, _, err := nestedInt64(obj, paths.StatusReplicas)
	if err != nil {
		return nil, err
	}
	var selector string
	if paths.LabelSelector != "" {
		s, _, err := objpath.NestedString(obj, paths.LabelSelector)
		if err != nil {
			return nil, field.InternalError(pathField(paths.LabelSelector), err)
		}
		selector = s
	}
	if !foundSpec {
		return nil, field.InternalError(pathField(paths.SpecReplicas), fmt.Errorf("the spec replicas field %q does not exist", paths.SpecReplicas))
	}
	specOut := map[string]any{}
	if int32(spec) != 0 {
		specOut["replicas"] = int64(int32(spec))
	}
	statusOut := map[string]any{"replicas": int64(int32(status))}
	if selector != "" {
		statusOut["selector"] = selector
	}
	return map[string]any{
		"apiVersion": "autoscaling/v1",
		"kind":       "Scale",
		"metadata":   scaleMetadata(obj),
		"spec":       specOut,
		"status":     statusOut,
	}, nil
}

// scaleMetadata is the Scale's metadata: the object's name, namespace,
// uid, resourceVersion and creationTimestamp, empty ones left out.
func scaleMetadata(obj map[string]any) map[string]any {
	meta, _ := obj["metadata"].(map[string]any)
	out := map[string]any{}
	for _, k := range []string{"name", "namespace", "uid", "resourceVersion"} {
		if s, _ := meta[k].(string); s != "" {
			out[k] = s
		}
	}
	if s, _ := meta["creationTimestamp"].(string); s != "" {
		if t, err := time.Parse(time.RFC3339, s); err == nil {
			out["creationTimestamp"] = t.UTC().Format(time.RFC3339)
		}
	}
	return out
}

// nestedInt64 is the int64 at path; found is false when it is missing.
func nestedInt64(obj map[string]any, path string) (int64, bool, *field.Error) {
	i, found, err := objpath.NestedInt64(obj, path)
	if err != nil {
		return 0, false, field.InternalError(pathField(path), err)
	}
	return i, found, nil
}

// pathField is the error field of a scale path: the path without its
// leading dot.
func pathField(path string) *field.Path {
	return field.NewPath(strings.TrimPrefix(path, "."))
}

// scalePaths are the paths of a version's scale subresource.
type scalePaths struct {
	SpecReplicas, StatusReplicas, LabelSelector string
}
