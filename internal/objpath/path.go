// Package objpath is the location of a value inside a JSON object: a path
// of object keys and list indices that renders itself as the apiserver's
// unknown-field warnings do (spec.list[0].bar). Pruning and metadata
// coercion record the fields they remove with it; a Tracker builds those
// paths without allocating until something is removed. The schema walks
// (the structural rules, the CRD checks) name the nodes they visit with a
// Lazy, a field.Path built only when an error needs it (lazy.go); value
// validation and the list-type checks keep the path of the value they
// visit as Steps, a slice reused depth-first (steps.go). ParseField and
// ParseJSONPath read back the apiserver's two path syntaxes: the field
// paths it writes in errors and the JSON paths of fieldPath and
// selectableFields (parse.go). It is the one path package of the library.
package objpath

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"
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
	// dottedElem is an object key joined with a dot even at the root
	// (".name"), as the OpenAPI engine writes additionalProperties keys
	// and required keys.
	dottedElem
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

// Dotted is the step into an object's key name, written ".name" even at
// the root (the OpenAPI engine's path of an additionalProperties value or
// a required key); Steps.Field writes it as Key does.
func Dotted(name string) Element { return Element{kind: dottedElem, name: name} }

// IsField reports whether e was made by Field.
func (e Element) IsField() bool { return e.kind == fieldElem }

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
//
// A Path is a link to its last element, which links to its parent: paths
// that share a prefix share its memory, so the paths of many removed fields
// deep inside one object cost memory in proportion to their number, not to
// their total length. The zero Path is the root (no elements). Paths are
// immutable and safe to share.
type Path struct {
	n *pathNode
	// s caches the rendered form, set once by SortedStrings.
	s string
}

// pathNode is the last element of a path and the link to its parent.
type pathNode struct {
	parent *pathNode
	e      Element
}

// NewPath returns the path made of elems, from the root.
func NewPath(elems ...Element) Path {
	var p Path
	for _, e := range elems {
		p = p.Append(e)
	}
	return p
}

// Append returns p followed by e. p is not changed and shares its memory
// with the result.
func (p Path) Append(e Element) Path { return Path{n: &pathNode{parent: p.n, e: e}} }

// Concat returns p followed by the elements of q.
func (p Path) Concat(q Path) Path {
	for _, e := range q.Elements() {
		p = p.Append(e)
	}
	return p
}

// Parent returns p without its last element (the root's parent is the
// root).
func (p Path) Parent() Path {
	if p.n == nil {
		return p
	}
	return Path{n: p.n.parent}
}

// Len is the number of elements of p.
func (p Path) Len() int {
	n := 0
	for x := p.n; x != nil; x = x.parent {
		n++
	}
	return n
}

// Elements returns the elements of p, from the root.
func (p Path) Elements() []Element {
	out := make([]Element, p.Len())
	i := len(out)
	for x := p.n; x != nil; x = x.parent {
		i--
		out[i] = x.e
	}
	return out
}

// String renders p in the apiserver's warning format.
func (p Path) String() string {
	if p.s != "" || p.n == nil {
		return p.s
	}
	size := 0
	for x := p.n; x != nil; x = x.parent {
		size += x.e.width(x.parent == nil)
	}
	// Written from the last element back to the first, into a buffer of
	// the exact size that becomes the string without a copy.
	b := make([]byte, size)
	i := size
	for x := p.n; x != nil; x = x.parent {
		e := x.e
		switch {
		case e.kind == indexElem:
			i--
			b[i] = ']'
			i -= copy(b[i-len(strconv.Itoa(e.index)):], strconv.Itoa(e.index))
			i--
			b[i] = '['
		case e.kind == keyElem:
			i--
			b[i] = ']'
			i -= copy(b[i-len(e.name):], e.name)
			i--
			b[i] = '['
		case e.kind == childElem && e.name == "":
			i -= copy(b[i-2:], "[]")
		case e.kind == dottedElem:
			i -= copy(b[i-len(e.name):], e.name)
			i--
			b[i] = '.'
		default:
			i -= copy(b[i-len(e.name):], e.name)
			if x.parent != nil {
				i--
				b[i] = '.'
			}
		}
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// width is the length of e as write writes it; first says it has no
// parent.
func (e Element) width(first bool) int {
	switch e.kind {
	case fieldElem, childElem:
		if e.kind == childElem && e.name == "" {
			return 2
		}
		if first {
			return len(e.name)
		}
		return 1 + len(e.name)
	case keyElem:
		return 2 + len(e.name)
	case dottedElem:
		return 1 + len(e.name)
	}
	return 2 + len(strconv.Itoa(e.index))
}

// Strings renders every path of ps.
func Strings(ps []Path) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// SortedStrings renders every path of ps once and returns the renderings
// sorted, as the apiserver sorts its warnings; nil for no paths.
func SortedStrings(ps []Path) []string {
	if ps == nil {
		return nil
	}
	for i := range ps {
		ps[i].s = ps[i].String()
	}
	slices.SortFunc(ps, func(a, b Path) int { return strings.Compare(a.s, b.s) })
	return Strings(ps)
}

// Lookup returns the value at p inside obj, and whether it exists.
func (p Path) Lookup(obj any) (any, bool) {
	cur := obj
	for _, e := range p.Elements() {
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

// Tracker collects the paths of removed fields during a walk that keeps no
// stack of where it is: a removed field is recorded without its parents,
// and linked to its parent when the walk returns from it (Up). Tracking
// allocates nothing until a field is removed, and each element of a path
// is allocated once, however many removed fields lie below it.
type Tracker struct {
	// out are the removed fields' paths, in the order of removal.
	out []Path
	// orphans are the path elements whose parent the walk has not yet
	// returned to: the top-most elements of what was removed below the
	// values the walk is inside, in the order of removal.
	orphans []*pathNode
	// nodes is the unused tail of a block the path elements are carved
	// from: one allocation for several elements.
	nodes []pathNode
}

// trackerBlock is the number of path elements in a block, and the room
// the lists of a Tracker start with.
const trackerBlock = 8

// node returns a new path element e, without a parent yet.
func (t *Tracker) node(e Element) *pathNode {
	if len(t.nodes) == 0 {
		t.nodes = make([]pathNode, trackerBlock)
	}
	n := &t.nodes[0]
	n.e = e
	t.nodes = t.nodes[1:]
	return n
}

// Removed records the removal of e from the value the walk is at.
func (t *Tracker) Removed(e Element) {
	n := t.node(e)
	if t.out == nil {
		t.out = make([]Path, 0, trackerBlock)
		t.orphans = make([]*pathNode, 0, trackerBlock)
	}
	t.out = append(t.out, Path{n: n})
	t.orphans = append(t.orphans, n)
}

// Mark returns the position to pass to Up when the walk returns from the
// value it is about to enter.
func (t *Tracker) Mark() int { return len(t.orphans) }

// Up gives the removals recorded since mark the parent e, as the walk
// returns from the value at e; that parent is then awaiting its own.
func (t *Tracker) Up(mark int, e Element) {
	if len(t.orphans) == mark {
		return
	}
	p := t.node(e)
	for _, o := range t.orphans[mark:] {
		o.parent = p
	}
	t.orphans = append(t.orphans[:mark], p)
}

// Paths returns the recorded paths, in the order of removal.
func (t *Tracker) Paths() []Path { return t.out }
