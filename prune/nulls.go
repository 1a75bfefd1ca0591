package prune

import (
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/structural"
)

// The apiserver's removal of non-nullable nulls without default, which
// prune can do in its own walk (Options.DropNulls) and package defaulting
// does before defaulting (DropNulls).

// droppable reports whether a null object field whose schema is c is
// removed: c exists, is not nullable and has no default.
func droppable(c *structural.Schema) bool {
	return c != nil && !c.Nullable && !c.HasDefault
}

// DropNulls removes, in place, every object field of obj whose value is
// null and whose schema is not nullable and has no default, at any depth,
// as the apiserver does after pruning a request and before defaulting it.
// Nulls in arrays are kept, and values without a schema are not looked at.
// A nil map or slice is null; other Go values are read as Prune reads
// them (see the package doc).
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
		dropField(x, k, v, c)
	}
}

// dropField drops the value v of key k of x, whose schema is c, when it is
// a droppable null, and the droppable nulls inside it; a value that is not
// plain JSON is first replaced by its JSON form when that is an object, a
// list or null.
func dropField(x map[string]any, k string, v any, c *structural.Schema) {
	switch v := v.(type) {
	case nil:
		if droppable(c) {
			delete(x, k)
		}
		return
	case map[string]any:
		if v != nil {
			dropObject(v, c)
			return
		}
	case []any:
		if v != nil {
			dropList(v, c)
			return
		}
	case string, bool, int64, float64:
		return
	}
	if n, ok, _ := jsonvalue.Container(v); ok {
		x[k] = n
		dropField(x, k, n, c)
	}
}

func dropList(x []any, s *structural.Schema) {
	if s == nil || s.Items.IsLeaf() {
		// No items schema, or nothing below it to drop from.
		return
	}
	it := s.Items
	for i, v := range x {
		switch v := v.(type) {
		case map[string]any:
			dropObject(v, it)
		case []any:
			dropList(v, it)
		case nil, string, bool, int64, float64:
		default:
			if n, ok := typedItem(x, i); ok {
				DropNulls(n, it)
			}
		}
	}
}
