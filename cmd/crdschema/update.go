package main

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
)

// objectKey identifies a stored object: an update applies to the stored
// object with the same apiVersion, kind, namespace (a namespaced kind's
// missing namespace is "default"; a cluster-scoped kind has none) and name.
type objectKey struct {
	apiVersion, kind, namespace, name string
}

// keyOf returns the key of an object routed to s.
func keyOf(s *crdschema.Schema, obj map[string]any) objectKey {
	meta, _ := obj["metadata"].(map[string]any)
	k := objectKey{}
	k.apiVersion, _ = obj["apiVersion"].(string)
	k.kind, _ = obj["kind"].(string)
	k.name, _ = meta["name"].(string)
	if s.Namespaced() {
		k.namespace, _ = meta["namespace"].(string)
		if k.namespace == "" {
			k.namespace = "default"
		}
	}
	return k
}

// loadStored reads the --old objects, keyed as updates find them. Objects
// that no accepted CRD serves are ignored (no object can update them); of
// two stored objects with the same key the first is kept.
func loadStored(crds []*crdschema.CRD, paths []string, in *inputs) (map[objectKey]map[string]any, error) {
	files, err := expandPaths(paths)
	if err != nil {
		return nil, err
	}
	stored := map[objectKey]map[string]any{}
	for _, f := range files {
		docs, err := in.readFile(f)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if d.Object == nil {
				continue
			}
			s, err := crdschema.Route(crds, d.Object)
			if err != nil {
				continue
			}
			k := keyOf(s, d.Object)
			if _, ok := stored[k]; !ok {
				stored[k] = d.Object
			}
		}
	}
	return stored, nil
}

// runUpdate answers one routed object with --old: an update of its stored
// object (a status update with statusOnly), or a create when there is none
// (update false).
func runUpdate(s *crdschema.Schema, d crdschema.Document, stored map[objectKey]map[string]any, statusOnly bool) (r crdschema.Result, update bool) {
	obj := d.Object
	old, ok := stored[keyOf(s, obj)]
	switch {
	case ok && statusOnly:
		return s.ApplyStatusUpdate(obj, old), true
	case ok:
		return s.ApplyUpdate(obj, old), true
	case !statusOnly:
		return runVerb("apply", s, d), false
	case !s.HasStatusSubresource():
		// PUT .../status of a resource without it: not found.
		return crdschema.Result{Errors: s.ApplyStatusUpdate(obj, nil).Errors}, true
	}
	return crdschema.Result{Errors: field.ErrorList{&field.Error{Type: field.ErrorTypeNotFound, Field: "metadata.name", BadValue: field.OmitValueType{}, Detail: "no stored object to update"}}}, true
}
