package cel

import (
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// subtreeHash returns a hash of the structural subtree of s (its items,
// additionalProperties and properties) that subtrees equal by
// equalStructural without descriptions share: it reads only what that
// comparison compares, and not all of it (no default, bound of a number,
// enum value or junctor). Never zero. CompileCache.lookup compares a node
// only with the entries of its hash: on chains of nodes with the same
// rules that differ only at their leaves (a string's maxLength), every
// compare walked down to the leaf.
//
// memo, when not nil, holds the hashes found so far of nodes with rules
// (those a lookup compares) and takes the new ones, so that the hashes of
// the nodes of a chain with rules cost one walk of the chain. A subtree
// without rules is walked again for each node with rules above it that is
// hashed: over the corpus' CRDs the memo then holds 116 hashes (at most
// 25 for one CRD) instead of 3,986 (3,773).
func subtreeHash(s *structural.Schema, memo map[*structural.Schema]uint64) uint64 {
	if s == nil {
		return 0
	}
	if h, ok := memo[s]; ok {
		return h
	}
	h := mixHash(nodeHash(s), subtreeHash(s.Items, memo))
	if s.AdditionalProperties != nil {
		h = mixHash(h, subtreeHash(s.AdditionalProperties.Schema, memo))
	}
	// Summed, so that the map's order does not count.
	var props uint64
	for name, p := range s.Properties {
		props += mixHash(stringHash(name), subtreeHash(p, memo))
	}
	h = mixHash(h, props) | 1
	if memo != nil && nodeHasRules(s.Source) {
		memo[s] = h
	}
	return h
}

// nodeHash is the hash of what s's node has of its own: its structural
// keywords and, of the schema it was built from, its format, pattern,
// length, item and property bounds, the numbers of its enum values and
// required fields, and its rules' text.
func nodeHash(s *structural.Schema) uint64 {
	var flags uint64
	for i, b := range [...]bool{s.Nullable, s.HasDefault, s.PreserveUnknownFields, s.EmbeddedResource, s.IntOrString,
		s.AdditionalProperties != nil, s.AdditionalProperties != nil && s.AdditionalProperties.Allows, s.Source != nil} {
		if b {
			flags |= 1 << i
		}
	}
	h := mixHash(flags, stringHash(s.Type))
	h = mixHash(h, stringHash(s.ListType))
	h = mixHash(h, stringHash(s.MapType))
	h = mixHash(h, uint64(len(s.ListMapKeys)))
	if p := s.Source; p != nil {
		h = mixHash(h, propsHash(p))
	}
	return h
}

// propsHash is nodeHash's part of a node's schema as written.
func propsHash(p *schema.Props) uint64 {
	h := mixHash(stringHash(p.Format), stringHash(p.Pattern))
	for _, n := range [...]*int64{p.MaxLength, p.MinLength, p.MaxItems, p.MinItems, p.MaxProperties, p.MinProperties} {
		if n == nil {
			h = mixHash(h, 0)
		} else {
			h = mixHash(mixHash(h, 1), uint64(*n))
		}
	}
	h = mixHash(h, uint64(len(p.Enum))<<32|uint64(len(p.Required)))
	for i := range p.XValidations {
		h = mixHash(h, stringHash(p.XValidations[i].Rule))
	}
	return h
}

// mixHash combines a hash with a value.
func mixHash(h, v uint64) uint64 {
	h = (h ^ v) * 0x100000001b3
	return h ^ h>>29
}

// stringHash is the FNV-1a hash of s.
func stringHash(s string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 0x100000001b3
	}
	return h
}
