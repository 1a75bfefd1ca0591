package structural

import (
	"slices"
	"strings"
)

// propIndex is an open-addressing hash table of a node's properties. Its
// hash reads only the length and three bytes of a key, which is enough to
// spread the property names of real schemas, and much cheaper than a Go
// map's hash of the whole string; a key is always compared in full.
type propIndex struct {
	slots []propSlot
	// shift turns a 32-bit hash into a slot number (its top bits).
	shift uint8
}

// propSlot is a property, or an empty slot.
type propSlot struct {
	name  string
	child *Schema
	used  bool
}

// propEntry is a property: its name and schema.
type propEntry struct {
	name  string
	child *Schema
}

// sortEntries sorts properties by name.
func sortEntries(props []propEntry) {
	slices.SortFunc(props, func(a, b propEntry) int { return strings.Compare(a.name, b.name) })
}

// newPropIndex indexes props, sorted by name.
func newPropIndex(props []propEntry) propIndex {
	if len(props) == 0 {
		return propIndex{}
	}
	// At most half full, so that probe sequences stay short and every
	// lookup meets an empty slot.
	bits := uint8(1)
	for 1<<bits < 2*len(props) {
		bits++
	}
	t := propIndex{slots: make([]propSlot, 1<<bits), shift: 32 - bits}
	mask := uint32(len(t.slots) - 1)
	// In sorted order, so that equal schemas get equal tables.
	for _, p := range props {
		i := t.slot(p.name)
		for t.slots[i].used {
			i = (i + 1) & mask
		}
		t.slots[i] = propSlot{p.name, p.child, true}
	}
	return t
}

// slot is the first slot to probe for k.
func (t *propIndex) slot(k string) uint32 {
	h := uint32(len(k))
	if n := len(k); n > 0 {
		h |= uint32(k[0])<<8 | uint32(k[n/2])<<16 | uint32(k[n-1])<<24
	}
	return (h * 0x9E3779B1) >> t.shift
}

// lookup finds k in a table that is not empty.
func (t *propIndex) lookup(k string) (*Schema, bool) {
	mask := uint32(len(t.slots) - 1)
	for i := t.slot(k); ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if !sl.used {
			return nil, false
		}
		if sl.name == k {
			return sl.child, true
		}
	}
}
