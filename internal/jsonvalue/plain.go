package jsonvalue

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The light packages (prune, defaulting, embedded, validation, serving,
// conversion) take a caller's Go values by one rule: a value is read as
// the JSON encoding/json writes for it. The plain values — nil, string,
// bool, int64, float64 (a whole one included: the apiserver's decoder
// holds "2.0" so), a non-nil map[string]any or []any — are read as they
// are; a nil map or slice is null; any other Go value (a map[string]string,
// a []string, an int32, a json.Number, a pointer, a struct or a value with
// a MarshalJSON method) is read as its JSON form; a value with no JSON form
// (a channel, a function, NaN, a map whose keys are not strings) is an
// error naming its path and Go type. The walkers find such values where
// they read them, so that plain values cost nothing more.

// IsPlain reports whether v holds only plain values (see Plain), nested at
// most maxDepth maps and slices deep.
func IsPlain(v any, maxDepth int) bool { return isDecoded(v, maxDepth, true) }

// Plain returns a copy of v that shares no map or slice with it, holds
// only plain values and reads as v does: plain values as they are (a whole
// float64 stays a float64), a nil map or slice as nil, any other Go value
// as its JSON form (Normalize). A value with no JSON form is a *TypeError
// naming its path; a value nested more than maxDepth deep is ErrTooDeep.
func Plain(v any, maxDepth int) (any, error) {
	n, err := plain(v, maxDepth)
	return n, withPath(err)
}

func plain(v any, depth int) (any, error) {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return normalizeFloat(x, "float64")
		}
		return v, nil
	case map[string]any:
		return normalizeMap(x, depth, plain)
	case []any:
		return normalizeSlice(x, depth, plain)
	}
	return normalize(v, depth)
}

// Container is what a walker reads for a value v it reaches and must look
// into or test for null (to prune, drop nulls, default, or find embedded
// resources below): ok is set when v is not a plain value and its JSON form
// is an object, a list or null (a map[string]string, a []string, a nil map,
// slice or pointer, a struct), n then being that form (see Plain). ok is
// false for plain values, for scalars of other Go types (the walkers that
// call Container do not read scalars) and for a value with no JSON form,
// err then saying why.
func Container(v any) (n any, ok bool, err error) {
	switch x := v.(type) {
	case nil, string, bool, int64, float64, json.Number:
		return nil, false, nil
	case map[string]any:
		return nil, x == nil, nil
	case []any:
		return nil, x == nil, nil
	}
	n, err = Plain(v, MaxDepth)
	if err != nil {
		return nil, false, err
	}
	switch n.(type) {
	case nil, map[string]any, []any:
		return n, true, nil
	}
	return nil, false, nil
}

// InputError is the error for a value that cannot be read (an error of
// Plain or Normalize), at base: one FieldValueInvalid at the path of the
// value with no JSON form, naming its Go type, or at base for a value
// nested too deep.
func InputError(err error, base *field.Path) *field.Error {
	var te *TypeError
	if errors.As(err, &te) {
		at := *te
		at.Path = joinPath(base, te.Path)
		return &field.Error{Type: field.ErrorTypeInvalid, Field: at.Path, BadValue: field.OmitValueType{}, Detail: at.Error()}
	}
	detail := err.Error()
	if errors.Is(err, ErrTooDeep) {
		detail = fmt.Sprintf("the object is nested more than %d levels deep, or contains itself", MaxDepth)
	}
	return &field.Error{Type: field.ErrorTypeInvalid, Field: joinPath(base, ""), BadValue: field.OmitValueType{}, Detail: detail}
}

// joinPath is the path p (as TypeError writes paths) below base.
func joinPath(base *field.Path, p string) string {
	switch {
	case base == nil:
		return p
	case p == "":
		return base.String()
	case p[0] == '[':
		return base.String() + p
	}
	return base.String() + "." + p
}
