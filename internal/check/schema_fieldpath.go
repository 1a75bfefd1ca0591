package check

import (
	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// fieldPathValid reports whether path, the fieldPath of an
// x-kubernetes-validations rule on the node p, names a field below p:
// `.name` or `['name']` steps through properties, or through
// additionalProperties (any key). A node that cannot be built as a
// structural schema accepts every path, as the apiserver does.
func fieldPathValid(p *model.Props, path string) bool {
	// structural.New keeps p; a copy keeps the walker's nodes (map entries
	// copied to its stack) from escaping to the heap on every node.
	q := *p
	s, err := structural.New(&q)
	if err != nil {
		return true
	}
	_, _, err = cel.ResolveFieldPath(s, path, true)
	return err == nil
}
