package yamlfast

// Resolution of plain scalars as yaml.v2 (YAML 1.1) does it, then
// YAMLToJSON and the JSON decoder.

import (
	"math"
	"strconv"
	"strings"

	"github.com/crdschema/crdschema/internal/jsonfast"
)

// declined marks a plain scalar whose resolution the fast path does not
// reproduce.
var declined = new(int)

// resolvePlain returns the value of the plain scalar s: its text boxed
// (shared for frequent values), or what resolveNonString gives, which may
// be declined.
func resolvePlain(s string) any {
	v, special := resolveNonString(s)
	if !special {
		return jsonfast.Box(s)
	}
	return v
}

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
		return resolveDot(s)
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

// resolveDot is resolveNonString for a text starting with '.': the
// special floats and the floats ParseFloat reads are left to yaml.v2.
func resolveDot(s string) (v any, ok bool) {
	switch s {
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF":
		return declined, true
	}
	// yaml.v2 asks ParseFloat, which needs a digit after the '.' here;
	// asking it about every text starting with '.' (a jsonPath) costs an
	// error that copies the text.
	if len(s) < 2 || s[1] < '0' || s[1] > '9' {
		return nil, false
	}
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return nil, false
	}
	return declined, true
}

// isYAMLFloat matches yaml.v2's float syntax:
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
func isYAMLFloat(s string) bool {
	i, ok := yamlMantissa(s, skipSign(s, 0))
	if !ok {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := skipSign(s, i+1)
		if i = skipDigits(s, j); i == j {
			return false
		}
	}
	return i == len(s)
}

// yamlMantissa returns the end of the mantissa of a YAML float that
// starts at i of s, (\.[0-9]+|[0-9]+(\.[0-9]*)?); ok is false when there is
// none.
func yamlMantissa(s string, i int) (end int, ok bool) {
	if i < len(s) && s[i] == '.' {
		end = skipDigits(s, i+1)
		return end, end > i+1
	}
	end = skipDigits(s, i)
	if end == i {
		return end, false
	}
	if end < len(s) && s[end] == '.' {
		end = skipDigits(s, end+1)
	}
	return end, true
}

// skipSign returns the offset after an optional '+' or '-' at i of s.
func skipSign(s string, i int) int {
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		return i + 1
	}
	return i
}

// skipDigits returns the offset of the first non-digit of s from i on.
func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
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
