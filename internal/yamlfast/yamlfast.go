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

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/crdschema/crdschema/internal/jsonfast"
)

// Decode reads one YAML document (a chunk between "---" separators). ok is
// false when it declines. A document with no content (blank lines and
// comments only) gives nil with ok true. Only documents whose root is a
// block mapping starting at column 0 are read.
func Decode(data []byte) (v any, ok bool) {
	p := parser{data: data}
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
	m := p.mappingFrom(0, l, 0)
	if p.fail || p.nextContent(p.line) >= 0 {
		return nil, false
	}
	return m, true
}

type line struct {
	start, end int // content is data[start:end], without the newline
	indent     int // leading spaces
	kind       byte
}

const (
	blankLine   = 'b'
	commentLine = 'c'
	textLine    = 't'
)

type parser struct {
	data  []byte
	lines []line
	line  int // next line to read
	fail  bool
	buf   []byte
	depth int
}

// maxDepth bounds nesting; deeper documents are declined.
const maxDepth = 500

// splitLines splits the input into lines. It reports false, declining,
// when the input holds characters the fast path does not read the way
// yaml.v2 does (anything but printable ASCII, newlines and printable
// non-ASCII characters other than YAML 1.1's line breaks and the byte order
// mark) or a directive or document marker at the start of a line.
func (p *parser) splitLines() bool {
	d := p.data
	p.lines = make([]line, 0, bytes.Count(d, []byte{'\n'})+1)
	for pos := 0; pos < len(d); {
		end := bytes.IndexByte(d[pos:], '\n')
		if end < 0 {
			end = len(d)
		} else {
			end += pos
		}
		ln := d[pos:end]
		if len(ln) > 0 {
			switch c := ln[0]; c {
			case '%':
				return false
			case '-', '.':
				if len(ln) >= 3 && ln[1] == c && ln[2] == c {
					return false
				}
			}
		}
		for i := 0; i < len(ln); i++ {
			c := ln[i]
			if c >= 0x20 && c < 0x7f {
				continue
			}
			if c < 0x80 {
				return false
			}
			r, size := utf8.DecodeRune(ln[i:])
			if r == utf8.RuneError || r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
				return false
			}
			i += size - 1
		}
		ind := 0
		for ind < len(ln) && ln[ind] == ' ' {
			ind++
		}
		l := line{start: pos, end: end, indent: ind, kind: textLine}
		switch {
		case ind == len(ln):
			l.kind = blankLine
		case ln[ind] == '#':
			l.kind = commentLine
		}
		p.lines = append(p.lines, l)
		pos = end + 1
	}
	return true
}

// nextContent returns the first line from l on that is neither blank nor a
// comment, or -1.
func (p *parser) nextContent(l int) int {
	for ; l < len(p.lines); l++ {
		if p.lines[l].kind == textLine {
			return l
		}
	}
	return -1
}

// text returns line l from column col.
func (p *parser) text(l, col int) []byte {
	ln := p.lines[l]
	return p.data[ln.start+col : ln.end]
}

// isSeqEntry reports whether line l has a sequence entry ("-" followed by a
// space or the end of the line) at column col.
func (p *parser) isSeqEntry(l, col int) bool {
	t := p.text(l, col)
	return len(t) > 0 && t[0] == '-' && (len(t) == 1 || t[1] == ' ')
}

func (p *parser) decline() { p.fail = true }

// restIsComment reports whether t holds only spaces, optionally followed by
// a comment that a space separates from what came before (or that starts
// the line when atStart).
func restIsComment(t []byte, spaced bool) bool {
	i := 0
	for i < len(t) && t[i] == ' ' {
		i++
	}
	if i == len(t) {
		return true
	}
	return t[i] == '#' && (i > 0 || spaced)
}

// key reads a mapping key at column col of line l. It returns the key and
// the column just after its ':', or ok false when the line is not a key
// line the fast path reads.
func (p *parser) key(l, col int) (k string, after int, ok bool) {
	t := p.text(l, col)
	if len(t) == 0 {
		return "", 0, false
	}
	switch t[0] {
	case '"', '\'':
		end := 1
		for end < len(t) {
			if t[end] == t[0] {
				if t[0] == '\'' && end+1 < len(t) && t[end+1] == '\'' {
					end += 2
					continue
				}
				break
			}
			if t[0] == '"' && t[end] == '\\' {
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
		return s, col + end + 2, true
	}
	if !plainStart(t) {
		return "", 0, false
	}
	for i := 1; i < len(t); i++ {
		switch t[i] {
		case ':':
			if i+1 == len(t) || t[i+1] == ' ' {
				if t[i-1] == ' ' || i > 1000 {
					return "", 0, false
				}
				kb := t[:i]
				s := p.intern(kb)
				if s == "<<" {
					return "", 0, false
				}
				// YAMLToJSON turns boolean and integer keys into their
				// text; other non-string keys are left to it.
				v, special := resolveNonString(s)
				if !special {
					return s, col + i + 1, true
				}
				switch v := v.(type) {
				case bool:
					s = strconv.FormatBool(v)
				case int64:
					// Only for a yaml.v2 integer: a float with an integral
					// value is an int64 here but a float key there.
					if _, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64); err != nil {
						return "", 0, false
					}
					s = strconv.FormatInt(v, 10)
				default:
					return "", 0, false
				}
				return s, col + i + 1, true
			}
		case '#':
			if t[i-1] == ' ' {
				return "", 0, false
			}
		}
	}
	return "", 0, false
}

// plainStart reports whether t starts a plain scalar the fast path reads.
func plainStart(t []byte) bool {
	switch t[0] {
	case '-':
		return len(t) > 1 && t[1] != ' '
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	}
	return true
}

// intern returns b as a string, sharing the strings of frequent keys.
func (p *parser) intern(b []byte) string {
	switch string(b) {
	case "description":
		return "description"
	case "type":
		return "type"
	case "properties":
		return "properties"
	case "items":
		return "items"
	case "required":
		return "required"
	case "format":
		return "format"
	case "object":
		return "object"
	case "string":
		return "string"
	case "array":
		return "array"
	case "integer":
		return "integer"
	case "boolean":
		return "boolean"
	case "x-kubernetes-preserve-unknown-fields":
		return "x-kubernetes-preserve-unknown-fields"
	case "additionalProperties":
		return "additionalProperties"
	case "name":
		return "name"
	}
	return string(b)
}

// mappingFrom reads a block mapping at column col whose first key is at
// column first of line l (first > col for a mapping that starts after a
// sequence entry's "- ").
func (p *parser) mappingFrom(col, l, first int) map[string]any {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.decline()
		return nil
	}
	m := make(map[string]any)
	kcol := first
	for !p.fail {
		k, after, ok := p.key(l, kcol)
		if !ok {
			p.decline()
			return nil
		}
		v := p.valueAfter(l, after, col, true)
		if p.fail {
			return nil
		}
		if _, dup := m[k]; dup {
			p.decline()
			return nil
		}
		m[k] = v
		l = p.nextContent(p.line)
		if l < 0 || p.lines[l].indent < col {
			break
		}
		if p.lines[l].indent > col {
			p.decline()
			return nil
		}
		kcol = col
	}
	return m
}

// sequence reads a block sequence whose entries are at column col.
func (p *parser) sequence(col int) []any { return p.sequenceFrom(col, -1) }

// sequenceFrom reads a block sequence whose entries are at column col and,
// when first >= 0, whose first entry is at column col of line first after
// an enclosing entry's "- " ("- - x").
func (p *parser) sequenceFrom(col, first int) []any {
	p.depth++
	defer func() { p.depth-- }()
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
			if l < 0 || p.lines[l].indent < col || !p.isSeqEntry(l, col) {
				break
			}
			if p.lines[l].indent > col {
				p.decline()
				return nil
			}
		}
		t := p.text(l, col+1)
		i := 0
		for i < len(t) && t[i] == ' ' {
			i++
		}
		at := col + 1 + i
		rest := t[i:]
		switch {
		case len(rest) > 0 && rest[0] == '-' && (len(rest) == 1 || rest[1] == ' '):
			if i == 0 {
				p.decline()
				return nil
			}
			a = append(a, p.sequenceFrom(at, l))
			continue
		case len(rest) > 0 && rest[0] != '#':
			if _, _, isKey := p.key(l, at); isKey {
				a = append(a, p.mappingFrom(at, l, at))
				continue
			}
		}
		a = append(a, p.valueAfter(l, col+1, col, false))
	}
	return a
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
		next := p.nextContent(p.line)
		if next < 0 {
			return nil
		}
		ind := p.lines[next].indent
		switch {
		case ind > n:
			if p.isSeqEntry(next, ind) {
				return p.sequence(ind)
			}
			if _, _, isKey := p.key(next, ind); isKey {
				return p.mappingFrom(ind, next, ind)
			}
			p.decline()
			return nil
		case ind == n && compact && p.isSeqEntry(next, n):
			return p.sequence(n)
		}
		return nil
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
		if rest[0] == '[' && len(bytes.TrimLeft(rest[1:], " ")) > 0 && bytes.TrimLeft(rest[1:], " ")[0] != ']' {
			a, ok := p.flowSequence(rest)
			if !ok {
				p.decline()
				return nil
			}
			p.line = l + 1
			return a
		}
		close := byte(']')
		if rest[0] == '{' {
			close = '}'
		}
		k := 1
		for k < len(rest) && rest[k] == ' ' {
			k++
		}
		if k >= len(rest) || rest[k] != close || !restIsComment(rest[k+1:], false) {
			p.decline()
			return nil
		}
		p.line = l + 1
		if close == ']' {
			return []any{}
		}
		return map[string]any{}
	}
	if !plainStart(rest) {
		p.decline()
		return nil
	}
	return p.plain(l, col, n)
}

// plain reads a plain scalar starting at column col of line l, continued on
// the following lines indented more than n, and resolves it.
func (p *parser) plain(l, col, n int) any {
	t := p.text(l, col)
	first, ok := plainLine(t)
	if !ok {
		p.decline()
		return nil
	}
	p.line = l + 1
	if len(first) != len(trimRight(t)) {
		// A comment ends the scalar.
		return p.resolveBytes(first)
	}
	// Continuation lines.
	var s []byte
	multi := false
	breaks := 0
	for next := l + 1; next < len(p.lines); next++ {
		ln := p.lines[next]
		if ln.kind == blankLine {
			breaks++
			continue
		}
		if ln.indent <= n || ln.kind == commentLine {
			break
		}
		t = p.text(next, ln.indent)
		if t[0] == '-' && (len(t) == 1 || t[1] == ' ') {
			p.decline()
			return nil
		}
		part, ok := plainLine(t)
		if !ok || len(part) != len(trimRight(t)) {
			p.decline()
			return nil
		}
		if !multi {
			s = append(p.buf[:0], first...)
			multi = true
		}
		if breaks == 0 {
			s = append(s, ' ')
		}
		for ; breaks > 0; breaks-- {
			s = append(s, '\n')
		}
		s = append(s, part...)
		p.line = next + 1
	}
	if !multi {
		return p.resolveBytes(first)
	}
	p.buf = s
	return p.resolveBytes(s)
}

func (p *parser) resolveBytes(b []byte) any {
	s := p.intern(b)
	v, special := resolveNonString(s)
	if !special {
		return jsonfast.Box(s)
	}
	if v == declined {
		p.decline()
		return nil
	}
	return v
}

func trimRight(t []byte) []byte {
	for len(t) > 0 && t[len(t)-1] == ' ' {
		t = t[:len(t)-1]
	}
	return t
}

// plainLine returns the plain scalar text of one line, which ends at a
// comment or the end of the line, without trailing spaces. ok is false when
// the line holds ": " or ends with ':' (a mapping value where none is
// allowed).
func plainLine(t []byte) ([]byte, bool) {
	end := len(t)
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case ':':
			if i+1 == len(t) || t[i+1] == ' ' {
				return nil, false
			}
		case '#':
			if i > 0 && t[i-1] == ' ' {
				end = i
				i = len(t)
			}
		}
	}
	return trimRight(t[:end]), true
}

// quoted reads a single- or double-quoted scalar starting at column col of
// line l; continuation lines must be indented more than n.
func (p *parser) quoted(l, col, n int) any {
	ln := p.lines[l]
	pos := ln.start + col
	q := p.data[pos]
	s := p.buf[:0]
	i := pos + 1
	d := p.data
	cur := l
	for {
		// Non-blank characters.
		for i < len(d) && d[i] != ' ' && d[i] != '\n' {
			c := d[i]
			if c == q {
				if q == '\'' && i+1 < len(d) && d[i+1] == '\'' {
					s = append(s, '\'')
					i += 2
					continue
				}
				goto closed
			}
			if q == '"' && c == '\\' {
				if i+1 < len(d) && d[i+1] == '\n' {
					// An escaped line break.
					i += 2
					cur++
					if !p.contOK(cur, n) {
						p.decline()
						return nil
					}
					i = p.skipFold(&s, i, &cur, n, true)
					if p.fail {
						return nil
					}
					continue
				}
				var ok bool
				s, i, ok = unescape(s, d, i)
				if !ok {
					p.decline()
					return nil
				}
				continue
			}
			s = append(s, c)
			i++
		}
		if i >= len(d) {
			p.decline()
			return nil
		}
		// Blanks and line breaks.
		j := i
		for j < len(d) && d[j] == ' ' {
			j++
		}
		if j < len(d) && d[j] != '\n' {
			s = append(s, d[i:j]...) // inner spaces
			i = j
			continue
		}
		if j >= len(d) {
			p.decline()
			return nil
		}
		i = j + 1
		cur++
		if !p.contOK(cur, n) {
			p.decline()
			return nil
		}
		i = p.skipFold(&s, i, &cur, n, false)
		if p.fail {
			return nil
		}
	}
closed:
	p.buf = s
	// The rest of the closing line must be blank or a comment.
	if end := p.lines[cur].end; !restIsComment(d[i+1:end], false) || (i+1 < end && d[i+1] == '#') {
		p.decline()
		return nil
	}
	p.line = cur + 1
	return string(s)
}

// contOK reports whether line l may continue a quoted scalar of a
// collection at indentation n.
func (p *parser) contOK(l, n int) bool {
	if l >= len(p.lines) {
		return false
	}
	ln := p.lines[l]
	return ln.kind == blankLine || ln.indent > n
}

// skipFold is called at the start of a continuation line (offset i, line
// *cur) of a quoted scalar, after a line break (or an escaped one when
// escaped). It skips the line's indentation and any blank lines and appends
// the folding: one space for a single break, a newline for each blank line
// otherwise (nothing but those newlines after an escaped break).
func (p *parser) skipFold(s *[]byte, i int, cur *int, n int, escaped bool) int {
	d := p.data
	breaks := 0
	for {
		for i < len(d) && d[i] == ' ' {
			i++
		}
		if i < len(d) && d[i] == '\n' {
			breaks++
			i++
			*cur++
			if !p.contOK(*cur, n) {
				p.decline()
				return i
			}
			continue
		}
		break
	}
	if i >= len(d) {
		p.decline()
		return i
	}
	if !escaped && breaks == 0 {
		*s = append(*s, ' ')
	}
	for ; breaks > 0; breaks-- {
		*s = append(*s, '\n')
	}
	return i
}

// unescape decodes the escape sequence at d[i] ('\\') of a double-quoted
// scalar as yaml.v2 does, declining escapes it rejects or that would give a
// surrogate or an out-of-range code point.
func unescape(s, d []byte, i int) ([]byte, int, bool) {
	if i+1 >= len(d) {
		return s, i, false
	}
	c := d[i+1]
	i += 2
	switch c {
	case '0':
		return append(s, 0), i, true
	case 'a':
		return append(s, 7), i, true
	case 'b':
		return append(s, 8), i, true
	case 't':
		return append(s, 9), i, true
	case 'n':
		return append(s, 10), i, true
	case 'v':
		return append(s, 11), i, true
	case 'f':
		return append(s, 12), i, true
	case 'r':
		return append(s, 13), i, true
	case 'e':
		return append(s, 0x1b), i, true
	case ' ', '"', '\'', '\\':
		return append(s, c), i, true
	case 'N':
		return utf8.AppendRune(s, 0x85), i, true
	case '_':
		return utf8.AppendRune(s, 0xA0), i, true
	case 'L':
		return utf8.AppendRune(s, 0x2028), i, true
	case 'P':
		return utf8.AppendRune(s, 0x2029), i, true
	}
	var w int
	switch c {
	case 'x':
		w = 2
	case 'u':
		w = 4
	case 'U':
		w = 8
	default:
		return s, i, false
	}
	if i+w > len(d) {
		return s, i, false
	}
	r, ok := jsonfast.HexRune(d[i : i+w])
	if !ok {
		return s, i, false
	}
	if (r >= 0xD800 && r <= 0xDFFF) || r > 0x10FFFF {
		return s, i, false
	}
	return utf8.AppendRune(s, r), i + w, true
}

// unquoteLine decodes a quoted scalar that lies on one line (a key).
func unquoteLine(t []byte) (string, bool) {
	q := t[0]
	body := t[1 : len(t)-1]
	if q == '\'' {
		return strings.ReplaceAll(string(body), "''", "'"), true
	}
	var s []byte
	for i := 0; i < len(body); {
		if body[i] == '\\' {
			var ok bool
			s, i, ok = unescape(s, body, i)
			if !ok {
				return "", false
			}
			continue
		}
		s = append(s, body[i])
		i++
	}
	return string(s), true
}

// blockScalar reads a literal or folded block scalar whose header is at
// column col of line l; n is the indentation of its collection.
func (p *parser) blockScalar(l, col, n int) any {
	h := p.text(l, col)
	literal := h[0] == '|'
	chomp, explicit := 0, 0
	i := 1
	for k := 0; k < 2 && i < len(h); k++ {
		switch c := h[i]; {
		case chomp == 0 && (c == '-' || c == '+'):
			chomp = 1
			if c == '-' {
				chomp = -1
			}
		case explicit == 0 && c >= '1' && c <= '9':
			explicit = int(c - '0')
		default:
			k = 2
			continue
		}
		i++
	}
	if !restIsComment(h[i:], false) || (i < len(h) && h[i] == '#') {
		p.decline()
		return nil
	}
	// Leading blank lines and the indentation.
	next := l + 1
	maxInd := 0
	for next < len(p.lines) && p.lines[next].kind == blankLine {
		maxInd = max(maxInd, p.lines[next].end-p.lines[next].start)
		next++
	}
	if next >= len(p.lines) {
		p.decline()
		return nil
	}
	first := p.lines[next].indent
	indent := max(maxInd, first, n+1, 1)
	if explicit > 0 {
		indent = n + explicit
	}
	if first < indent {
		p.decline()
		return nil
	}
	s := p.buf[:0]
	trailing := 0
	leadingBreak := false
	leadingBlank := false
	cur := l + 1
	for cur < len(p.lines) {
		ln := p.lines[cur]
		if ln.end-ln.start < indent || ln.indent < indent {
			// A blank line (a break, unless the input ends without a
			// newline) or the end of the scalar.
			if ln.kind == blankLine {
				if ln.end < len(p.data) {
					trailing++
				}
				cur++
				continue
			}
			break
		}
		if ln.end-ln.start == indent {
			// Exactly the indentation: a break, as above.
			if ln.end < len(p.data) {
				trailing++
			}
			cur++
			continue
		}
		content := p.data[ln.start+indent : ln.end]
		trailingBlank := content[0] == ' '
		// Join with the previous content line, if any.
		if !literal && leadingBreak && !leadingBlank && !trailingBlank {
			if trailing == 0 {
				s = append(s, ' ')
			}
		} else if leadingBreak {
			s = append(s, '\n')
		}
		for ; trailing > 0; trailing-- {
			s = append(s, '\n')
		}
		leadingBlank = trailingBlank
		s = append(s, content...)
		leadingBreak = ln.end < len(p.data)
		cur++
	}
	if chomp != -1 && leadingBreak {
		s = append(s, '\n')
	}
	if chomp == 1 {
		for ; trailing > 0; trailing-- {
			s = append(s, '\n')
		}
	}
	p.buf = s
	p.line = cur
	return string(s)
}

// declined marks a plain scalar whose resolution the fast path does not
// reproduce.
var declined = new(int)

// resolveNonString gives a plain scalar's value as YAMLToJSON and the JSON
// decoder would, unless that value is the scalar's own text (ok false: the
// callers use the string without boxing it, as most scalars of a schema
// are such strings): YAML 1.1 null and booleans, integers as int64, floats
// as the JSON decoder reads back their JSON encoding. It returns declined
// for values the fast path leaves to yaml.v2 (infinities and NaN, integers
// beyond int64, 0b integers, negative zero).
func resolveNonString(s string) (v any, ok bool) {
	if s == "" {
		return nil, true
	}
	switch s[0] {
	case 'y', 'Y', 'n', 'N', 't', 'T', 'f', 'F', 'o', 'O', '~':
		switch s {
		case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
			return true, true
		case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
			return false, true
		case "~", "null", "Null", "NULL":
			return nil, true
		}
		return nil, false
	case '.':
		switch s {
		case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF":
			return declined, true
		}
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return nil, false
		}
		return declined, true
	case '+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
	case '<':
		if s == "<<" {
			return declined, true
		}
		return nil, false
	default:
		return nil, false
	}
	// Signs and digits: yaml.v2 tries timestamps, integers (any base,
	// underscores removed), unsigned integers, floats, then 0b integers. A
	// timestamp is decoded into an interface as its text, and no text it
	// accepts is also a number, so timestamps need no check of their own.
	switch s {
	case "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return declined, true
	}
	plain := s
	if strings.IndexByte(s, '_') >= 0 {
		plain = strings.ReplaceAll(s, "_", "")
	}
	if n, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return n, true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		// A uint64 that does not fit int64 becomes a float64 whose JSON
		// differs from the document's.
		return declined, true
	}
	if isYAMLFloat(plain) {
		f, err := strconv.ParseFloat(plain, 64)
		if err == nil {
			return floatValue(f), true
		}
	}
	if strings.Contains(plain, "0b") {
		return declined, true
	}
	return nil, false
}

// isYAMLFloat matches yaml.v2's float syntax:
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
func isYAMLFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// floatValue is a float64 after encoding/json's encoding and the JSON
// decoder's reading of it: int64 when the encoding has no '.', exponent
// or fraction and fits.
func floatValue(f float64) any {
	if math.IsInf(f, 0) || math.IsNaN(f) || (f == 0 && math.Signbit(f)) {
		return declined
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(nil, f, format, -1, 64)
	dot := false
	for _, c := range b {
		if c == '.' {
			dot = true
		}
	}
	v, ok := jsonfast.NumberValue(b, dot)
	if !ok {
		return declined
	}
	return v
}

// flowSequence reads a flow sequence of scalars that lies on one line:
// plain scalars of letters, digits and "_./-+=" (with inner spaces) and
// single-line quoted scalars without quotes inside, separated by commas. t
// starts at '['.
func (p *parser) flowSequence(t []byte) ([]any, bool) {
	a := make([]any, 0, 4)
	i := 1
	for {
		for i < len(t) && t[i] == ' ' {
			i++
		}
		if i >= len(t) {
			return nil, false
		}
		switch c := t[i]; {
		case c == '"' || c == '\'':
			end := i + 1
			for end < len(t) && t[end] != c && t[end] != '\\' {
				end++
			}
			if end >= len(t) || t[end] != c || (end+1 < len(t) && t[end+1] == c) {
				return nil, false
			}
			a = append(a, string(t[i+1:end]))
			i = end + 1
		case flowPlain(c):
			j := i
			for j < len(t) && (flowPlain(t[j]) || t[j] == ' ') {
				j++
			}
			item := trimRight(t[i:j])
			if item[0] == '-' && (len(item) == 1 || item[1] == ' ') {
				return nil, false
			}
			is := p.intern(item)
			v, special := resolveNonString(is)
			if !special {
				v = jsonfast.Box(is)
			} else if v == declined {
				return nil, false
			}
			a = append(a, v)
			i = j
		default:
			return nil, false
		}
		for i < len(t) && t[i] == ' ' {
			i++
		}
		if i >= len(t) {
			return nil, false
		}
		switch t[i] {
		case ',':
			i++
			continue
		case ']':
			if !restIsComment(t[i+1:], false) || (i+1 < len(t) && t[i+1] == '#') {
				return nil, false
			}
			return a, true
		}
		return nil, false
	}
}

// flowPlain reports whether c may appear in a plain scalar of a flow
// sequence the fast path reads.
func flowPlain(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '.' || c == '/' || c == '-' || c == '+' || c == '='
}
