package prune

import "github.com/crdschema/crdschema/structural"

// The apiserver's removal of non-nullable nulls without default, which
// prune can do in its own walk (Options.DropNulls) and package defaulting
// does before defaulting (DropNulls).

// droppable reports whether a null object field whose schema is c is
// removed: c exists, is not nullable and has no default.
func droppable(c *structural.Schema) bool {
	return c != nil && !c.Nullable && !c.HasDefault
}

// fieldSchema is the schema of field k of an object with schema s: its
// properties entry, else the additionalProperties schema, else nil.
func fieldSchema(s *structural.Schema, k string) *structural.Schema {
	if c, ok := s.Property(k); ok {
		return c
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Schema
	}
	return nil
}

// DropNulls removes, in place, every object field of obj whose value is
// null and whose schema is not nullable and has no default, at any depth,
// as the apiserver does after pruning a request and before defaulting it.
// Nulls in arrays are kept, and values without a schema are not looked at.
func DropNulls(obj any, s *structural.Schema) {
	switch x := obj.(type) {
	case map[string]any:
		dropObject(x, s)
	case []any:
		dropList(x, s)
	}
}

func dropObject(x map[string]any, s *structural.Schema) {
	if s.IsLeaf() {
		return
	}
	var ap *structural.Schema
	if s.AdditionalProperties != nil {
		ap = s.AdditionalProperties.Schema
	}
	for k, v := range x {
		c, ok := s.Property(k)
		if !ok {
			c = ap
		}
		if c == nil {
			continue
		}
		switch v := v.(type) {
		case nil:
			if droppable(c) {
				delete(x, k)
			}
		case map[string]any:
			dropObject(v, c)
		case []any:
			dropList(v, c)
		}
	}
}

func dropList(x []any, s *structural.Schema) {
	if s == nil || s.Items.IsLeaf() {
		// No items schema, or nothing below it to drop from.
		return
	}
	it := s.Items
	for _, v := range x {
		switch v := v.(type) {
		case map[string]any:
			dropObject(v, it)
		case []any:
			dropList(v, it)
		}
	}
}
