package jsonvalue

import "reflect"

// Equal reports whether a and b are reflect.DeepEqual, without reflection
// for the plain JSON values (a nil list or object differs from an empty
// one, as for reflect.DeepEqual). Value validation's ratcheting and
// list-type duplicate checks compare with it, as kube-openapi does.
func Equal(a, b any) bool { return equal(a, b, false) }

// SemanticEqual reports whether a and b are equal as apimachinery's
// equality.Semantic.DeepEqual compares the typed fields they decode to
// (ObjectMeta's labels, finalizers, ...): like Equal, except that null, a
// nil and an empty list or object are all equal, since each decodes to an
// empty Go map or slice, and that a Go value that is not plain JSON (a
// map[string]string, an int32) is compared by its JSON form (see Plain),
// which is what decodes. ObjectMeta update rules compare with it, as the
// apiserver does.
func SemanticEqual(a, b any) bool { return equal(a, b, true) }

// equal is the one walker behind Equal and SemanticEqual (semantic set).
func equal(a, b any, semantic bool) bool {
	eq := equalAsIs(a, b, semantic)
	if eq || !semantic || (isPlainTop(a) && isPlainTop(b)) {
		return eq
	}
	pa, errA := Plain(a, MaxDepth)
	pb, errB := Plain(b, MaxDepth)
	return errA == nil && errB == nil && equal(pa, pb, true)
}

// isPlainTop reports whether v is a plain JSON value at its top: a
// scalar of the decoder's types, a non-nil map[string]any or []any.
func isPlainTop(v any) bool {
	switch x := v.(type) {
	case nil, string, bool, int64, float64:
		return true
	case map[string]any:
		return x != nil
	case []any:
		return x != nil
	}
	return false
}

// equalAsIs is equal with the values' Go types as they are.
func equalAsIs(a, b any, nilIsEmpty bool) bool {
	switch x := a.(type) {
	case nil:
		if nilIsEmpty {
			switch y := b.(type) {
			case map[string]any:
				return len(y) == 0
			case []any:
				return len(y) == 0
			}
		}
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case []any:
		return equalList(x, b, nilIsEmpty)
	case map[string]any:
		return equalObject(x, b, nilIsEmpty)
	}
	return reflect.DeepEqual(a, b)
}

// equalList is equal for a list x.
func equalList(x []any, b any, nilIsEmpty bool) bool {
	y, ok := b.([]any)
	if !ok {
		return nilIsEmpty && len(x) == 0 && b == nil
	}
	if len(x) != len(y) || (!nilIsEmpty && (x == nil) != (y == nil)) {
		return false
	}
	if len(x) > 0 && &x[0] == &y[0] {
		return true
	}
	for i := range x {
		if !equal(x[i], y[i], nilIsEmpty) {
			return false
		}
	}
	return true
}

// equalObject is equal for an object x.
func equalObject(x map[string]any, b any, nilIsEmpty bool) bool {
	y, ok := b.(map[string]any)
	if !ok {
		return nilIsEmpty && len(x) == 0 && b == nil
	}
	if len(x) != len(y) || (!nilIsEmpty && (x == nil) != (y == nil)) {
		return false
	}
	if reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer() {
		return true
	}
	for k, xv := range x {
		yv, ok := y[k]
		if !ok || !equal(xv, yv, nilIsEmpty) {
			return false
		}
	}
	return true
}
