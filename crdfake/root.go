package crdfake

import (
	"context"

	"github.com/crdschema/crdschema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The calls into the root library. Everything else of the fake reaches
// the root through these.

// readAt is the storage read path of stored (an object as etcd holds it,
// at any defined version) served at version: what a GET returns, and what
// the fake compares, validates against and patches.
func readAt(ctx context.Context, k *kind, stored map[string]any, version string) crdschema.Result {
	return k.crd.Read(ctx, stored, version)
}

// convertTo is obj, an object at the version its apiVersion names,
// converted to version by the CRD's storage converter and pruned with
// that version's schema, without defaults or validation: what the storage
// codec writes (version the storage version, served or not), and the
// field manager's conversions.
func convertTo(ctx context.Context, k *kind, obj map[string]any, version string) crdschema.Result {
	return k.crd.Convert(ctx, obj, version)
}

// schemaAt is the compiled schema of a served version.
func schemaAt(k *kind, version string) (*crdschema.Schema, error) {
	return k.crd.Version(version)
}

// openAPIAt is the OpenAPI v3 definitions the apiserver publishes for a
// served version, keyed by model name.
func openAPIAt(k *kind, version string) (map[string]any, error) {
	v3, _, err := k.crd.OpenAPI(version)
	return v3, err
}

// scaleOf is the autoscaling/v1 Scale of obj, an object read at a version
// with the scale subresource.
func scaleOf(k *kind, obj map[string]any) (map[string]any, field.ErrorList) {
	return k.crd.Scale(obj)
}
