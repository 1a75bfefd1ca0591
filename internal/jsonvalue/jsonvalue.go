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
