package yamlfast

// Scanning: the input split into lines, with their indentation and kind,
// and what the fast path declines at that level.

import (
	"bytes"
	"unicode/utf8"
)

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

// splitLines splits the input into lines. It reports false, declining,
// when a line does not pass lineOK.
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
		if !lineOK(ln) {
			return false
		}
		p.lines = append(p.lines, newLine(ln, pos, end))
		pos = end + 1
	}
	return true
}

// lineOK reports whether the fast path reads the line ln: it is not a
// directive or document marker, and holds only the characters it reads
// the way yaml.v2 does (printable ASCII, and printable non-ASCII
// characters other than YAML 1.1's line breaks and the byte order mark).
func lineOK(ln []byte) bool {
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
	return true
}

// newLine returns the line ln, data[start:end], with its indentation and
// kind.
func newLine(ln []byte, start, end int) line {
	ind := 0
	for ind < len(ln) && ln[ind] == ' ' {
		ind++
	}
	l := line{start: start, end: end, indent: ind, kind: textLine}
	switch {
	case ind == len(ln):
		l.kind = blankLine
	case ln[ind] == '#':
		l.kind = commentLine
	}
	return l
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

func trimRight(t []byte) []byte {
	for len(t) > 0 && t[len(t)-1] == ' ' {
		t = t[:len(t)-1]
	}
	return t
}
