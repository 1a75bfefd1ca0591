package jsonfast

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Encode encodes a plain value (map[string]any, []any, string, bool, nil,
// int64, float64) exactly as encoding/json.Marshal does: keys sorted,
// HTML-sensitive characters, U+2028, U+2029 and control characters escaped,
// invalid UTF-8 replaced by U+FFFD. ok is false for anything else (other
// types, NaN or infinities, nesting deeper than MaxDepth); the caller then
// uses encoding/json, which also produces the error.
func Encode(v any) (b []byte, ok bool) {
	return EncodeSized(v, 0)
}

// EncodeSized is Encode into a buffer of size bytes to start with: the
// expected size of the output spares growing it step by step.
func EncodeSized(v any, size int) (b []byte, ok bool) {
	e := encoder{buf: make([]byte, 0, size)}
	e.value(v, 0)
	if e.fail {
		return nil, false
	}
	return e.buf, true
}

type encoder struct {
	buf  []byte
	keys []string
	fail bool
}

func (e *encoder) value(v any, depth int) {
	if depth > MaxDepth {
		e.fail = true
		return
	}
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
	case string:
		e.str(x)
	case int64:
		e.buf = strconv.AppendInt(e.buf, x, 10)
	case float64:
		e.float(x)
	case []any:
		if x == nil {
			e.buf = append(e.buf, "null"...)
			return
		}
		e.buf = append(e.buf, '[')
		for i, el := range x {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.value(el, depth+1)
		}
		e.buf = append(e.buf, ']')
	case map[string]any:
		if x == nil {
			e.buf = append(e.buf, "null"...)
			return
		}
		start := len(e.keys)
		for k := range x {
			e.keys = append(e.keys, k)
		}
		keys := e.keys[start:]
		slices.Sort(keys)
		e.buf = append(e.buf, '{')
		for i, k := range keys {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.str(k)
			e.buf = append(e.buf, ':')
			e.value(x[k], depth+1)
		}
		e.buf = append(e.buf, '}')
		e.keys = e.keys[:start]
	default:
		e.fail = true
	}
}

func (e *encoder) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		e.fail = true
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(e.buf, f, format, -1, 64)
	if format == 'e' {
		// A two-digit negative exponent loses its leading zero: e-07 → e-7.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	e.buf = b
}

const hex = "0123456789abcdef"

// plainASCII marks the ASCII bytes encoding/json writes as they are.
var plainASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		switch c {
		case '"', '\\', '<', '>', '&':
		default:
			t[c] = true
		}
	}
	return t
}()

func (e *encoder) str(s string) {
	b := append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plainASCII[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	e.buf = append(b, '"')
}
