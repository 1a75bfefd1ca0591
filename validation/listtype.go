package validation

import (
	"encoding/json"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/structural"
)

// ValidateListSetsAndMaps checks the x-kubernetes-list-type invariants below
// the object obj whose schema is s, as the apiserver does on create: in a
// `set` list no item appears twice, in a `map` list every item is an object
// (or null) and no two items have the same x-kubernetes-list-map-keys values.
// A duplicate is reported once, as Duplicate value at the index of its
// second occurrence. Only the specified properties and additionalProperties
// are followed. obj is not changed.
func ValidateListSetsAndMaps(fldPath *field.Path, s *structural.Schema, obj map[string]any) field.ErrorList {
	if s == nil || obj == nil {
		return nil
	}
	var errs field.ErrorList
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		for k, v := range obj {
			errs = append(errs, listTypes(fldPath.Key(k), s.AdditionalProperties.Schema, v)...)
		}
	}
	if s.Properties != nil {
		for k, v := range obj {
			if sub, ok := s.Properties[k]; ok {
				errs = append(errs, listTypes(fldPath.Child(k), sub, v)...)
			}
		}
	}
	return errs
}

func listTypes(fldPath *field.Path, s *structural.Schema, x any) field.ErrorList {
	if s == nil {
		return nil
	}
	switch x := x.(type) {
	case []any:
		return listTypesArray(fldPath, s, x)
	case map[string]any:
		return ValidateListSetsAndMaps(fldPath, s, x)
	}
	return nil
}

func listTypesArray(fldPath *field.Path, s *structural.Schema, l []any) field.ErrorList {
	var errs field.ErrorList
	switch s.ListType {
	case "set":
		dups, err := duplicates(fldPath, l)
		if err != nil {
			errs = append(errs, err)
		} else {
			for _, i := range dups {
				errs = append(errs, field.Duplicate(fldPath.Index(i), l[i]))
			}
		}
	case "map":
		errs = append(errs, listMap(fldPath, s.ListMapKeys, l)...)
	}
	if s.Items != nil {
		for i := range l {
			errs = append(errs, listTypes(fldPath.Index(i), s.Items, l[i])...)
		}
	}
	return errs
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

func listMap(fldPath *field.Path, keys []string, l []any) field.ErrorList {
	for i, x := range l {
		if _, ok := x.(map[string]any); x != nil && !ok {
			return field.ErrorList{field.Invalid(fldPath.Index(i), x, "must be an object for an array of list-type map")}
		}
	}
	if len(l) <= 1 {
		return nil
	}
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
		k := map[string]any{}
		m, _ := x.(map[string]any)
		for _, key := range keys {
			if v, ok := m[key]; ok {
				k[key] = v
			}
		}
		vals = append(vals, k)
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
