package validation

import (
	"encoding/json"
	"math"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/structural"
)

// listWalker walks a value with its structural schema looking for list-type
// violations. Field paths are built only for errors, from a stack of steps.
type listWalker struct {
	base *field.Path
	errs field.ErrorList
	// relevant, when set, holds the schema nodes with a list type at or
	// below them; the walk skips the others.
	relevant map[*structural.Schema]bool
	// hashOnly disables the item-by-item comparison (tests compare both).
	hashOnly bool
	// typed is set when the walk meets a Go value that is not plain JSON
	// where it looks for lists: the caller walks its JSON form instead.
	typed bool
}

// path is the field path of the value at steps below base: a Key step
// (additionalProperties), a Child step (properties) or an Index.
func (w *listWalker) path(steps objpath.Steps) *field.Path {
	return steps.Field(w.base)
}

func (w *listWalker) follow(s *structural.Schema) bool {
	return s != nil && (w.relevant == nil || w.relevant[s])
}

func (w *listWalker) object(s *structural.Schema, obj map[string]any, steps objpath.Steps) {
	if ap := s.AdditionalProperties; ap != nil && w.follow(ap.Schema) {
		for k, v := range obj {
			w.value(ap.Schema, v, append(steps, objpath.Key(k)))
		}
	}
	if len(s.Properties) == 0 {
		return
	}
	if w.relevant != nil && len(s.Properties) < len(obj) {
		for k, sub := range s.Properties {
			if v, ok := obj[k]; ok && w.follow(sub) {
				w.value(sub, v, append(steps, objpath.Child(k)))
			}
		}
		return
	}
	for k, v := range obj {
		if sub, ok := s.Properties[k]; ok && w.follow(sub) {
			w.value(sub, v, append(steps, objpath.Child(k)))
		}
	}
}

func (w *listWalker) value(s *structural.Schema, x any, steps objpath.Steps) {
	switch x := x.(type) {
	case []any:
		w.array(s, x, steps)
	case map[string]any:
		if x != nil {
			w.object(s, x, steps)
		}
	case nil, string, bool, int64, float64:
	default:
		w.typed = true
	}
}

func (w *listWalker) array(s *structural.Schema, l []any, steps objpath.Steps) {
	switch s.ListType {
	case "set":
		w.set(l, steps)
	case "map":
		w.listMap(s.ListMapKeys, l, steps)
	}
	if w.follow(s.Items) {
		for i := range l {
			w.value(s.Items, l[i], append(steps, objpath.Index(i)))
		}
	}
}

// maxQuadratic is the longest list compared item by item; longer lists
// (and lists with values that need encoding/json to compare) are hashed.
const maxQuadratic = 64

func (w *listWalker) set(l []any, steps objpath.Steps) {
	if len(l) <= 1 {
		return
	}
	if !w.hashOnly && len(l) <= maxQuadratic && comparableItems(len(l), func(i int) any { return l[i] }) {
		secondOccurrences(len(l), func(i, j int) bool { return sameItem(l[i], l[j]) }, func(i int) {
			w.errs = append(w.errs, field.Duplicate(w.path(steps).Index(i), l[i]))
		})
		return
	}
	fldPath := w.path(steps)
	dups, err := duplicates(fldPath, l)
	if err != nil {
		w.errs = append(w.errs, err)
		return
	}
	for _, i := range dups {
		w.errs = append(w.errs, field.Duplicate(fldPath.Index(i), l[i]))
	}
}

func (w *listWalker) listMap(keys []string, l []any, steps objpath.Steps) {
	for i, x := range l {
		if _, ok := x.(map[string]any); x != nil && !ok {
			w.errs = append(w.errs, field.Invalid(w.path(steps).Index(i), x, "must be an object for an array of list-type map"))
			return
		}
	}
	if len(l) <= 1 {
		return
	}
	item := func(i int) map[string]any { m, _ := l[i].(map[string]any); return m }
	if len(keys) == 1 {
		key := keys[0]
		val := func(i int) any {
			if v, ok := item(i)[key]; ok {
				return v
			}
			return unspecifiedKey{}
		}
		if !w.hashOnly && len(l) <= maxQuadratic && comparableItems(len(l), val) {
			secondOccurrences(len(l), func(i, j int) bool { return sameItem(val(i), val(j)) }, func(i int) {
				w.errs = append(w.errs, field.Duplicate(w.path(steps).Index(i), keyObject(keys, item(i))))
			})
			return
		}
	} else if !w.hashOnly && len(l) <= maxQuadratic && comparableKeys(keys, len(l), item) {
		secondOccurrences(len(l), func(i, j int) bool { return sameKeys(keys, item(i), item(j)) }, func(i int) {
			w.errs = append(w.errs, field.Duplicate(w.path(steps).Index(i), keyObject(keys, item(i))))
		})
		return
	}
	w.errs = append(w.errs, listMap(w.path(steps), keys, l)...)
}

// keyObject is the object of the map keys present in m, as reported in
// Duplicate errors ({} for an item without the single key).
func keyObject(keys []string, m map[string]any) map[string]any {
	k := map[string]any{}
	for _, key := range keys {
		if v, ok := m[key]; ok {
			k[key] = v
		}
	}
	return k
}

// comparableKeys is comparableItems for the key objects of list-map items
// with several keys.
func comparableKeys(keys []string, n int, item func(i int) map[string]any) bool {
	for i := 0; i < n; i++ {
		m := item(i)
		for _, k := range keys {
			if v, ok := m[k]; ok && !jsonComparable(v) {
				return false
			}
		}
	}
	return true
}

// secondOccurrences calls report(i) for every index i at which an item is
// seen for the second time.
func secondOccurrences(n int, eq func(i, j int) bool, report func(i int)) {
	for i := 1; i < n; i++ {
		seen := 0
		for j := 0; j < i && seen < 2; j++ {
			if eq(i, j) {
				seen++
			}
		}
		if seen == 1 {
			report(i)
		}
	}
}

// comparableItems reports whether the n items can be compared by sameItem
// with the outcome of duplicates (scalars as Go values, objects and arrays
// by their JSON encoding) without encoding them.
func comparableItems(n int, item func(i int) any) bool {
	for i := 0; i < n; i++ {
		switch x := item(i).(type) {
		case map[string]any, []any:
			if !jsonComparable(x) {
				return false
			}
		default:
			if !hashable(x) {
				return false
			}
		}
	}
	return true
}

// jsonComparable reports whether jsonEqual decides for x as comparing
// encoding/json's output would: plain values, valid UTF-8, and no float
// whose encoding could equal an integer's without being exactly it.
func jsonComparable(x any) bool {
	switch x := x.(type) {
	case nil, bool, int64:
		return true
	case string:
		return utf8.ValidString(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
		return x == math.Trunc(x) && math.Abs(x) <= 1<<53 || x != math.Trunc(x) || math.Abs(x) >= 1e21
	case []any:
		for _, e := range x {
			if !jsonComparable(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for k, e := range x {
			if !utf8.ValidString(k) || !jsonComparable(e) {
				return false
			}
		}
		return true
	}
	return false
}

// sameItem compares two items as duplicates does: scalars as Go values,
// objects and arrays by their JSON encoding.
func sameItem(a, b any) bool {
	switch a.(type) {
	case map[string]any, []any:
		switch b.(type) {
		case map[string]any, []any:
			return jsonEqual(a, b)
		}
		return false
	}
	switch b.(type) {
	case map[string]any, []any:
		return false
	}
	return a == b
}

// sameKeys compares the key objects of two list-map items.
func sameKeys(keys []string, a, b map[string]any) bool {
	for _, k := range keys {
		x, xok := a[k]
		y, yok := b[k]
		if xok != yok || xok && !jsonEqual(x, y) {
			return false
		}
	}
	return true
}

// jsonEqual reports whether two jsonComparable values have the same JSON
// encoding.
func jsonEqual(a, b any) bool {
	if isJSONNull(a) || isJSONNull(b) {
		return isJSONNull(a) && isJSONNull(b)
	}
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return intEncodesAsFloat(x, y)
		}
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y && math.Signbit(x) == math.Signbit(y)
		case int64:
			return intEncodesAsFloat(y, x)
		}
	case []any:
		return jsonEqualList(x, b)
	case map[string]any:
		return jsonEqualObject(x, b)
	}
	return false
}

// jsonEqualList is jsonEqual for a non-null array x.
func jsonEqualList(x []any, b any) bool {
	y, ok := b.([]any)
	if !ok || len(x) != len(y) {
		return false
	}
	for i := range x {
		if !jsonEqual(x[i], y[i]) {
			return false
		}
	}
	return true
}

// jsonEqualObject is jsonEqual for a non-null object x.
func jsonEqualObject(x map[string]any, b any) bool {
	y, ok := b.(map[string]any)
	if !ok || len(x) != len(y) {
		return false
	}
	for k, xv := range x {
		yv, ok := y[k]
		if !ok || !jsonEqual(xv, yv) {
			return false
		}
	}
	return true
}

// intEncodesAsFloat reports whether i and the (jsonComparable) float f have
// the same JSON encoding.
func intEncodesAsFloat(i int64, f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) <= 1<<53 && !(f == 0 && math.Signbit(f)) && float64(i) == f && int64(f) == i
}

func isJSONNull(x any) bool {
	switch x := x.(type) {
	case nil:
		return true
	case map[string]any:
		return x == nil
	case []any:
		return x == nil
	}
	return false
}

// duplicates returns the indices at which an item is seen for the second
// time. Scalars are compared as Go values (so 1 and 1.0 of different Go
// types differ, as in the apiserver), objects and arrays by their JSON.
func duplicates(fldPath *field.Path, l []any) ([]int, *field.Error) {
	if len(l) <= 1 {
		return nil, nil
	}
	scalars := make(map[any]int, len(l))
	compounds := make(map[string]int, len(l))
	var dups []int
	for i, x := range l {
		switch x.(type) {
		case map[string]any, []any:
			b, err := json.Marshal(x)
			if err != nil {
				return nil, field.Invalid(fldPath.Index(i), x, "internal error")
			}
			compounds[string(b)]++
			if compounds[string(b)] == 2 {
				dups = append(dups, i)
			}
		default:
			if !hashable(x) {
				return nil, field.Invalid(fldPath.Index(i), x, "internal error")
			}
			scalars[x]++
			if scalars[x] == 2 {
				dups = append(dups, i)
			}
		}
	}
	return dups, nil
}

// hashable reports whether x can be a map key (plain JSON scalars can).
func hashable(x any) bool {
	switch x.(type) {
	case nil, string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64,
		float32, float64, json.Number, unspecifiedKey:
		return true
	}
	return false
}

// unspecifiedKey stands for a missing map key (or a null item).
type unspecifiedKey struct{}

// listMap is the list-map check by hashing.
func listMap(fldPath *field.Path, keys []string, l []any) field.ErrorList {
	if len(keys) == 1 {
		key := keys[0]
		vals := make([]any, 0, len(l))
		for _, x := range l {
			m, _ := x.(map[string]any)
			v, ok := m[key]
			if !ok {
				vals = append(vals, unspecifiedKey{})
				continue
			}
			vals = append(vals, v)
		}
		dups, err := duplicates(fldPath, vals)
		if err != nil {
			return field.ErrorList{err}
		}
		var errs field.ErrorList
		for _, i := range dups {
			if _, ok := vals[i].(unspecifiedKey); ok {
				errs = append(errs, field.Duplicate(fldPath.Index(i), map[string]any{}))
			} else {
				errs = append(errs, field.Duplicate(fldPath.Index(i), map[string]any{key: vals[i]}))
			}
		}
		return errs
	}
	vals := make([]any, 0, len(l))
	for _, x := range l {
		m, _ := x.(map[string]any)
		vals = append(vals, keyObject(keys, m))
	}
	dups, err := duplicates(fldPath, vals)
	if err != nil {
		return field.ErrorList{err}
	}
	var errs field.ErrorList
	for _, i := range dups {
		errs = append(errs, field.Duplicate(fldPath.Index(i), vals[i]))
	}
	return errs
}
