// Package objdiff walks two JSON values side by side and reports where
// they differ: the one object-diff walk behind a webhook's JSON Patch
// (Result.Patch) and the losses of revision's round trips, replays and
// change probes.
package objdiff

import (
	"slices"

	"github.com/crdschema/crdschema/internal/objpath"
)

// Kind is how a field of b differs from the same field of a.
type Kind uint8

const (
	// Removed: a has the field, b does not.
	Removed Kind = iota
	// Changed: both have it, and it is a leaf that differs, lists of
	// different lengths, or values of different kinds.
	Changed
	// Added: b has the field, a does not.
	Added
)

// Walk walks a and b side by side and calls visit for every field where
// they differ. It goes into objects by key, visiting the keys of both in
// sorted order at every level, and into lists of the same length by
// index; any other pair of values is compared whole by same (which says
// how leaves are equal: exactly, or numbers by value). at is the path of
// the field from the top (Child and Index elements; empty for the top
// itself), valid only during the call; bv is b's value of the field (nil
// when Removed). Neither value is changed.
func Walk(a, b any, same func(a, b any) bool, visit func(at objpath.Steps, k Kind, bv any)) {
	w := walker{same: same, visit: visit, at: make(objpath.Steps, 0, 8)}
	w.value(a, b)
}

// walker is one Walk: at is the path of the values being compared, its
// backing array reused by siblings.
type walker struct {
	same  func(a, b any) bool
	visit func(objpath.Steps, Kind, any)
	at    objpath.Steps
}

// value compares a and b at w.at.
func (w *walker) value(a, b any) {
	switch av := a.(type) {
	case map[string]any:
		if bv, ok := b.(map[string]any); ok {
			w.object(av, bv)
			return
		}
	case []any:
		if bv, ok := b.([]any); ok && len(av) == len(bv) {
			n := len(w.at)
			for i := range av {
				w.at = append(w.at[:n], objpath.Index(i))
				w.value(av[i], bv[i])
			}
			w.at = w.at[:n]
			return
		}
	}
	if !w.same(a, b) {
		w.visit(w.at, Changed, b)
	}
}

// object compares two objects key by key: the keys of a and those only b
// has, merged in sorted order.
func (w *walker) object(a, b map[string]any) {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var added []string // usually none: nothing to sort or allocate
	for k := range b {
		if _, ok := a[k]; !ok {
			added = append(added, k)
		}
	}
	slices.Sort(added)
	n := len(w.at)
	for len(keys) > 0 || len(added) > 0 {
		if len(added) == 0 || len(keys) > 0 && keys[0] < added[0] {
			k := keys[0]
			keys = keys[1:]
			w.at = append(w.at[:n], objpath.Child(k))
			if bv, ok := b[k]; ok {
				w.value(a[k], bv)
			} else {
				w.visit(w.at, Removed, nil)
			}
			continue
		}
		k := added[0]
		added = added[1:]
		w.at = append(w.at[:n], objpath.Child(k))
		w.visit(w.at, Added, b[k])
	}
	w.at = w.at[:n]
}
