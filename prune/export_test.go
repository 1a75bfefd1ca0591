package prune

import (
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/structural"
)

// PrunePaths is Prune returning the removed fields' paths as structured
// paths (sorted by their rendering), for tests that look them up.
func PrunePaths(obj any, s *structural.Schema, opts Options) []objpath.Path {
	ps := prunePaths(obj, s, opts)
	objpath.SortedStrings(ps)
	return ps
}
