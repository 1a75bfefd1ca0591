// Package yamlfast reads the block-style YAML that CRD generators emit
// straight into the plain Go values that sigs.k8s.io/yaml.YAMLToJSON
// followed by apimachinery's JSON decoding would produce: map[string]any,
// []any, string, bool, nil, int64 and float64, with YAML 1.1's resolution of
// plain scalars as go.yaml.in/yaml/v2 does it.
//
// It reads a subset: block mappings and sequences (including sequences at
// their parent key's indentation), plain, single- and double-quoted
// scalars over one or more lines, literal and folded block scalars, empty
// flow collections and comments. Anything else, and anything it is not sure
// it reads exactly as yaml.v2 does (anchors, aliases, tags, directives,
// document markers, complex or non-string keys, merge keys, duplicate keys,
// non-empty flow collections, tabs, carriage returns, unusual indentation,
// numbers it does not reproduce, invalid or unusual characters), makes it
// decline; the caller then uses the exact path, which also produces the
// exact error.
package yamlfast

import "sync"

// Decode reads one YAML document (a chunk between "---" separators). ok is
// false when it declines. A document with no content (blank lines and
// comments only) gives nil with ok true. Only documents whose root is a
// block mapping starting at column 0 are read.
func Decode(data []byte) (v any, ok bool) {
	p := parsers.Get().(*parser)
	defer p.release()
	// The scans read whole words up to a slice's capacity: the document's
	// end, not memory of the caller's beyond it.
	p.data = data[:len(data):len(data)]
	if !p.splitLines() {
		return nil, false
	}
	l := p.nextContent(0)
	if l < 0 {
		return nil, true
	}
	if p.lines[l].indent != 0 {
		return nil, false
	}
	k, after, ok := p.key(l, 0)
	if !ok {
		return nil, false
	}
	m := p.mappingFrom(0, l, k, after)
	if p.fail || p.nextContent(p.line) >= 0 {
		return nil, false
	}
	return m, true
}

type parser struct {
	data  []byte
	lines []line
	line  int // next line to read
	fail  bool
	buf   []byte
	depth int
	// shorts holds the short scalars read so far, which a schema repeats
	// (property names, enum values, patterns of types used in many places),
	// each with what it resolves to.
	shorts shortTable
}

// parsers holds parsers done with, whose line table, scratch buffer and
// short scalar table the next Decode reuses: a document's line table
// alone is a sixth of what it allocates.
var parsers = sync.Pool{New: func() any { return new(parser) }}

// maxPooled bounds the buffers of a parser put back in parsers: lines, bytes
// of scratch buffer, slots of its short scalar table (it is cleared for
// each document).
const maxPooled = 1 << 16

// release makes p ready for another document and puts it back in
// parsers, keeping no reference to the document it read or to its values
// (the scratch buffer still holds bytes of its text, which no later
// result can see); a parser that read a large document is left to the
// garbage collector instead.
func (p *parser) release() {
	if cap(p.lines) > maxPooled || cap(p.buf) > maxPooled || len(p.shorts.slots) > maxPooled {
		return
	}
	clear(p.shorts.entries)
	clear(p.shorts.slots)
	*p = parser{lines: p.lines[:0], buf: p.buf[:0], shorts: shortTable{slots: p.shorts.slots, entries: p.shorts.entries[:0]}}
	parsers.Put(p)
}

// maxDepth bounds nesting; deeper documents are declined.
const maxDepth = 500

func (p *parser) decline() { p.fail = true }

// plainValue returns what the plain scalar b gives as a value: see
// resolvePlain.
func (p *parser) plainValue(b []byte) any {
	if len(b) > maxShared {
		return resolvePlain(string(b))
	}
	lo, hi := shortWords(b)
	if h := hot(b, lo, hi); h != nil && h.value != nil {
		return h.value
	}
	e := p.shorts.find(b, lo, hi)
	if e == nil {
		return resolvePlain(string(b))
	}
	if e.state&valueSet == 0 {
		e.value = resolvePlain(e.s)
		e.state |= valueSet
	}
	return e.value
}

// plainKeyOf returns the key the plain scalar b gives: see plainKey.
func (p *parser) plainKeyOf(b []byte) (string, bool) {
	if len(b) > maxShared {
		return plainKey(string(b))
	}
	lo, hi := shortWords(b)
	if h := hot(b, lo, hi); h != nil {
		return h.s, true
	}
	e := p.shorts.find(b, lo, hi)
	if e == nil {
		return plainKey(string(b))
	}
	if e.state&keySet == 0 {
		e.state |= keySet
		if k, ok := plainKey(e.s); ok && k == e.s {
			e.state |= keyIsText
		}
	}
	if e.state&keyIsText != 0 {
		return e.s, true
	}
	// A boolean or integer key (rare): worked out at each use.
	return plainKey(e.s)
}
