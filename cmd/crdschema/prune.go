package main

import (
	"github.com/crdschema/crdschema/prune"
)

// pruneVerb is the prune verb applied to one routed object: drop unknown
// fields as the apiserver does (the object is a resource root), in place.
func pruneVerb(obj map[string]any, t *target) result {
	paths := prune.Prune(obj, t.schema, prune.Options{ResourceRoot: true, ReturnPaths: true})
	return result{object: obj, pruned: prune.Strings(paths)}
}
