package structural

import (
	"slices"
	"strings"
)

// propIndex is a node's properties sorted by name, with an open-addressing
// hash table over them for Property. Its hash reads only the length and
// three bytes of a key, which is enough to spread the property names of
// real schemas, and much cheaper than a Go map's hash of the whole string;
// a key is always compared in full.
type propIndex struct {
	// entries are the properties, sorted by name.
	entries []propEntry
	// table holds, for each slot, 1 + the position of a property in
	// entries, or 0 for an empty slot. It is nil when there are too many
	// properties to number in a uint16: Property then reads the map.
	table []uint16
	// shift turns a 32-bit hash into a slot number (its top bits).
	shift uint8
	// small is the table of up to smallProps properties, so that it takes
	// no allocation of its own.
	small [2 * smallProps]uint16
}

// smallProps is the most properties whose table is held in the index
// itself.
const smallProps = 8

// propEntry is a property: its name and schema.
type propEntry struct {
	name  string
	child *Schema
}

// sortEntries sorts properties by name.
func sortEntries(props []propEntry) {
	slices.SortFunc(props, func(a, b propEntry) int { return strings.Compare(a.name, b.name) })
}

// init indexes props, sorted by name; the index keeps props.
func (t *propIndex) init(props []propEntry) {
	t.entries = props
	if len(props) == 0 || len(props) >= 1<<16-1 {
		return
	}
	// At most half full, so that probe sequences stay short and every
	// lookup meets an empty slot.
	bits := uint8(1)
	for 1<<bits < 2*len(props) {
		bits++
	}
	if len(props) <= smallProps {
		t.table = t.small[:1<<bits]
	} else {
		t.table = make([]uint16, 1<<bits)
	}
	t.shift = 32 - bits
	mask := uint32(len(t.table) - 1)
	// In sorted order, so that equal schemas get equal tables.
	for n, p := range props {
		i := t.slot(p.name)
		for t.table[i] != 0 {
			i = (i + 1) & mask
		}
		t.table[i] = uint16(n + 1)
	}
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
	mask := uint32(len(t.table) - 1)
	for i := t.slot(k); ; i = (i + 1) & mask {
		n := t.table[i]
		if n == 0 {
			return nil, false
		}
		if e := &t.entries[n-1]; e.name == k {
			return e.child, true
		}
	}
}
