package main

import "github.com/crdschema/crdschema/defaulting"

// defaultVerb is the default verb applied to one routed object: drop the
// non-nullable nulls that have no default, then apply defaults, as the
// apiserver does after pruning. Unknown fields are not pruned.
func defaultVerb(obj map[string]any, t *target) result {
	defaulting.DropNulls(obj, t.schema)
	defaulting.Default(obj, t.schema)
	return result{object: obj, pruned: []string{}}
}
