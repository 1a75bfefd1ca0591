package yamlfast

// Scalars: plain, single- and double-quoted, literal and folded block
// scalars, over one or more lines.

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/crdschema/crdschema/internal/jsonfast"
)

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
		if int(ln.indent) <= n || ln.kind == commentLine {
			break
		}
		part, ok := p.continuationLine(next, int(ln.indent))
		if !ok {
			p.decline()
			return nil
		}
		if !multi {
			s = append(p.buf[:0], first...)
			multi = true
		}
		s = foldBreaks(s, breaks)
		breaks = 0
		s = append(s, part...)
		p.line = next + 1
	}
	if !multi {
		return p.resolveBytes(first)
	}
	p.buf = s
	return p.resolveBytes(s)
}

// continuationLine returns the text of line l, indented to col, as the
// continuation of a plain scalar; ok is false when the line is a sequence
// entry, a mapping key or ends in a comment, which YAML does not allow
// there or which this reader leaves to the exact one.
func (p *parser) continuationLine(l, col int) ([]byte, bool) {
	t := p.text(l, col)
	if t[0] == '-' && (len(t) == 1 || t[1] == ' ') {
		return nil, false
	}
	part, ok := plainLine(t)
	if !ok || len(part) != len(trimRight(t)) {
		return nil, false
	}
	return part, true
}

// foldBreaks appends to s what joins two lines of a plain scalar with
// breaks blank lines between them: a space when there are none, else one
// newline each.
func foldBreaks(s []byte, breaks int) []byte {
	if breaks == 0 {
		return append(s, ' ')
	}
	for ; breaks > 0; breaks-- {
		s = append(s, '\n')
	}
	return s
}

func (p *parser) resolveBytes(b []byte) any {
	v := p.plainValue(b)
	if v == declined {
		p.decline()
		return nil
	}
	return v
}

// plainLine returns the plain scalar text of one line, which ends at a
// comment or the end of the line, without trailing spaces. ok is false when
// the line holds ": " or ends with ':' (a mapping value where none is
// allowed).
func plainLine(t []byte) ([]byte, bool) {
	end := len(t)
	for i := colonOrHash(t, 0); i < len(t); i = colonOrHash(t, i+1) {
		if t[i] == ':' {
			if i+1 == len(t) || t[i+1] == ' ' {
				return nil, false
			}
		} else if i > 0 && t[i-1] == ' ' {
			end = i // a comment
			break
		}
	}
	return trimRight(t[:end]), true
}

// colonOrHash returns the offset of the first ':' or '#' of t from i on,
// or len(t). It reads eight bytes at a time, the last ones up to t's
// capacity when that holds eight (t is part of the document), ignoring
// what lies past its end.
func colonOrHash(t []byte, i int) int {
	for i+8 <= len(t) {
		if m := colonOrHash8(binary.LittleEndian.Uint64(t[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	if i >= len(t) {
		return len(t)
	}
	if i+8 <= cap(t) {
		m := colonOrHash8(binary.LittleEndian.Uint64(t[i : i+8]))
		m &= 1<<(8*(len(t)-i)&63) - 1 // &63: no test for a shift of 64 or more
		if m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		return len(t)
	}
	for i < len(t) && t[i] != ':' && t[i] != '#' {
		i++
	}
	return i
}

// colonOrHash8 returns 0 when none of the eight bytes of x is ':' or '#',
// or else a word whose lowest set bit is bit 7 of the first such byte: x
// with either byte cleared by xor is tested for a zero byte as
// (v-0x01…)&^v&0x80…, which marks no byte below the first zero one.
func colonOrHash8(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	colon, hash := x^(':'*ones), x^('#'*ones)
	return ((colon-ones)&^colon | (hash-ones)&^hash) & highs
}

// quoted reads a single- or double-quoted scalar starting at column col of
// line l; continuation lines must be indented more than n.
func (p *parser) quoted(l, col, n int) any {
	pos := int(p.lines[l].start) + col
	r := quoteReader{p: p, s: p.buf[:0], i: pos + 1, cur: l, n: n, q: p.data[pos]}
	if !r.read() {
		p.decline()
		return nil
	}
	p.buf = r.s
	// The rest of the closing line must be blank or a comment.
	d, i := p.data, r.i
	if end := int(p.lines[r.cur].end); !restIsComment(d[i+1:end], false) || (i+1 < end && d[i+1] == '#') {
		p.decline()
		return nil
	}
	p.line = r.cur + 1
	return string(r.s)
}

// quoteReader reads the body of a quoted scalar.
type quoteReader struct {
	p   *parser
	s   []byte // the value read so far
	i   int    // the offset in p.data
	cur int    // the line of offset i
	n   int    // the indentation of the scalar's collection
	q   byte   // the quote
}

// read reads up to the closing quote, leaving r.i at it. It reports false
// where the fast path declines.
func (r *quoteReader) read() bool {
	for {
		closed, ok := r.chars()
		if closed || !ok {
			return ok
		}
		if !r.blanks() {
			return false
		}
	}
}

// chars reads non-blank characters up to a blank, a line break or the
// closing quote (closed).
func (r *quoteReader) chars() (closed, ok bool) {
	d, i, s := r.p.data, r.i, r.s
	for i < len(d) && d[i] != ' ' && d[i] != '\n' {
		c := d[i]
		switch {
		case c == r.q:
			if r.q == '\'' && i+1 < len(d) && d[i+1] == '\'' {
				s = append(s, '\'')
				i += 2
				continue
			}
			r.i, r.s = i, s
			return true, true
		case r.q == '"' && c == '\\':
			r.i, r.s = i, s
			if !r.escape() {
				return false, false
			}
			i, s = r.i, r.s
		default:
			s = append(s, c)
			i++
		}
	}
	r.i, r.s = i, s
	return false, i < len(d)
}

// escape reads the escape sequence at r.i of a double-quoted scalar.
func (r *quoteReader) escape() bool {
	d := r.p.data
	if r.i+1 < len(d) && d[r.i+1] == '\n' {
		r.i += 2
		return r.lineBreak(true)
	}
	var ok bool
	r.s, r.i, ok = unescape(r.s, d, r.i)
	return ok
}

// blanks reads the spaces at r.i: inner spaces are kept, a line break is
// folded.
func (r *quoteReader) blanks() bool {
	d := r.p.data
	j := r.i
	for j < len(d) && d[j] == ' ' {
		j++
	}
	if j < len(d) && d[j] != '\n' {
		r.s = append(r.s, d[r.i:j]...) // inner spaces
		r.i = j
		return true
	}
	if j >= len(d) {
		return false
	}
	r.i = j + 1
	return r.lineBreak(false)
}

// lineBreak continues the scalar after a line break (escaped or not) at
// the start of the next line, r.i.
func (r *quoteReader) lineBreak(escaped bool) bool {
	r.cur++
	if !r.p.contOK(r.cur, r.n) {
		return false
	}
	r.i = r.p.skipFold(&r.s, r.i, &r.cur, r.n, escaped)
	return !r.p.fail
}

// contOK reports whether line l may continue a quoted scalar of a
// collection at indentation n.
func (p *parser) contOK(l, n int) bool {
	if l >= len(p.lines) {
		return false
	}
	ln := p.lines[l]
	return ln.kind == blankLine || int(ln.indent) > n
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
	literal, chomp, explicit, ok := blockHeader(p.text(l, col))
	if !ok {
		p.decline()
		return nil
	}
	indent, ok := p.blockIndent(l+1, n, explicit)
	if !ok {
		p.decline()
		return nil
	}
	b := blockText{s: p.buf[:0], literal: literal}
	cur := l + 1
	for ; cur < len(p.lines); cur++ {
		ln := p.lines[cur]
		width := int(ln.end) - int(ln.start)
		if width < indent || int(ln.indent) < indent {
			if ln.kind != blankLine {
				break // the end of the scalar
			}
		} else if width > indent {
			b.line(p.data[int(ln.start)+indent:int(ln.end)], int(ln.end) < len(p.data))
			continue
		}
		// A blank line, or exactly the indentation: a break, unless the
		// input ends without a newline.
		if int(ln.end) < len(p.data) {
			b.trailing++
		}
	}
	b.chomp(chomp)
	p.buf = b.s
	p.line = cur
	return string(b.s)
}

// blockHeader reads a block scalar's header h: the style, the chomping
// indicator (-1 strip, 0 clip, 1 keep) and the explicit indentation (0
// when none), followed by nothing or a comment.
func blockHeader(h []byte) (literal bool, chomp, explicit int, ok bool) {
	literal = h[0] == '|'
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
	ok = restIsComment(h[i:], false) && (i >= len(h) || h[i] != '#')
	return literal, chomp, explicit, ok
}

// blockIndent returns the indentation of a block scalar whose content
// starts at line next, in a collection at indentation n: the explicit
// one, or else that of the first content line (at least that of the
// leading blank lines, and more than n). ok is false when the first
// content line is indented less, or there is none.
func (p *parser) blockIndent(next, n, explicit int) (indent int, ok bool) {
	maxInd := 0
	for next < len(p.lines) && p.lines[next].kind == blankLine {
		maxInd = max(maxInd, int(p.lines[next].end)-int(p.lines[next].start))
		next++
	}
	if next >= len(p.lines) {
		return 0, false
	}
	first := int(p.lines[next].indent)
	indent = max(maxInd, first, n+1, 1)
	if explicit > 0 {
		indent = n + explicit
	}
	return indent, first >= indent
}

// blockText is the value of a block scalar being read, line by line.
type blockText struct {
	s            []byte
	literal      bool
	trailing     int  // line breaks since the last content line
	leadingBreak bool // the last content line ended with a line break
	leadingBlank bool // the last content line started with a space
}

// line appends a content line (without the indentation), joined to the
// previous one as the style folds it; broken tells whether a line break
// ends it.
func (b *blockText) line(content []byte, broken bool) {
	trailingBlank := content[0] == ' '
	if !b.literal && b.leadingBreak && !b.leadingBlank && !trailingBlank {
		if b.trailing == 0 {
			b.s = append(b.s, ' ')
		}
	} else if b.leadingBreak {
		b.s = append(b.s, '\n')
	}
	for ; b.trailing > 0; b.trailing-- {
		b.s = append(b.s, '\n')
	}
	b.leadingBlank = trailingBlank
	b.s = append(b.s, content...)
	b.leadingBreak = broken
}

// chomp appends the final line breaks the chomping indicator keeps.
func (b *blockText) chomp(chomp int) {
	if chomp != -1 && b.leadingBreak {
		b.s = append(b.s, '\n')
	}
	if chomp == 1 {
		for ; b.trailing > 0; b.trailing-- {
			b.s = append(b.s, '\n')
		}
	}
}
