// Package nulls holds the apiserver's removal of non-nullable nulls without
// default, shared by package defaulting (DropNulls) and by package prune,
// which can do it in its own walk.
package nulls

import "github.com/crdschema/crdschema/structural"

// Droppable reports whether a null object field whose schema is c is
// removed: c exists, is not nullable and has no default.
func Droppable(c *structural.Schema) bool {
	return c != nil && !c.Nullable && !c.HasDefault
}

// FieldSchema is the schema of field k of an object with schema s: its
// properties entry, else the additionalProperties schema, else nil.
func FieldSchema(s *structural.Schema, k string) *structural.Schema {
	if c, ok := s.Property(k); ok {
		return c
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Schema
	}
	return nil
}

// Leaf reports whether no schema is specified below s (nil included): no
// properties, items or additionalProperties schema, so that nothing below
// s can be dropped.
func Leaf(s *structural.Schema) bool {
	return s == nil || (len(s.Properties) == 0 && s.Items == nil &&
		(s.AdditionalProperties == nil || s.AdditionalProperties.Schema == nil))
}

// Drop removes, in place, every object field of obj whose value is null and
// whose schema is Droppable, at any depth. Nulls in arrays are kept, and
// values without a schema are not looked at.
func Drop(obj any, s *structural.Schema) {
	if Leaf(s) {
		return
	}
	switch x := obj.(type) {
	case map[string]any:
		for k, v := range x {
			c := FieldSchema(s, k)
			if c == nil {
				continue
			}
			if v == nil {
				if Droppable(c) {
					delete(x, k)
				}
				continue
			}
			Drop(v, c)
		}
	case []any:
		if s.Items == nil {
			return
		}
		for _, v := range x {
			Drop(v, s.Items)
		}
	}
}
