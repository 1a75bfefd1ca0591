package yamlfast

// The short scalars of a document, shared: a small hash table of their
// texts, each with its resolution.

import (
	"encoding/binary"

	"github.com/crdschema/crdschema/internal/jsonfast"
)

// short is a short scalar of the document: its text, shared by all its
// occurrences, and what it gives as a plain value and as a plain key, each
// worked out the first time it is needed.
type short struct {
	s      string
	lo, hi uint64 // s's first and last eight bytes, as shortWords gives them
	value  any    // valueSet: resolvePlain(s)
	state  uint8
}

const (
	valueSet  uint8 = 1 << iota
	keySet          // keyIsText is known
	keyIsText       // plainKey(s) is s
)

// shortTable holds a document's short scalars in an open-addressing hash
// table, at most a quarter full. A text whose probe sequence is longer
// than maxProbe is not shared, so that texts made to collide cost a
// bounded search each.
type shortTable struct {
	slots   []int32 // an index into entries plus one; 0 for an empty slot
	entries []short
}

// maxShared is the length of the longest scalar shared: longer ones
// (descriptions) rarely repeat.
const maxShared = 64

const maxProbe = 16

// find returns the entry of the text b of up to maxShared bytes, whose
// shortWords are lo and hi, adding it when new, or nil when it is not
// shared (too many texts of its hash).
func (t *shortTable) find(b []byte, lo, hi uint64) *short {
	if len(t.entries)*4 >= len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	h := shortHash(b, lo, hi)
	for probe := uint64(0); probe < maxProbe; probe++ {
		j := (h + probe) & mask
		i := t.slots[j]
		if i == 0 {
			text := string(b)
			if h := hot(b, lo, hi); h != nil {
				text = h.s
			}
			t.entries = append(t.entries, short{s: text, lo: lo, hi: hi})
			t.slots[j] = int32(len(t.entries))
			return &t.entries[len(t.entries)-1]
		}
		// Up to sixteen bytes, the words and the length are the text.
		if e := &t.entries[i-1]; e.lo == lo && e.hi == hi && len(e.s) == len(b) && (len(b) <= 16 || e.s == string(b)) {
			return e
		}
	}
	return nil
}

// grow doubles the table (or makes its first one) and places the entries
// again.
func (t *shortTable) grow() {
	n := max(2*len(t.slots), 256)
	t.slots = make([]int32, n)
	mask := uint64(n - 1)
	for i := range t.entries {
		e := &t.entries[i]
		var buf [maxShared]byte
		h := shortHash(buf[:copy(buf[:], e.s)], e.lo, e.hi)
		for probe := uint64(0); ; probe++ {
			if j := (h + probe) & mask; t.slots[j] == 0 {
				t.slots[j] = int32(i + 1)
				break
			}
		}
	}
}

// shortWords returns the first and the last eight bytes of b as words, or
// its bytes in lo (and 0 in hi) when it is shorter.
func shortWords(b []byte) (lo, hi uint64) {
	switch {
	case len(b) >= 8:
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[len(b)-8:])
	case cap(b) >= 8:
		// The bytes after b, up to its capacity, are read and dropped:
		// one load instead of a loop.
		return binary.LittleEndian.Uint64(b[:8]) & (1<<(8*len(b)&63) - 1), 0
	}
	for i := 0; i < len(b); i++ {
		lo |= uint64(b[i]) << (8 * i)
	}
	return lo, 0
}

// shortHash hashes the text b, whose shortWords are lo and hi, and whose
// bytes between them (texts over sixteen bytes) are read a word at a
// time. Texts made to collide cost at most maxProbe comparisons each
// (find).
func shortHash(b []byte, lo, hi uint64) uint64 {
	const k1, k2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9
	h := (lo ^ uint64(len(b))) * k1
	for i := 8; i+8 < len(b); i += 8 {
		h = (h ^ binary.LittleEndian.Uint64(b[i:]) ^ h>>29) * k2
	}
	h = (h ^ hi ^ h>>29) * k2
	return h ^ h>>32
}

// hotText is one of the texts schemas repeat most. Read as a key (and,
// for the type names, as a value) it is recognised by its words before the
// table is searched; anywhere, its string is the program's constant, which
// a comparison with the same constant elsewhere (a decoder's) stops at
// its pointer.
type hotText struct {
	lo, hi uint64 // shortWords(s)
	s      string
	value  any // s as a plain value, shared; nil when left to the table
}

// hotTexts holds the hot texts by length. None is a YAML 1.1 boolean,
// null or number: each is its own key (TestHotTexts).
var hotTexts = func() (byLen [maxShared + 1][]hotText) {
	add := func(s string, value any) {
		lo, hi := shortWords([]byte(s))
		byLen[len(s)] = append(byLen[len(s)], hotText{lo: lo, hi: hi, s: s, value: value})
	}
	for _, s := range []string{"description", "type", "properties", "items", "required", "format", "name",
		"x-kubernetes-preserve-unknown-fields", "additionalProperties"} {
		add(s, nil)
	}
	for _, s := range []string{"object", "string", "array", "integer", "boolean"} {
		add(s, jsonfast.Box(s))
	}
	return byLen
}()

// hot returns the hot text b is, given its shortWords, or nil.
func hot(b []byte, lo, hi uint64) *hotText {
	if len(b) > maxShared {
		return nil
	}
	texts := hotTexts[len(b)]
	for i := range texts {
		if h := &texts[i]; h.lo == lo && h.hi == hi && (len(b) <= 16 || h.s == string(b)) {
			return h
		}
	}
	return nil
}
