package validation

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// Go values that are not plain JSON (see the package doc) are read through
// their JSON form: the walks find them (the compiled walk's unsupported,
// the list walk's typed) and the value is validated again as its form, so
// that plain values cost nothing more.

// readPlain is value as validation reads it: value itself when it holds
// only plain JSON values, else its JSON form (changed set), or, for a
// value with no JSON form, errs saying where and of which Go type.
func readPlain(fldPath *field.Path, value any) (read any, changed bool, errs field.ErrorList) {
	if jsonvalue.IsPlain(value, jsonvalue.MaxDepth) {
		return value, false, nil
	}
	n, err := jsonvalue.Plain(value, jsonvalue.MaxDepth)
	if err != nil {
		return nil, false, field.ErrorList{jsonvalue.InputError(err, fldPath)}
	}
	return n, true, nil
}

// plainOld is the old value of an update as ratcheting reads it: its JSON
// form when it holds other Go values, nil (nothing correlates) when one
// has none.
func plainOld(old any) any {
	if jsonvalue.IsPlain(old, jsonvalue.MaxDepth) {
		return old
	}
	n, err := jsonvalue.Plain(old, jsonvalue.MaxDepth)
	if err != nil {
		return nil
	}
	return n
}

// plainObject is x's JSON form when that is an object, nil otherwise.
func plainObject(x any) map[string]any {
	n, err := jsonvalue.Plain(x, jsonvalue.MaxDepth)
	m, _ := n.(map[string]any)
	if err != nil {
		return nil
	}
	return m
}
