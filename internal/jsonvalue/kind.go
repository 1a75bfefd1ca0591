package jsonvalue

import "encoding/json"

// Kind is the kind of a JSON value: what messages name when a value is not
// the kind they expect.
type Kind uint8

// The kinds, in the order of a Words table.
const (
	Null Kind = iota
	Boolean
	Number
	String
	Array
	Object
	// NotJSON is a Go value of none of the kinds (a channel, a struct, a
	// map[string]string before normalisation).
	NotJSON
)

// KindOf is the kind of v: a number of any Go numeric type or a
// json.Number is a Number, a map[string]any an Object, a []any an Array.
func KindOf(v any) Kind {
	switch v.(type) {
	case nil:
		return Null
	case bool:
		return Boolean
	case string:
		return String
	case []any:
		return Array
	case map[string]any:
		return Object
	case int64, float64, json.Number, int, int8, int16, int32, uint, uint8, uint16, uint32, uint64, uintptr, float32:
		return Number
	}
	return NotJSON
}

// Words names the kinds in messages, indexed by Kind. There are two
// wordings, each used by every message that names kinds its way.
type Words [NotJSON + 1]string

var (
	// DecodeWords are encoding/json's, as its type errors read ("json:
	// cannot unmarshal bool into Go struct field ..."), which the
	// apiserver's decoding errors show.
	DecodeWords = Words{"null", "bool", "number", "string", "array", "object", "unsupported"}
	// ReaderWords are the document readers' ("expected a mapping, got a
	// boolean"), as the command's contract words them.
	ReaderWords = Words{"null", "a boolean", "a number", "a string", "an array", "a mapping", "a value with no JSON form"}
)

// Of names the kind of v.
func (w *Words) Of(v any) string { return w[KindOf(v)] }
