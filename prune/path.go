package prune

import (
	"strconv"
	"strings"
)

// elemKind says how an Element is written when a Path is rendered.
type elemKind uint8

const (
	// fieldElem is an object key as the apiserver's pruning warnings write
	// it: joined with a dot, whatever the key contains.
	fieldElem elemKind = iota
	// childElem is an object key as field.Path.Child writes it: joined with
	// a dot, except that an empty key is written "[]".
	childElem
	// keyElem is a map key as field.Path.Key writes it: "[key]".
	keyElem
	// indexElem is a list index: "[i]".
	indexElem
)

// Element is one step of a Path: an object key or a list index. The key is
// kept as it is, so keys containing dots or brackets stay distinguishable
// even where the rendered string is not.
type Element struct {
	kind  elemKind
	name  string
	index int
}

// Field is the step into an object's key name, written "a.name" as the
// apiserver's unknown-field warnings write it.
func Field(name string) Element { return Element{kind: fieldElem, name: name} }

// Child is the step into an object's key name, written as field.Path.Child
// writes it ("a.name"; an empty name is written "a[]").
func Child(name string) Element { return Element{kind: childElem, name: name} }

// Key is the step into a map's key, written as field.Path.Key writes it:
// "a[key]".
func Key(key string) Element { return Element{kind: keyElem, name: key} }

// Index is the step into a list's i-th item, written "a[i]".
func Index(i int) Element { return Element{kind: indexElem, index: i} }

// IsIndex reports whether e is a list index.
func (e Element) IsIndex() bool { return e.kind == indexElem }

// IsKey reports whether e is a map key written in brackets (see Key).
func (e Element) IsKey() bool { return e.kind == keyElem }

// Name is the object or map key of e ("" for a list index).
func (e Element) Name() string { return e.name }

// Position is the list index of e (0 for a key).
func (e Element) Position() int { return e.index }

// Path is the location of a value inside an object, from the object's root.
// Its String method renders it as the apiserver renders unknown-field
// warnings: keys joined by dots, indices in brackets (spec.list[0].bar), and
// field.Path syntax where the apiserver uses it (inside the metadata of an
// embedded resource: spec.m[key].metadata.foo).
type Path []Element

// String renders p in the apiserver's warning format.
func (p Path) String() string {
	var b strings.Builder
	for i, e := range p {
		switch e.kind {
		case fieldElem:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.name)
		case childElem:
			if e.name == "" {
				b.WriteString("[]")
				continue
			}
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.name)
		case keyElem:
			b.WriteByte('[')
			b.WriteString(e.name)
			b.WriteByte(']')
		case indexElem:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.index))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// Lookup returns the value at p inside obj, and whether it exists.
func (p Path) Lookup(obj any) (any, bool) {
	cur := obj
	for _, e := range p {
		if e.kind == indexElem {
			l, ok := cur.([]any)
			if !ok || e.index < 0 || e.index >= len(l) {
				return nil, false
			}
			cur = l[e.index]
			continue
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		v, ok := m[e.name]
		if !ok {
			return nil, false
		}
		cur = v
	}
	return cur, true
}

// Strings renders every path of ps.
func Strings(ps []Path) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}
