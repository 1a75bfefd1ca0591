package main

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/prune"
)

// pruneVerb is the prune verb applied to one routed object, in place: the
// root metadata is coerced (an error when it is not an object), unknown
// fields are dropped (the object is a resource root), then the metadata of
// embedded resources is coerced, malformed fields dropped as when the
// apiserver reads an object from storage.
func pruneVerb(obj map[string]any, t *target) result {
	opts := embedded.CoerceOptions{DropMalformed: true, ReturnPaths: true}
	metaPaths, err := embedded.CoerceResourceMeta(obj, opts)
	if err != nil {
		return result{pruned: []string{}, errs: field.ErrorList{err}}
	}
	paths := prune.Prune(obj, t.schema, prune.Options{ResourceRoot: true, ReturnPaths: true})
	embeddedPaths, errs := embedded.CoerceEmbedded(obj, t.schema, opts)
	if len(errs) > 0 {
		return result{pruned: []string{}, errs: errs}
	}
	pruned := make([]string, 0, len(metaPaths)+len(paths)+len(embeddedPaths))
	for _, ps := range [][]prune.Path{metaPaths, paths, embeddedPaths} {
		pruned = append(pruned, prune.Strings(ps)...)
	}
	return result{object: obj, pruned: pruned}
}
