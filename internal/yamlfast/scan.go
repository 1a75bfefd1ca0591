package yamlfast

// Scanning: the input split into lines, with their indentation and kind,
// and what the fast path declines at that level.

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unicode/utf8"
)

// line is one line of the input; int32 offsets (splitLines declines
// longer inputs) keep a document's lines in half the memory.
type line struct {
	start, end int32 // content is data[start:end], without the newline
	indent     int32 // leading spaces
	kind       byte
}

const (
	blankLine   = 'b'
	commentLine = 'c'
	textLine    = 't'
)

// splitLines splits the input into lines. It reports false, declining,
// when a line does not pass lineOK or lineEnd, or the input is too long
// for a line's offsets.
func (p *parser) splitLines() bool {
	d := p.data
	if len(d) > math.MaxInt32 {
		return false
	}
	for pos := 0; pos < len(d); {
		ind := indentation(d[pos:])
		// Most lines are printable ASCII: lineEnd only for the others.
		end := skipPrintableASCII(d, pos+ind)
		if end < len(d) && d[end] != '\n' {
			var ok bool
			if end, ok = lineEnd(d, end); !ok {
				return false
			}
		}
		ln := d[pos:end]
		if !lineOK(ln) {
			return false
		}
		p.lines = append(p.lines, newLine(ln, ind, pos, end))
		pos = end + 1
	}
	return true
}

// indentation is the number of spaces t starts with.
func indentation(t []byte) int {
	const spaces = 0x2020202020202020
	n := len(t)
	// Sixteen, then eight at a time: generated CRDs indent deeply. The
	// first non-space of a word is its lowest non-zero byte after the xor.
	// The rest of t shrinks (rather than an offset growing) so that the
	// loads need no bounds checks.
	for len(t) >= 16 {
		a := binary.LittleEndian.Uint64(t) ^ spaces
		b := binary.LittleEndian.Uint64(t[8:]) ^ spaces
		if a|b != 0 {
			return n - len(t) + firstMarked(a, b)
		}
		t = t[16:]
	}
	for len(t) >= 8 {
		if x := binary.LittleEndian.Uint64(t) ^ spaces; x != 0 {
			return n - len(t) + bits.TrailingZeros64(x)/8
		}
		t = t[8:]
	}
	for len(t) > 0 && t[0] == ' ' {
		t = t[1:]
	}
	return n - len(t)
}

// firstMarked returns the offset of the lowest non-zero byte of the
// sixteen bytes a and then b, one of which is not 0.
func firstMarked(a, b uint64) int {
	if a == 0 {
		return 8 + bits.TrailingZeros64(b)/8
	}
	return bits.TrailingZeros64(a) / 8
}

// lineEnd returns the end of the line of d that goes on at i: the offset
// of its newline, or len(d). ok is false when the line holds a character
// the fast path does not read the way yaml.v2 does: it reads printable
// ASCII, and printable non-ASCII characters other than YAML 1.1's line
// breaks and the byte order mark. Looking for the newline and checking
// the characters are one pass.
func lineEnd(d []byte, i int) (end int, ok bool) {
	for {
		i = skipPrintableASCII(d, i)
		if i == len(d) || d[i] == '\n' {
			return i, true
		}
		if d[i] < 0x80 {
			return i, false
		}
		r, size := utf8.DecodeRune(d[i:])
		if r == utf8.RuneError || r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
			return i, false
		}
		i += size
	}
}

// lineOK reports whether the fast path reads the line ln as far as its
// start goes: it is not a directive or document marker.
func lineOK(ln []byte) bool {
	if len(ln) == 0 {
		return true
	}
	switch c := ln[0]; c {
	case '%':
		return false
	case '-', '.':
		return len(ln) < 3 || ln[1] != c || ln[2] != c
	}
	return true
}

// skipPrintableASCII returns the offset of the first byte of ln from i on
// that is not printable ASCII (a newline, say), or len(ln); it goes
// sixteen, then eight bytes at a time (most of a CRD is printable ASCII,
// descriptions long lines of it).
func skipPrintableASCII(ln []byte, i int) int {
	t := ln[i:] // shrinks, as in indentation
	for len(t) >= 16 {
		a := nonPrintable8(binary.LittleEndian.Uint64(t))
		b := nonPrintable8(binary.LittleEndian.Uint64(t[8:]))
		if a|b != 0 {
			return len(ln) - len(t) + firstMarked(a, b)
		}
		t = t[16:]
	}
	for len(t) >= 8 {
		if m := nonPrintable8(binary.LittleEndian.Uint64(t)); m != 0 {
			return len(ln) - len(t) + bits.TrailingZeros64(m)/8
		}
		t = t[8:]
	}
	for len(t) > 0 && t[0] >= 0x20 && t[0] < 0x7f {
		t = t[1:]
	}
	return len(ln) - len(t)
}

// nonPrintable8 returns 0 when each of the eight bytes of x is in
// 0x20..0x7e, or else a word whose lowest set bit is bit 7 of the lowest
// byte out of range. Bytes in range pass no borrow (from subtracting 0x20)
// or carry (from adding 1) to the next, so the lowest byte out of range
// sets its bit 7: in b-0x20 with b's bit 7 clear when b < 0x20, in b+1 or
// b when b >= 0x7f. What the bytes above it give does not matter.
func nonPrintable8(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	low := (x - 0x20*ones) &^ x
	high := (x + ones) | x
	return (low | high) & highs
}

// newLine returns the line ln, data[start:end], indented by ind spaces,
// with its kind.
func newLine(ln []byte, ind, start, end int) line {
	l := line{start: int32(start), end: int32(end), indent: int32(ind), kind: textLine}
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
	return p.data[int(ln.start)+col : int(ln.end)]
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
