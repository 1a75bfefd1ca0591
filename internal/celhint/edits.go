package celhint

import (
	"encoding/json"
	"math/rand/v2"

	"github.com/crdschema/crdschema/internal/sample"
	"github.com/crdschema/crdschema/structural"
)

// MaxEditVariants bounds the variants EditVariants returns.
const MaxEditVariants = 8

// EditVariants are values of a rule's node that the other variants do
// not make, for the strings its rules read through a function that
// changes them (self.plural == self.plural.lowerAscii()): the field's
// string (in base, else sampled) changed so that the function changes it
// back (editedStrings), each string once. A map's key read so gets the
// edited forms of "k" as one more key. Only strings a function would
// change are tried; fields the schema does not have, and parts of a
// split, are left out. base is the node's value in an object (nil: a
// sample); hints are the rules' (ParseAll). At most MaxEditVariants
// come back, each a new value (base is not changed); the engine still
// has to check them.
func EditVariants(node *structural.Schema, base any, hints []Hints, r *rand.Rand) []any {
	b := sampledBoundary(node, base, r)
	if b == nil {
		return nil
	}
	if key, err := json.Marshal(base); err == nil {
		b.seen[string(key)] = true // the base itself is no variant
	}
	for _, h := range hints {
		for _, c := range h.Calls {
			if c.Part < 0 {
				b.edited(c)
			}
		}
	}
	return b.out[:min(len(b.out), MaxEditVariants)]
}

// edited adds the base with the string at c's path changed for c's
// function (editedStrings); for a map's key, the map with one more key.
func (b *boundary) edited(c Call) {
	if n := len(c.Path); n > 0 && c.Path[n-1] == "*" {
		parent := c.Path[:n-1]
		if m := nodeAt(b.node, parent); m != nil && m.Items == nil && m.AdditionalProperties != nil && m.AdditionalProperties.Schema != nil {
			for _, k := range editedStrings(c, "k") {
				b.withMapKey(parent, k, m.AdditionalProperties.Schema)
			}
			return
		}
	}
	s := nodeAt(b.node, c.Path)
	if s == nil || s.Type != "string" {
		return
	}
	str, ok := b.stringAt(c.Path, s)
	if !ok {
		return
	}
	for _, x := range editedStrings(c, str) {
		b.with(func(v any) (any, bool) { return setHint(v, c.Path, x, b.node, b.r), true })
	}
}

// stringAt is the string at p in the base, else one sampled from s.
func (b *boundary) stringAt(p Path, s *structural.Schema) (string, bool) {
	if x, ok := getHint(b.base, p); ok {
		if str, isString := x.(string); isString {
			return str, true
		}
	}
	x, ok := sample.Value(s, b.r)
	if !ok {
		return "", false
	}
	str, isString := x.(string)
	return str, isString
}

// editedStrings are strings near s that c's function changes: for
// lowerAscii, s with its first lower-case ASCII letter upper-cased and s
// all upper-cased (upperAscii: the reverse), "A" appended when s has no
// such letter; for trim, a space before s and one after; for replace, s
// with the replaced string appended. Strings equal to s are left out.
func editedStrings(c Call, s string) []string {
	var out []string
	switch c.Func {
	case "lowerAscii":
		out = caseEdits(s, 'a', 'A')
	case "upperAscii":
		out = caseEdits(s, 'A', 'a')
	case "trim":
		out = []string{" " + s, s + " "}
	case "replace":
		if from, ok := firstString(c.Args); ok && from != "" && (len(c.Args) < 2 || c.Args[1] != from) {
			out = []string{s + from}
		}
	}
	return out
}

// caseEdits are s with its first ASCII letter of the case from 'a' or
// 'A' turned to the other case, and s with all of them turned; s with
// to's letter appended when it has none.
func caseEdits(s string, from, to byte) []string {
	b := []byte(s)
	first := -1
	for i, c := range b {
		if c >= from && c <= from+25 {
			if first < 0 {
				first = i
			}
			b[i] = c - from + to
		}
	}
	if first < 0 {
		return []string{s + string(rune(to))}
	}
	one := []byte(s)
	one[first] = b[first]
	if string(one) == string(b) {
		return []string{string(b)}
	}
	return []string{string(one), string(b)}
}
