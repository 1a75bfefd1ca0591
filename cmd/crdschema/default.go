package main

import (
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/structural"
)

// servedSchemas caches, per structural schema, the schema with pruned
// defaults that the apiserver defaults with (see servingSchema).
var servedSchemas = map[*structural.Schema]*structural.Schema{}

// servingSchema is the schema the apiserver defaults objects of t with: its
// defaults pruned, with the metadata of embedded resources in them coerced,
// unless the CRD keeps unknown fields altogether (v1beta1
// spec.preserveUnknownFields: true).
func servingSchema(t *target) *structural.Schema {
	if t.schema == nil {
		return nil
	}
	if t.crd != nil && t.crd.Spec.PreserveUnknownFields != nil && *t.crd.Spec.PreserveUnknownFields {
		return t.schema
	}
	s, ok := servedSchemas[t.schema]
	if !ok {
		s = defaulting.PruneDefaultsWith(t.schema, defaulting.PruneOptions{CoerceEmbedded: coerceDefault})
		servedSchemas[t.schema] = s
	}
	return s
}

// coerceDefault coerces the embedded resources of a default value as the
// apiserver does before serving it: malformed parts dropped, no errors.
func coerceDefault(v any, s *structural.Schema) {
	embedded.CoerceEmbedded(v, s, embedded.CoerceOptions{DropMalformed: true})
}

// defaultVerb is the default verb applied to one routed object: drop the
// non-nullable nulls that have no default, then apply defaults, as the
// apiserver does after pruning. Unknown fields are not pruned.
func defaultVerb(obj map[string]any, t *target) result {
	s := servingSchema(t)
	defaulting.DropNulls(obj, s)
	defaulting.Default(obj, s)
	return result{object: obj, pruned: []string{}}
}
