package jsonvalue

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	kjson "k8s.io/apimachinery/pkg/util/json"
)

// The walkers expect the values the apiserver's JSON decoder produces:
// map[string]any, []any, string, bool, int64 for integers, float64 for
// other numbers, and nil. Callers hand objects decoded in other ways:
// encoding/json gives float64 for every number (or json.Number), and Go
// code builds map[string]string labels, []string lists, int replicas.
// Normalize turns such values into the decoder's,
// answering as the apiserver would for the same JSON text.

// TypeError is a value with no JSON form (a channel, a function, a complex
// number, NaN, a map whose keys are not strings...). Path names it as the
// apiserver's warnings name fields (spec.list[0].bar; "" for the root).
type TypeError struct {
	Path string
	Type string // the Go type, as %T prints it
	Why  string

	steps []string // the path's steps, innermost first, while unwinding
}

// Error names the path, the Go type and why it has no JSON form.
func (e *TypeError) Error() string {
	where := e.Path
	if where == "" {
		where = "the object"
	}
	return fmt.Sprintf("%s: a value of Go type %s cannot be handled as JSON: %s", where, e.Type, e.Why)
}

// KeepFloats marks, in place, every float64 of v that is a whole number
// within int64 as a float: it becomes the json.Number of its text with a
// fraction ("3.0"), which Normalize turns back into that float64 rather
// than the integer it would take a whole float64 for. It is for values
// that come from the apiserver's JSON decoder (as the readers' do), where
// a float64 was written with a fraction or an exponent and the apiserver
// keeps it a float. Maps and slices are walked, never copied. It reports
// whether it marked any value.
func KeepFloats(v any) (marked bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if n, ok := keepFloat(e); ok {
				x[k], marked = n, true
			} else if KeepFloats(e) {
				marked = true
			}
		}
	case []any:
		for i, e := range x {
			if n, ok := keepFloat(e); ok {
				x[i], marked = n, true
			} else if KeepFloats(e) {
				marked = true
			}
		}
	}
	return marked
}

// keepFloat returns the json.Number that stands for e when e is a whole
// float64.
func keepFloat(e any) (json.Number, bool) {
	if f, ok := e.(float64); ok {
		return wholeNumber(f)
	}
	return "", false
}

// wholeNumber returns f as a json.Number with a fraction when f is a whole
// number within int64 (which Normalize would take as an integer).
func wholeNumber(f float64) (json.Number, bool) {
	if _, isInt := floatAsInt(f); !isInt {
		return "", false
	}
	return json.Number(strconv.FormatFloat(f, 'f', -1, 64) + ".0"), true
}

// IsNormal reports whether v holds only the values the apiserver's JSON
// decoder produces, nested at most maxDepth maps and slices deep, so that
// Normalize would return it unchanged. It is false for a value that holds
// itself, after at most maxDepth levels of recursion.
func IsNormal(v any, maxDepth int) bool { return isDecoded(v, maxDepth, false) }

// isDecoded is IsNormal, and IsPlain with wholeFloats set.
func isDecoded(v any, maxDepth int, wholeFloats bool) bool {
	switch x := v.(type) {
	case nil, string, bool, int64:
		return true
	case float64:
		_, isInt := floatAsInt(x)
		return (wholeFloats || !isInt) && !math.IsNaN(x) && !math.IsInf(x, 0)
	case map[string]any:
		if maxDepth <= 0 || x == nil {
			return false // a nil map is JSON null, as encoding/json writes it
		}
		for _, e := range x {
			if !isDecoded(e, maxDepth-1, wholeFloats) {
				return false
			}
		}
		return true
	case []any:
		if maxDepth <= 0 || x == nil {
			return false // a nil slice is JSON null, as encoding/json writes it
		}
		for _, e := range x {
			if !isDecoded(e, maxDepth-1, wholeFloats) {
				return false
			}
		}
		return true
	}
	return false
}

// Normalize returns a copy of v that shares no map or slice with it and
// holds only the values the apiserver's JSON decoder produces:
//
//   - integers of every Go type become int64 (uint64 values beyond int64,
//     float64, as the decoder reads such text);
//   - a float64 or float32 that is a whole number within int64 becomes
//     int64, as its JSON text ("3") would decode; other floats stay float64
//     (float32 through its shortest text, as encoding/json writes it);
//   - a json.Number becomes int64 when its text is an integer, float64
//     otherwise (what the decoder does with the same text);
//   - maps with string keys and slices or arrays of any element type become
//     map[string]any and []any; pointers are followed; []byte becomes its
//     base64 text; anything else with a JSON form (structs, values with a
//     MarshalJSON method such as resource.Quantity) goes through that form.
//
// A value with no JSON form is a *TypeError naming its path. A value nested
// more than maxDepth maps, lists and pointers deep (or containing itself)
// is ErrTooDeep.
func Normalize(v any, maxDepth int) (any, error) {
	n, err := normalize(v, maxDepth)
	return n, withPath(err)
}

// withPath sets the Path of a *TypeError from the steps it collected on
// its way up.
func withPath(err error) error {
	if te, ok := err.(*TypeError); ok {
		var b strings.Builder
		for i := len(te.steps) - 1; i >= 0; i-- {
			s := te.steps[i]
			if b.Len() > 0 && !strings.HasPrefix(s, "[") {
				b.WriteByte('.')
			}
			b.WriteString(s)
		}
		te.Path, te.steps = b.String(), nil
	}
	return err
}

// within adds a step to the path of a *TypeError coming up from a child;
// the path is built only for the error, never on the way down.
func within(err error, step string) error {
	if te, ok := err.(*TypeError); ok {
		te.steps = append(te.steps, step)
	}
	return err
}

func indexStep(i int) string { return "[" + strconv.Itoa(i) + "]" }

// ErrTooDeep is Normalize's error for a value nested too deep.
var ErrTooDeep = errors.New("nested too deep, or contains itself")

// floatAsInt returns f as an int64 when it is a whole number within int64.
func floatAsInt(f float64) (int64, bool) {
	if f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return 0, false
	}
	return int64(f), true
}

func normalizeFloat(f float64, typ string) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, &TypeError{Type: typ, Why: fmt.Sprintf("%v has no JSON form", f)}
	}
	if i, ok := floatAsInt(f); ok {
		return i, nil
	}
	return f, nil
}

var (
	marshalerType = reflect.TypeFor[json.Marshaler]()
	numberType    = reflect.TypeFor[json.Number]()
)

func normalize(v any, depth int) (any, error) {
	switch x := v.(type) {
	case nil, string, bool, int64:
		return v, nil
	case float64:
		if _, isInt := floatAsInt(x); !isInt && !math.IsNaN(x) && !math.IsInf(x, 0) {
			return v, nil // as it is, without boxing it again
		}
		return normalizeFloat(x, "float64")
	case float32:
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		return normalizeFloat(f, "float32")
	case int:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case json.Number:
		return normalizeNumber(x)
	case map[string]any:
		return normalizeMap(x, depth, normalize)
	case []any:
		return normalizeSlice(x, depth, normalize)
	}
	if depth <= 0 {
		return nil, ErrTooDeep
	}
	return normalizeReflect(reflect.ValueOf(v), depth-1)
}

// normalizeNumber reads a json.Number as the decoder reads its text: an
// int64 when it is one, else a float64.
func normalizeNumber(x json.Number) (any, error) {
	if i, err := x.Int64(); err == nil {
		return i, nil
	}
	f, err := x.Float64()
	if err != nil || math.IsInf(f, 0) {
		return nil, &TypeError{Type: "json.Number", Why: fmt.Sprintf("%q is not a JSON number", string(x))}
	}
	return f, nil
}

// normalizeMap copies a JSON object with its members read by elem
// (normalize, or plain).
func normalizeMap(x map[string]any, depth int, elem func(any, int) (any, error)) (any, error) {
	if x == nil {
		return nil, nil // JSON null, as encoding/json writes a nil map
	}
	if depth <= 0 {
		return nil, ErrTooDeep
	}
	out := make(map[string]any, len(x))
	for k, e := range x {
		n, err := elem(e, depth-1)
		if err != nil {
			return nil, within(err, k)
		}
		out[k] = n
	}
	return out, nil
}

// normalizeSlice copies a JSON array with its items read by elem.
func normalizeSlice(x []any, depth int, elem func(any, int) (any, error)) (any, error) {
	if x == nil {
		return nil, nil // JSON null, as encoding/json writes a nil slice
	}
	if depth <= 0 {
		return nil, ErrTooDeep
	}
	out := make([]any, len(x))
	for i, e := range x {
		n, err := elem(e, depth-1)
		if err != nil {
			return nil, within(err, indexStep(i))
		}
		out[i] = n
	}
	return out, nil
}

// normalizeReflect reads any other Go value as encoding/json would marshal
// it, one case per kind.
func normalizeReflect(rv reflect.Value, depth int) (any, error) {
	t := rv.Type()
	if t.Implements(marshalerType) && t != numberType {
		if t.Kind() == reflect.Pointer && rv.IsNil() {
			return nil, nil
		}
		return viaJSON(rv.Interface(), t)
	}
	switch t.Kind() {
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.String:
		return rv.String(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return float64(u), nil // as the decoder reads such text
		}
		return int64(u), nil
	case reflect.Float32:
		return normalize(float32(rv.Float()), depth)
	case reflect.Float64:
		return normalizeFloat(rv.Float(), t.String())
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, nil
		}
		return normalize(rv.Elem().Interface(), depth)
	case reflect.Map:
		return reflectMap(rv, t, depth)
	case reflect.Slice, reflect.Array:
		return reflectList(rv, t, depth)
	case reflect.Struct:
		return viaJSON(rv.Interface(), t)
	}
	return nil, &TypeError{Type: t.String(), Why: "it has no JSON form"}
}

// reflectMap reads a Go map of type t: string keys as a JSON object's,
// text-marshalling keys as encoding/json writes them, any other key refused.
func reflectMap(rv reflect.Value, t reflect.Type, depth int) (any, error) {
	if t.Key().Kind() != reflect.String {
		if t.Key().Implements(reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()) {
			return viaJSON(rv.Interface(), t)
		}
		return nil, &TypeError{Type: t.String(), Why: "a JSON object's keys are strings"}
	}
	if rv.IsNil() {
		return nil, nil
	}
	out := make(map[string]any, rv.Len())
	iter := rv.MapRange()
	for iter.Next() {
		k := iter.Key().String()
		n, err := normalize(iter.Value().Interface(), depth)
		if err != nil {
			return nil, within(err, k)
		}
		out[k] = n
	}
	return out, nil
}

// reflectList reads a Go slice or array of type t as a JSON array; bytes
// become base64 text, as encoding/json writes them.
func reflectList(rv reflect.Value, t reflect.Type, depth int) (any, error) {
	if t.Kind() == reflect.Slice && rv.IsNil() {
		return nil, nil
	}
	if t.Elem().Kind() == reflect.Uint8 && !t.Elem().Implements(marshalerType) {
		return viaJSON(rv.Interface(), t) // base64 text, as encoding/json writes bytes
	}
	out := make([]any, rv.Len())
	for i := range out {
		n, err := normalize(rv.Index(i).Interface(), depth)
		if err != nil {
			return nil, within(err, indexStep(i))
		}
		out[i] = n
	}
	return out, nil
}

// viaJSON converts a value through its encoding/json form, decoded as the
// apiserver decodes JSON.
func viaJSON(v any, t reflect.Type) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &TypeError{Type: t.String(), Why: err.Error()}
	}
	var out any
	if err := kjson.Unmarshal(b, &out); err != nil {
		return nil, &TypeError{Type: t.String(), Why: err.Error()}
	}
	return out, nil
}
