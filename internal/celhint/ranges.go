package celhint

import (
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/sample"
	"github.com/crdschema/crdschema/structural"
)

// MaxRangeVariants bounds the variants RangeVariants returns.
const MaxRangeVariants = 16

// maxToggled bounds the optional fields whose presence a list's second
// copy of an item toggles.
const maxToggled = 4

// RangeVariants are values of a rule's node that Variants does not make,
// for the lists and maps its rules range over (self.all(x, ...),
// x.exists_one(...)): a list holding one item twice, and twice but for one
// optional field present in one copy only (the values uniqueness rules
// refuse); a map with one more key, the key set to strings that pass and
// fail the functions the rules apply to it (key.matches(...)), and to
// strings one longer than the rules' numbers, alone and before each of
// their one-character strings (key.split("/")[0].size() < 253). base is
// the node's value in an object (nil: a sample). At most
// MaxRangeVariants come back, each a new value; the engine still has to
// check them.
func RangeVariants(node *structural.Schema, base any, hints []Hints, r *rand.Rand) []any {
	b := sampledBoundary(node, base, r)
	if b == nil {
		return nil
	}
	eachRange(node, hints, func(h Hints, f Path, s *structural.Schema) {
		switch {
		case s.Type == "array" && s.Items != nil:
			b.duplicates(f, s)
		case s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
			b.keys(f, s, h)
		}
	})
	return b.out[:min(len(b.out), MaxRangeVariants)]
}

// eachRange calls fn with each field below node that the rules (their
// hints) range over and its schema, in the order the rules name them (h
// the hints of the rule naming it).
func eachRange(node *structural.Schema, hints []Hints, fn func(h Hints, f Path, s *structural.Schema)) {
	for _, h := range hints {
		for _, f := range h.Ranges {
			if s := nodeAt(node, f); s != nil {
				fn(h, f, s)
			}
		}
	}
}

// duplicates sets the list at f (s its schema) to its first item (else a
// sampled one) twice, then twice with one optional field of the second
// copy removed, or added when the first has none.
func (b *boundary) duplicates(f Path, s *structural.Schema) {
	item, ok := getHint(b.base, f.child("*"))
	if !ok {
		if item, ok = sample.Value(s.Items, b.r); !ok {
			return
		}
	}
	b.with(func(v any) (any, bool) {
		return setHint(v, f, []any{jsonvalue.DeepCopy(item), jsonvalue.DeepCopy(item)}, b.node, b.r), true
	})
	first, isObject := item.(map[string]any)
	if !isObject {
		return
	}
	var required []string
	if s.Items.Source != nil {
		required = s.Items.Source.Required
	}
	names := make([]string, 0, len(s.Items.Properties))
	for name := range s.Items.Properties {
		if !slices.Contains(required, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) > maxToggled {
		names = names[:maxToggled]
	}
	for _, name := range names {
		second := jsonvalue.DeepCopy(first).(map[string]any)
		if _, has := second[name]; has {
			delete(second, name)
		} else if x, ok := sample.Value(s.Items.Properties[name], b.r); ok {
			second[name] = x
		} else {
			continue
		}
		b.with(func(v any) (any, bool) {
			return setHint(v, f, []any{jsonvalue.DeepCopy(first), second}, b.node, b.r), true
		})
	}
}

// keys adds to the map at f (s its schema) one key, with a value sampled
// from the schema, for each of keyStrings.
func (b *boundary) keys(f Path, s *structural.Schema, h Hints) {
	for _, k := range keyStrings(f, h, b.r) {
		if !b.withMapKey(f, k, s.AdditionalProperties.Schema) {
			return
		}
	}
}

// keyStrings are the keys to try in the map at f: each string that passes
// or fails a function h applies to the key, and for each number of h (1
// to 1024) a string one longer, alone and before each one-character
// string of h (a separator) and "a".
func keyStrings(f Path, h Hints, r *rand.Rand) []string {
	key := f.child("*").String()
	var keys []string
	for _, c := range h.Calls {
		if c.Path.String() != key || c.Sep != "" {
			continue
		}
		for _, x := range callStrings(c, r) {
			if str, ok := x.(string); ok {
				keys = append(keys, str)
			}
		}
	}
	for _, n := range h.Numbers {
		if n < 1 || n > 1024 || n != float64(int(n)) {
			continue
		}
		long := strings.Repeat("a", int(n)+1)
		keys = append(keys, long)
		for _, sep := range h.Strings {
			if len(sep) == 1 {
				keys = append(keys, long+sep+"a")
			}
		}
	}
	return keys
}
