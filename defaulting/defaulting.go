// Package defaulting applies the defaults of a structural schema to an
// object, and drops the nulls the apiserver drops before defaulting, with
// the apiserver's results.
//
// Objects are plain JSON values (map[string]any, []any, string, bool,
// int64, float64, json.Number, nil). Both walkers change the object in
// place, as the apiserver does; the schema is never changed, and every
// default is deep-copied into the object, so defaulted objects share no
// memory with the schema or with each other.
//
// On a request the apiserver prunes unknown fields, then calls DropNulls,
// then Default:
//
//	defaulting.DropNulls(obj, s)
//	defaulting.Default(obj, s)
package defaulting

import (
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/nulls"
	"github.com/crdschema/crdschema/structural"
)

// DropNulls removes, in place, every object field whose value is null and
// whose schema is neither nullable nor has a default. The schema of a field
// is its properties entry, else the additionalProperties schema. Nulls in
// arrays are never removed (an array keeps its length), and values with no
// schema at all are left alone.
//
// obj is typically the whole custom resource (map[string]any) and s the
// schema of its root; a nil s does nothing.
func DropNulls(obj any, s *structural.Schema) { nulls.Drop(obj, s) }

// Default applies, in place, the defaults of the schema s to obj:
//
//   - an object field named in properties whose schema has a default gets a
//     deep copy of that default when it is absent, or null while its schema
//     is not nullable;
//   - an object field covered by additionalProperties, and an array item,
//     gets a deep copy of its schema's default only when it is null and the
//     schema is not nullable (absent map keys and items are never created);
//   - a null whose schema is nullable is kept as null;
//   - every value, including one just defaulted, is then defaulted further by
//     the schema below it.
//
// Which schema applies is decided by the value's JSON kind (object or
// array), not by the schema's type, exactly as the apiserver does. Subtrees
// of the schema without any default are skipped without looking at the
// object, so an object with nothing to default is left untouched without
// allocating. A nil s does nothing.
//
// Run DropNulls first to get the apiserver's behaviour: it removes the
// non-nullable nulls that have no default, which Default would keep.
func Default(obj any, s *structural.Schema) {
	if !s.HasDefaultsBelow() {
		return
	}
	switch x := obj.(type) {
	case map[string]any:
		defaultObject(x, s)
	case []any:
		it := s.Items
		if it == nil {
			return
		}
		for i, v := range x {
			if v == nil && it.HasDefault && !it.Nullable {
				v = DeepCopy(it.Default)
				x[i] = v
			}
			Default(v, it)
		}
	}
}

func defaultObject(x map[string]any, s *structural.Schema) {
	for k, c := range s.Properties {
		v, found := x[k]
		if c.HasDefault && (!found || (v == nil && !c.Nullable)) {
			v, found = DeepCopy(c.Default), true
			x[k] = v
		}
		if found {
			Default(v, c)
		}
	}
	ap := s.AdditionalProperties
	if ap == nil || ap.Schema == nil {
		return
	}
	c := ap.Schema
	if !c.HasDefault && !c.HasDefaultsBelow() {
		return
	}
	for k, v := range x {
		if _, isProp := s.Properties[k]; isProp {
			continue
		}
		if v == nil && c.HasDefault && !c.Nullable {
			v = DeepCopy(c.Default)
			x[k] = v
		}
		Default(v, c)
	}
}

// DeepCopy returns a copy of the JSON value v that shares no maps or slices
// with it. Scalars are returned as they are.
func DeepCopy(v any) any { return jsonvalue.DeepCopy(v) }
