package yamlfast

// Scalars: plain, single- and double-quoted, literal and folded block
// scalars, over one or more lines.

import (
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
