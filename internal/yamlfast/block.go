package yamlfast

// Block collections: mapping keys, block mappings and sequences, and the
// value after a key or an entry.

import (
	"strconv"
	"strings"
)

// key reads a mapping key at column col of line l. It returns the key and
// the column just after its ':', or ok false when the line is not a key
// line the fast path reads.
func (p *parser) key(l, col int) (k string, after int, ok bool) {
	t := p.text(l, col)
	if len(t) == 0 {
		return "", 0, false
	}
	if t[0] == '"' || t[0] == '\'' {
		k, end, ok := quotedKey(t)
		return k, col + end, ok
	}
	if !plainStart(t) {
		return "", 0, false
	}
	for i := colonOrHash(t, 1); i < len(t); i = colonOrHash(t, i+1) {
		switch t[i] {
		case ':':
			if i+1 == len(t) || t[i+1] == ' ' {
				if t[i-1] == ' ' || i > 1000 {
					return "", 0, false
				}
				k, ok := p.plainKeyOf(t[:i])
				return k, col + i + 1, ok
			}
		case '#':
			if t[i-1] == ' ' {
				return "", 0, false
			}
		}
	}
	return "", 0, false
}

// quotedKey reads the quoted key that starts t, followed by ':' and a
// space or the end of the line. It returns the key and the offset in t
// just after the ':'.
func quotedKey(t []byte) (string, int, bool) {
	q := t[0]
	end := 1
	for end < len(t) {
		if t[end] == q {
			if q == '\'' && end+1 < len(t) && t[end+1] == '\'' {
				end += 2
				continue
			}
			break
		}
		if q == '"' && t[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(t) || end+1 >= len(t) || t[end+1] != ':' || (end+2 < len(t) && t[end+2] != ' ') {
		return "", 0, false
	}
	s, ok := unquoteLine(t[:end+1])
	if !ok || len(s) > 1000 || s == "<<" {
		return "", 0, false
	}
	return s, end + 2, true
}

// plainKey returns the key a plain scalar s gives: YAMLToJSON turns
// boolean and integer keys into their text; other non-string keys, and
// the merge key, are left to it.
func plainKey(s string) (string, bool) {
	if s == "<<" {
		return "", false
	}
	v, special := resolveNonString(s)
	if !special {
		return s, true
	}
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v), true
	case int64:
		// Only for a yaml.v2 integer: a float with an integral value is
		// an int64 here but a float key there.
		if _, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64); err != nil {
			return "", false
		}
		return strconv.FormatInt(v, 10), true
	}
	return "", false
}

// plainStart reports whether t starts a plain scalar the fast path reads.
func plainStart(t []byte) bool {
	switch c := t[0]; {
	case c == '-':
		return len(t) > 1 && t[1] != ' '
	case notPlainStart[c]:
		return false
	}
	return true
}

// notPlainStart marks the characters that do not start a plain scalar
// the fast path reads (a table, not a switch: plainStart runs for every
// key and value).
var notPlainStart = [256]bool{'?': true, ':': true, ',': true, '[': true, ']': true, '{': true, '}': true,
	'#': true, '&': true, '*': true, '!': true, '|': true, '>': true, '\'': true, '"': true, '%': true,
	'@': true, '`': true, ' ': true}

// mappingFrom reads a block mapping at column col whose first key, k,
// ends at column after of line l (the key is at col, or further right
// after a sequence entry's "- ").
func (p *parser) mappingFrom(col, l int, k string, after int) map[string]any {
	// Only a mapping read whole gives its level back: a decline ends the
	// document.
	p.depth++
	if p.depth > maxDepth {
		p.decline()
		return nil
	}
	m := make(map[string]any)
	for !p.fail {
		v := p.valueAfter(l, after, col, true)
		if p.fail {
			return nil
		}
		// A key seen before does not grow the map: one hash lookup
		// instead of a test and then a store.
		n := len(m)
		m[k] = v
		if len(m) == n {
			p.decline()
			return nil
		}
		l = p.nextContent(p.line)
		if l < 0 || int(p.lines[l].indent) < col {
			break
		}
		if int(p.lines[l].indent) > col {
			p.decline()
			return nil
		}
		var ok bool
		if k, after, ok = p.key(l, col); !ok {
			p.decline()
			return nil
		}
	}
	p.depth--
	return m
}

// sequence reads a block sequence whose entries are at column col.
func (p *parser) sequence(col int) []any { return p.sequenceFrom(col, -1) }

// sequenceFrom reads a block sequence whose entries are at column col and,
// when first >= 0, whose first entry is at column col of line first after
// an enclosing entry's "- " ("- - x").
func (p *parser) sequenceFrom(col, first int) []any {
	p.depth++ // given back as in mappingFrom
	if p.depth > maxDepth {
		p.decline()
		return nil
	}
	a := make([]any, 0, 4)
	for !p.fail {
		l := first
		if first >= 0 {
			first = -1
		} else {
			l = p.nextContent(p.line)
			if l < 0 || int(p.lines[l].indent) < col || !p.isSeqEntry(l, col) {
				break
			}
			if int(p.lines[l].indent) > col {
				p.decline()
				return nil
			}
		}
		a = append(a, p.seqEntry(l, col))
	}
	p.depth--
	return a
}

// seqEntry reads the entry of a block sequence at column col whose "-"
// is on line l: a nested sequence on the same line ("- - x"), a compact
// mapping ("- k: v"), or any other value.
func (p *parser) seqEntry(l, col int) any {
	t := p.text(l, col+1)
	i := skipSpaces(t, 0)
	at := col + 1 + i
	rest := t[i:]
	switch {
	case len(rest) > 0 && rest[0] == '-' && (len(rest) == 1 || rest[1] == ' '):
		if i == 0 {
			p.decline()
			return nil
		}
		return p.sequenceFrom(at, l)
	case len(rest) > 0 && rest[0] != '#':
		if k, after, isKey := p.key(l, at); isKey {
			return p.mappingFrom(at, l, k, after)
		}
	}
	return p.valueAfter(l, col+1, col, false)
}

// valueAfter reads the value that follows column at of line l (after a
// key's ':' or an entry's '-'); n is the indentation of the collection the
// value belongs to. compact allows a sequence at column n on the next lines
// (a mapping's value). It leaves p.line at the line after the value.
func (p *parser) valueAfter(l, at, n int, compact bool) any {
	t := p.text(l, at)
	i := 0
	for i < len(t) && t[i] == ' ' {
		i++
	}
	spaced := i > 0
	rest := t[i:]
	if len(rest) == 0 || (rest[0] == '#' && spaced) {
		p.line = l + 1
		return p.valueBelow(n, compact)
	}
	if !spaced && len(t) > 0 {
		// "key:value" is not a key line; "-x" not an entry.
		p.decline()
		return nil
	}
	col := at + i
	switch rest[0] {
	case '|', '>':
		return p.blockScalar(l, col, n)
	case '"', '\'':
		return p.quoted(l, col, n)
	case '[', '{':
		v, ok := p.flowValue(rest)
		if !ok {
			p.decline()
			return nil
		}
		p.line = l + 1
		return v
	}
	if !plainStart(rest) {
		p.decline()
		return nil
	}
	return p.plain(l, col, n)
}

// valueBelow reads a value that starts on the lines from p.line on, after
// a key or an entry with nothing after it: a block collection indented
// more than n, a sequence at n when compact, or else null.
func (p *parser) valueBelow(n int, compact bool) any {
	next := p.nextContent(p.line)
	if next < 0 {
		return nil
	}
	ind := int(p.lines[next].indent)
	switch {
	case ind > n:
		if p.isSeqEntry(next, ind) {
			return p.sequence(ind)
		}
		if k, after, isKey := p.key(next, ind); isKey {
			return p.mappingFrom(ind, next, k, after)
		}
		p.decline()
		return nil
	case ind == n && compact && p.isSeqEntry(next, n):
		return p.sequence(n)
	}
	return nil
}
