// Package defaulting applies the defaults of a structural schema to an
// object, and drops the nulls the apiserver drops before defaulting, with
// the apiserver's results.
//
// The walkers change the object in place, as the apiserver does; the
// schema is never changed, and every default is deep-copied into the
// object, so defaulted objects share no memory with the schema or with
// each other. Objects are read as package prune reads them, the rule of
// every package of this module (see there): a nil map or slice is null,
// so it is dropped or defaulted as null is, and a Go value that is not
// plain JSON which the walks must look into or test for null (a
// map[string]string, a []string, a struct, a nil pointer) is replaced, in
// the object, by its JSON form (the caller's typed value itself is not
// changed). Scalars of other Go types, and values with no JSON form, are
// left as they are. The value the functions are called with must be a
// map[string]any or a []any to be changed at all.
//
// On a request the apiserver prunes unknown fields, drops the null values
// of fields that are neither nullable nor have a default, then applies the
// defaults. DropNullsAndDefault does the last two in one walk; Default
// alone is for an object whose nulls were dropped already (prune.Prune with
// Options.DropNulls drops them while pruning).
package defaulting

import (
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

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
// Drop the non-nullable nulls without default first to get the apiserver's
// behaviour (Default would keep them): DropNullsAndDefault does both in one
// walk.
func Default(obj any, s *structural.Schema) {
	if !s.HasDefaultsBelow() {
		return
	}
	switch x := obj.(type) {
	case map[string]any:
		defaultObject(x, s)
	case []any:
		defaultList(x, s)
	}
}

// defaultObject defaults x against s, which has defaults below it.
func defaultObject(x map[string]any, s *structural.Schema) {
	for _, k := range s.DefaultingProperties() {
		c, _ := s.Property(k)
		v, found := x[k]
		if found {
			v = plainField(x, k, v)
		}
		if c.HasDefault && (!found || (v == nil && !c.Nullable)) {
			v, found = jsonvalue.DeepCopy(c.Default), true
			x[k] = v
		}
		if found {
			Default(v, c)
		}
	}
	defaultAdditional(x, s)
}

// defaultAdditional defaults the values of x that s's additionalProperties
// cover.
func defaultAdditional(x map[string]any, s *structural.Schema) {
	ap := s.AdditionalProperties
	if ap == nil || ap.Schema == nil {
		return
	}
	c := ap.Schema
	if !c.HasDefault && !c.HasDefaultsBelow() {
		return
	}
	for k, v := range x {
		if _, isProp := s.Property(k); isProp {
			continue
		}
		v = plainField(x, k, v)
		if v == nil && c.HasDefault && !c.Nullable {
			v = jsonvalue.DeepCopy(c.Default)
			x[k] = v
		}
		Default(v, c)
	}
}

// defaultList defaults the items of x against s, which has defaults below
// it.
func defaultList(x []any, s *structural.Schema) {
	it := s.Items
	if it == nil {
		return
	}
	for i, v := range x {
		v = plainItem(x, i, v)
		if v == nil && it.HasDefault && !it.Nullable {
			v = jsonvalue.DeepCopy(it.Default)
			x[i] = v
		}
		Default(v, it)
	}
}

// plainField is the value v of key k of x as the walks read it: a value
// that is not plain JSON is replaced, in x, by its JSON form when that is
// an object, a list or null (see the package doc).
func plainField(x map[string]any, k string, v any) any {
	if n, ok, _ := jsonvalue.Container(v); ok {
		x[k] = n
		return n
	}
	return v
}

// plainItem is plainField for the item i of a list.
func plainItem(x []any, i int, v any) any {
	if n, ok, _ := jsonvalue.Container(v); ok {
		x[i] = n
		return n
	}
	return v
}

// DropNullsAndDefault removes, in place, every object field whose value is
// null and whose schema is neither nullable nor has a default (the schema
// of a field is its properties entry, else the additionalProperties schema;
// nulls in arrays are never removed, values with no schema are left
// alone), and applies the defaults of s (see Default), in one walk over
// obj. The result is exactly that of dropping first and defaulting after,
// including for defaults that hold nulls themselves: a default is copied in
// after the nulls are dropped, so its nulls are kept. This is what the
// apiserver does to a request after pruning it (with the schema whose
// defaults were pruned, see PruneDefaults). An object with nothing to drop
// or default is left untouched without allocating. A nil s does nothing.
func DropNullsAndDefault(obj any, s *structural.Schema) {
	switch x := obj.(type) {
	case map[string]any:
		dropAndDefaultObject(x, s)
	case []any:
		dropAndDefaultList(x, s)
	}
}

// dropAndDefaultObject is DropNullsAndDefault for an object.
func dropAndDefaultObject(x map[string]any, s *structural.Schema) {
	if s.IsLeaf() {
		return
	}
	if !s.HasDefaultsBelow() {
		prune.DropNulls(x, s)
		return
	}
	var apSchema *structural.Schema
	if s.AdditionalProperties != nil {
		apSchema = s.AdditionalProperties.Schema
	}
	// seen counts the properties with a default present in x: when all
	// are, no default is missing.
	seen := 0
	for k, v := range x {
		c, isProp := s.Property(k)
		if !isProp {
			if c = apSchema; c == nil {
				continue
			}
		} else if c.HasDefault {
			seen++
		}
		switch v := plainField(x, k, v).(type) {
		case nil:
			switch {
			case c.Nullable:
			case !c.HasDefault:
				delete(x, k)
			default:
				x[k] = defaultedCopy(c)
			}
		case map[string]any:
			dropAndDefaultObject(v, c)
		case []any:
			dropAndDefaultList(v, c)
		}
	}
	if names := s.PropertiesWithDefault(); seen < len(names) {
		for _, k := range names {
			if _, found := x[k]; !found {
				c, _ := s.Property(k)
				x[k] = defaultedCopy(c)
			}
		}
	}
}

// dropAndDefaultList is DropNullsAndDefault for a list.
func dropAndDefaultList(x []any, s *structural.Schema) {
	if s == nil || s.Items == nil {
		return
	}
	if !s.HasDefaultsBelow() {
		prune.DropNulls(x, s)
		return
	}
	it := s.Items
	for i, v := range x {
		switch v := plainItem(x, i, v).(type) {
		case nil:
			if it.HasDefault && !it.Nullable {
				x[i] = defaultedCopy(it)
			}
		case map[string]any:
			dropAndDefaultObject(v, it)
		case []any:
			dropAndDefaultList(v, it)
		}
	}
}

// defaultedCopy returns a deep copy of c's default, defaulted further by c.
// Its nulls are kept: DropNulls runs before defaults are copied in.
func defaultedCopy(c *structural.Schema) any {
	d := jsonvalue.DeepCopy(c.Default)
	Default(d, c)
	return d
}
