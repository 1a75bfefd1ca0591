// Package jsonvalue holds helpers for plain JSON values (map[string]any,
// []any, scalars) shared by the walkers.
package jsonvalue

// DeepCopy returns a copy of a JSON value that shares no map or slice with
// it. Scalars are returned as they are.
func DeepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = DeepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = DeepCopy(e)
		}
		return out
	}
	return v
}

// MaxDepth is the deepest nesting of maps and slices the library accepts
// in a value it is given, as the readers accept documents nested at most
// this deep (apimachinery's JSON decoder's limit).
const MaxDepth = 10000

// CopyBounded is DeepCopy for a value nested at most maxDepth levels
// deep. For a deeper value, as for a value that holds itself (a map that
// is its own element: no JSON document decodes to one), it returns false
// and no copy, after at most maxDepth levels of recursion.
func CopyBounded(v any, maxDepth int) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		if maxDepth <= 0 {
			return nil, false
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, ok := CopyBounded(e, maxDepth-1)
			if !ok {
				return nil, false
			}
			out[k] = c
		}
		return out, true
	case []any:
		if maxDepth <= 0 {
			return nil, false
		}
		out := make([]any, len(x))
		for i, e := range x {
			c, ok := CopyBounded(e, maxDepth-1)
			if !ok {
				return nil, false
			}
			out[i] = c
		}
		return out, true
	}
	return v, true
}

// WithinDepth reports whether v is nested at most maxDepth levels deep
// (false for a value that holds itself), recursing at most maxDepth levels.
func WithinDepth(v any, maxDepth int) bool {
	switch x := v.(type) {
	case map[string]any:
		if maxDepth <= 0 {
			return false
		}
		for _, e := range x {
			if !WithinDepth(e, maxDepth-1) {
				return false
			}
		}
	case []any:
		if maxDepth <= 0 {
			return false
		}
		for _, e := range x {
			if !WithinDepth(e, maxDepth-1) {
				return false
			}
		}
	}
	return true
}
