// Package jsonfast decodes JSON into the plain Go values that
// k8s.io/apimachinery/pkg/util/json.Unmarshal produces for an any target:
// map[string]any, []any, string, bool, nil, int64 for integers that fit and
// float64 for every other number.
//
// It is a fast path, not a replacement: whenever the input is invalid or
// holds anything whose exact treatment it does not reproduce (duplicate
// object keys, invalid UTF-8, surrogate escapes, numbers that do not parse,
// very deep nesting), it declines and the caller must use the exact decoder,
// which then also produces the exact error.
package jsonfast

import (
	"strconv"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// MaxDepth is the nesting depth beyond which Decode declines.
const MaxDepth = 1000

// Decode decodes one JSON value (with optional surrounding whitespace). ok
// is false when it declines; v is then nil. The result never aliases data.
func Decode(data []byte) (v any, ok bool) {
	d := decoder{data: data}
	d.skipSpace()
	v = d.value(0)
	if d.fail {
		return nil, false
	}
	d.skipSpace()
	if d.pos != len(d.data) {
		return nil, false
	}
	return v, true
}

type decoder struct {
	data  []byte
	pos   int
	fail  bool
	buf   []byte
	arena []byte // the unused tail of a block that short strings share
	// strs is the unused tail of a block of string headers that boxed
	// strings share (see box).
	strs []string
	// items holds the items of the arrays being read (the innermost
	// last); itemBlock and lists are the unused tails of the blocks that
	// arrays' items and their boxed slice headers are carved from (see
	// array).
	items     []any
	itemBlock []any
	lists     [][]any
}

// eface is the layout of an interface value with no methods (any): its
// dynamic type and a pointer to its value.
type eface struct {
	typ, data unsafe.Pointer
}

// stringType is the dynamic type of a string in an any.
var stringType = func() unsafe.Pointer {
	var x any = ""
	return (*eface)(unsafe.Pointer(&x)).typ
}()

// strsBlock is the number of string headers in a block.
const strsBlock = 64

// listType is the dynamic type of a []any in an any.
var listType = func() unsafe.Pointer {
	var x any = []any(nil)
	return (*eface)(unsafe.Pointer(&x)).typ
}()

// Blocks of array items and of slice headers: at most this many, and
// fewer when the input left is short (an item takes at least 2 bytes,
// "0,", an array 3, "[],", but most take many more: blocks sized for the
// shortest waste more than they save).
const (
	itemsBlock = 32
	listsBlock = 8
)

// boxList returns l as an any, its slice header carved from a shared
// block as box carves string headers.
func (d *decoder) boxList(l []any) any {
	if len(d.lists) == 0 {
		d.lists = make([][]any, max(1, min(listsBlock, (len(d.data)-d.pos)/32)))
	}
	d.lists[0] = l
	v := boxed(listType, unsafe.Pointer(&d.lists[0]))
	d.lists = d.lists[1:]
	return v
}

// list returns the items from d.items[base:] as a new list, carved from
// a shared block (with no room to grow, so that appending to it never
// reaches another list's items), and pops them.
func (d *decoder) list(base int) []any {
	n := len(d.items) - base
	if n == 0 {
		return []any{}
	}
	if n > len(d.itemBlock) {
		d.itemBlock = make([]any, max(n, min(itemsBlock, (len(d.data)-d.pos)/16)))
	}
	l := d.itemBlock[:n:n]
	copy(l, d.items[base:])
	d.itemBlock = d.itemBlock[n:]
	clear(d.items[base:])
	d.items = d.items[:base]
	return l
}

// box returns s as an any. Converting a string to an interface allocates
// a string header for each value; box carves the headers from a shared
// block instead (each written once, before the value refers to it, and
// never again), which the values keep alive. The common schema words are
// shared constants (Box).
func (d *decoder) box(s string) any {
	if v, ok := constant(s); ok {
		return v
	}
	if len(d.strs) == 0 {
		// A string value takes at least 4 bytes ("",), most many more.
		d.strs = make([]string, max(1, min(strsBlock, (len(d.data)-d.pos)/16)))
	}
	d.strs[0] = s
	v := boxed(stringType, unsafe.Pointer(&d.strs[0]))
	d.strs = d.strs[1:]
	return v
}

// boxed is the any of dynamic type typ whose value is at p, a value
// written once before and never again.
func boxed(typ, p unsafe.Pointer) any {
	var v any
	e := (*eface)(unsafe.Pointer(&v))
	e.typ, e.data = typ, p
	return v
}

// arenaBlock is the size of the blocks short strings are carved from.
const arenaBlock = 4096

// newString returns b as a string. Short strings are carved from a shared
// block, which saves an allocation each; a block's bytes are written once,
// before any string refers to them, and never again.
func (d *decoder) newString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > 128 {
		return string(b)
	}
	if len(b) > len(d.arena) {
		// No block needs to be larger than the input.
		d.arena = make([]byte, max(len(b), min(arenaBlock, len(d.data)-d.pos)))
	}
	dst := d.arena[:len(b)]
	copy(dst, b)
	d.arena = d.arena[len(b):]
	return unsafe.String(&dst[0], len(dst))
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value(depth int) any {
	if d.pos >= len(d.data) || depth > MaxDepth {
		d.fail = true
		return nil
	}
	switch c := d.data[d.pos]; c {
	case '{':
		return d.object(depth + 1)
	case '[':
		return d.array(depth + 1)
	case '"':
		s, ok := d.str()
		if !ok {
			d.fail = true
			return nil
		}
		return d.box(s)
	case 't':
		return d.literal("true", true)
	case 'f':
		return d.literal("false", false)
	case 'n':
		return d.literal("null", nil)
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return d.number()
		}
	}
	d.fail = true
	return nil
}

// Box returns s as an interface value, shared for the values schemas
// repeat most (boxing a constant allocates nothing).
func Box(s string) any {
	if v, ok := constant(s); ok {
		return v
	}
	return s
}

// constant is s boxed as a shared constant when it is one of the values
// schemas repeat most (and the empty string); ok is false otherwise.
func constant(s string) (v any, ok bool) {
	switch s {
	case "":
		return "", true
	case "object":
		return "object", true
	case "string":
		return "string", true
	case "array":
		return "array", true
	case "integer":
		return "integer", true
	case "boolean":
		return "boolean", true
	case "number":
		return "number", true
	case "int32":
		return "int32", true
	case "int64":
		return "int64", true
	case "date-time":
		return "date-time", true
	case "atomic":
		return "atomic", true
	case "map":
		return "map", true
	case "set":
		return "set", true
	}
	return nil, false
}

func (d *decoder) literal(word string, v any) any {
	if len(d.data)-d.pos >= len(word) && string(d.data[d.pos:d.pos+len(word)]) == word {
		d.pos += len(word)
		return v
	}
	d.fail = true
	return nil
}

func (d *decoder) object(depth int) any {
	d.pos++ // '{'
	m := make(map[string]any)
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return m
	}
	for !d.fail {
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			d.fail = true
			return nil
		}
		k, ok := d.str()
		if !ok {
			d.fail = true
			return nil
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			d.fail = true
			return nil
		}
		d.pos++
		d.skipSpace()
		v := d.value(depth)
		if d.fail {
			return nil
		}
		n := len(m)
		m[k] = v
		if len(m) == n {
			d.fail = true // a duplicate key
			return nil
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			break
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
			continue
		case '}':
			d.pos++
			return m
		}
		break
	}
	d.fail = true
	return nil
}

func (d *decoder) array(depth int) any {
	d.pos++ // '['
	base := len(d.items)
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return d.boxList(d.list(base))
	}
	for !d.fail {
		v := d.value(depth)
		if d.fail {
			return nil
		}
		d.items = append(d.items, v)
		d.skipSpace()
		if d.pos >= len(d.data) {
			break
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
			continue
		case ']':
			d.pos++
			return d.boxList(d.list(base))
		}
		break
	}
	d.fail = true
	return nil
}

// number reads a number with JSON's grammar: an integer without '.' that
// fits becomes int64, anything else float64 (declining when it does not
// parse, e.g. out of range).
func (d *decoder) number() any {
	b, start := d.data, d.pos
	end, dot, ok := numberEnd(b, start)
	if !ok {
		d.fail = true
		return nil
	}
	d.pos = end
	v, ok := NumberValue(b[start:end], dot)
	if !ok {
		d.fail = true
	}
	return v
}

// numberEnd scans the JSON number that starts at i of b (i < len(b)):
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?. It returns the offset
// after it and whether it has a fraction; ok is false when the text there
// does not match.
func numberEnd(b []byte, i int) (end int, dot, ok bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digitsEnd(b, i+1)
	default:
		return i, false, false
	}
	if i < len(b) && b[i] == '.' {
		dot = true
		if i, ok = someDigits(b, i+1); !ok {
			return i, dot, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i, ok = someDigits(b, i); !ok {
			return i, dot, false
		}
	}
	return i, dot, true
}

// digitsEnd returns the offset of the first non-digit of b from i on.
func digitsEnd(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// someDigits is digitsEnd, with ok false when there is no digit at i.
func someDigits(b []byte, i int) (end int, ok bool) {
	end = digitsEnd(b, i)
	return end, end > i
}

// NumberValue converts the text of a valid JSON number as apimachinery's
// decoder does: int64 when the text has no '.' and fits, float64 otherwise.
// ok is false when the number does not parse as a float64 either.
func NumberValue(text []byte, dot bool) (any, bool) {
	if !dot {
		if n, ok := parseInt(text); ok {
			return n, true
		}
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		return nil, false
	}
	return f, true
}

// parseInt parses a decimal integer with an optional '-' when it fits an
// int64 (strconv.ParseInt(s, 10, 64) without the allocation).
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if neg {
		if n > 1<<63 {
			return 0, false
		}
		return -int64(n), true
	}
	if n > 1<<63-1 {
		return 0, false
	}
	return int64(n), true
}

// str reads a string starting at the opening quote.
func (d *decoder) str() (string, bool) {
	b := d.data
	i := d.pos + 1
	start := i
	ascii := true
	for i < len(b) {
		c := b[i]
		if c == '"' {
			if !ascii && !utf8.Valid(b[start:i]) {
				return "", false
			}
			d.pos = i + 1
			return d.newString(b[start:i]), true
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", false
		}
		if c >= 0x80 {
			ascii = false
		}
		i++
	}
	if i >= len(b) {
		return "", false
	}
	// With escapes.
	if !ascii && !utf8.Valid(b[start:i]) {
		return "", false
	}
	return d.escapedStr(append(d.buf[:0], b[start:i]...), i)
}

// escapedStr reads the rest of a string from its first escape at offset
// i, appending to out what came before.
func (d *decoder) escapedStr(out []byte, i int) (string, bool) {
	b := d.data
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			d.pos = i + 1
			d.buf = out
			return d.newString(out), true
		case c < 0x20:
			return "", false
		case c == '\\':
			var ok bool
			if out, i, ok = appendEscape(out, b, i+1); !ok {
				return "", false
			}
		case c < 0x80:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return "", false
			}
			out = append(out, b[i:i+size]...)
			i += size
		}
	}
	return "", false
}

// appendEscape appends the character of the escape sequence whose letter
// is at b[i] and returns the offset after it. It declines (ok false)
// invalid escapes and surrogates, left to the exact decoder.
func appendEscape(out, b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) {
		return out, i, false
	}
	switch b[i] {
	case '"', '\\', '/':
		out = append(out, b[i])
	case 'b':
		out = append(out, '\b')
	case 'f':
		out = append(out, '\f')
	case 'n':
		out = append(out, '\n')
	case 'r':
		out = append(out, '\r')
	case 't':
		out = append(out, '\t')
	case 'u':
		if i+4 >= len(b) {
			return out, i, false
		}
		r, ok := HexRune(b[i+1 : i+5])
		if !ok {
			return out, i, false
		}
		if r >= 0xD800 && r < 0xE000 {
			return out, i, false // surrogates: left to the exact decoder
		}
		out = utf8.AppendRune(out, r)
		i += 4
	default:
		return out, i, false
	}
	return out, i + 1, true
}

// DecodeStream decodes a stream of JSON objects and arrays separated by
// optional whitespace, as consecutive encoding/json.Decoder.Decode calls
// read it. For each value it returns its offsets in data. ok is false when
// the stream holds anything else or Decode would decline on a value.
func DecodeStream(data []byte) (values []any, starts, ends []int, ok bool) {
	d := decoder{data: data}
	for {
		d.skipSpace()
		if d.pos == len(data) {
			return values, starts, ends, true
		}
		if c := data[d.pos]; c != '{' && c != '[' {
			return nil, nil, nil, false
		}
		start := d.pos
		v := d.value(0)
		if d.fail {
			return nil, nil, nil, false
		}
		values = append(values, v)
		starts = append(starts, start)
		ends = append(ends, d.pos)
	}
}

// HexRune reads hex digits (either case) as a rune; false on any other
// byte and on a value beyond unicode.MaxRune (YAML's eight-digit \U could
// otherwise wrap around to a negative rune). The callers bound the number
// of digits (\u escapes: 4; YAML's \x, \u, \U: 2, 4, 8).
func HexRune(digits []byte) (rune, bool) {
	var r uint32
	for _, h := range digits {
		switch {
		case h >= '0' && h <= '9':
			r = r<<4 | uint32(h-'0')
		case h >= 'a' && h <= 'f':
			r = r<<4 | uint32(h-'a'+10)
		case h >= 'A' && h <= 'F':
			r = r<<4 | uint32(h-'A'+10)
		default:
			return 0, false
		}
		if r > unicode.MaxRune {
			return 0, false
		}
	}
	return rune(r), true
}
