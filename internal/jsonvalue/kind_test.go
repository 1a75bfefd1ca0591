package jsonvalue

import (
	"encoding/json"
	"testing"
)

// TestKindWords: every kind in both wordings; Go numbers of every type and
// json.Number are numbers, typed maps and slices are not JSON kinds.
func TestKindWords(t *testing.T) {
	for _, c := range []struct {
		v              any
		decode, reader string
	}{
		{nil, "null", "null"},
		{true, "bool", "a boolean"},
		{"s", "string", "a string"},
		{int64(1), "number", "a number"},
		{1.5, "number", "a number"},
		{json.Number("2.0"), "number", "a number"},
		{int32(3), "number", "a number"},
		{uint8(3), "number", "a number"},
		{[]any{}, "array", "an array"},
		{map[string]any{}, "object", "a mapping"},
		{map[string]string{}, "unsupported", "a value with no JSON form"},
		{[]string{}, "unsupported", "a value with no JSON form"},
	} {
		if got := DecodeWords.Of(c.v); got != c.decode {
			t.Errorf("DecodeWords.Of(%#v) = %q, want %q", c.v, got, c.decode)
		}
		if got := ReaderWords.Of(c.v); got != c.reader {
			t.Errorf("ReaderWords.Of(%#v) = %q, want %q", c.v, got, c.reader)
		}
	}
}
