package celhint

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/sample"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// MaxItemEnumVariants bounds the variants ItemEnumVariants returns.
const MaxItemEnumVariants = 16

// maxSmallDepth bounds the nesting smallest builds.
const maxSmallDepth = 16

// ItemEnumVariants are values of a rule's node that RangeVariants does
// not make, for the lists its rules range over: the list holding one item
// twice, the item of each value of its enum, or with a string field of
// its set to each value of the field's enum (fields by name, values in
// enum order), so that a rule counting the items of one kind
// (self.filter(f, f.type == 'CORS').size() <= 1) meets two. The item is
// the list's first in base, else the smallest the schema allows (its
// required fields only). Where the item's fields are a union that field
// discriminates (a field named as a value, cors for CORS), the fields
// named as the other values are removed and the value's own is set, to
// its smallest, when absent. At most MaxItemEnumVariants come back, each
// a new value (base is not changed); the engine still has to check them.
func ItemEnumVariants(node *structural.Schema, base any, hints []Hints, r *rand.Rand) []any {
	b := &boundary{node: node, base: base, r: r, seen: map[string]bool{}}
	eachRange(node, hints, func(_ Hints, f Path, s *structural.Schema) {
		if s.Type == "array" && s.Items != nil {
			b.enumDuplicates(f, s.Items)
		}
	})
	return b.out[:min(len(b.out), MaxItemEnumVariants)]
}

// enumDuplicates sets the list at f (items its item schema) to two
// copies of an item of each enum value (ItemEnumVariants).
func (b *boundary) enumDuplicates(f Path, items *structural.Schema) {
	twice := func(item any) {
		b.with(func(v any) (any, bool) {
			return setHint(v, f, []any{jsonvalue.DeepCopy(item), jsonvalue.DeepCopy(item)}, b.node, b.r), true
		})
	}
	if items.Source != nil && len(items.Source.Enum) > 0 {
		for _, e := range items.Source.Enum {
			twice(e.Value)
		}
		return
	}
	item, ok := getHint(b.base, f.child("*"))
	if !ok {
		item, ok = smallest(items, b.r, 0)
	}
	first, isObject := item.(map[string]any)
	if !ok || !isObject {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(items.Properties)) {
		field := items.Properties[name]
		if field.Type != "string" || field.Source == nil || len(field.Source.Enum) == 0 {
			continue
		}
		for _, e := range field.Source.Enum {
			if x, ok := e.Value.(string); ok {
				twice(unionMember(first, items, name, x, field, b.r))
			}
		}
	}
}

// unionMember is a copy of item with its field name set to x; fields of
// item's schema named as another value of the field's enum (the members
// of a union it discriminates) are removed, and the one named as x set to
// its smallest value when absent.
func unionMember(item map[string]any, items *structural.Schema, name, x string, field *structural.Schema, r *rand.Rand) map[string]any {
	out := jsonvalue.DeepCopy(item).(map[string]any)
	out[name] = x
	for _, member := range slices.Sorted(maps.Keys(items.Properties)) {
		_, has := out[member]
		switch {
		case member == name || (has && strings.EqualFold(member, x)):
		case strings.EqualFold(member, x):
			if v, ok := smallest(items.Properties[member], r, 0); ok {
				out[member] = v
			}
		case namesValue(field, member):
			delete(out, member)
		}
	}
	return out
}

// namesValue reports whether a field is named as a string of field's
// enum (cors for CORS: a union's member).
func namesValue(field *structural.Schema, name string) bool {
	return slices.ContainsFunc(field.Source.Enum, func(e schema.JSON) bool {
		s, ok := e.Value.(string)
		return ok && strings.EqualFold(name, s)
	})
}

// smallest is the smallest value of s: an object with its required
// fields only, each at its smallest; a sample of anything else.
func smallest(s *structural.Schema, r *rand.Rand, depth int) (any, bool) {
	if s.Type != "object" || s.Source == nil || len(s.Source.Enum) > 0 || s.EmbeddedResource || depth > maxSmallDepth {
		return sample.Value(s, r)
	}
	m := map[string]any{}
	for _, k := range s.Source.Required {
		child := s.Properties[k]
		if child == nil {
			return sample.Value(s, r)
		}
		v, ok := smallest(child, r, depth+1)
		if !ok {
			return nil, false
		}
		m[k] = v
	}
	return m, true
}
