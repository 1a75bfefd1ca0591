package objpath

import (
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Steps is a path kept as a slice of Elements, for depth-first walks over
// a value: children append to it and siblings reuse the same slot of the
// backing array, which a walk can keep on its stack (OpenAPI value
// validation, list-type uniqueness), so a valid value costs no allocation.
// The path is rendered only when an error needs it, by String (the
// OpenAPI engine's path strings) or Field (a field.Path).
type Steps []Element

// String renders s as the OpenAPI validation engine writes the path of a
// value: a key joined with a dot (Field and Child: none before the first
// element; Dotted: even before it), an index in brackets. The root is "".
// The engine has no Key or Child steps: they are written as Field ones.
func (s Steps) String() string {
	if len(s) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(s.width())
	var num [20]byte
	for _, e := range s {
		switch e.kind {
		case indexElem:
			b.WriteByte('[')
			b.Write(strconv.AppendInt(num[:0], int64(e.index), 10))
			b.WriteByte(']')
		case dottedElem:
			b.WriteByte('.')
			b.WriteString(e.name)
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.name)
		}
	}
	return b.String()
}

// width is an upper bound of the length of s.String(), so that it
// allocates once.
func (s Steps) width() int {
	n := 0
	for _, e := range s {
		if e.kind != indexElem {
			n += 1 + len(e.name)
			continue
		}
		n += 3 // the brackets and a digit
		for i := e.index; i >= 10 || i <= -10; i /= 10 {
			n++
		}
		if e.index < 0 {
			n++
		}
	}
	return n
}

// Field returns base extended by s as field.Path writes it: Key and Dotted
// elements with Key, Field and Child elements with Child, indices with
// Index.
func (s Steps) Field(base *field.Path) *field.Path {
	p := base
	for _, e := range s {
		switch e.kind {
		case indexElem:
			p = p.Index(e.index)
		case keyElem, dottedElem:
			p = p.Key(e.name)
		default:
			p = p.Child(e.name)
		}
	}
	return p
}
