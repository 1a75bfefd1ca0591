package validation

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/structural"
)

// ValidateValueByEngine is ValidateValue by kube-openapi's engine alone: the
// oracle the compiled walk is tested against.
func (v *Validator) ValidateValueByEngine(fldPath *field.Path, value any) field.ErrorList {
	return v.validateValue(fldPath, value, false)
}

// IsCompiled reports whether the validator has a compiled walk (its schema
// uses only keywords the compiler implements).
func (v *Validator) IsCompiled() bool { return v != nil && v.compiled != nil }

// ListSetsAndMapsByHashing is ValidateListSetsAndMaps comparing every list
// by hashing (encoding/json for objects and arrays), the oracle of the
// item-by-item comparison.
func ListSetsAndMapsByHashing(fldPath *field.Path, s *structural.Schema, obj map[string]any) field.ErrorList {
	if s == nil || obj == nil {
		return nil
	}
	w := listWalker{base: fldPath, hashOnly: true}
	w.object(s, obj, nil)
	return w.errs
}
