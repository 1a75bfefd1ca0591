package check

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// maxSelectableFields is the most selectable fields a version may have.
const maxSelectableFields = 8

// validateSelectableFieldsOf validates the selectable fields of a version
// (or the shared ones) against the schema that applies to them. fldPath is
// the spec or the version holding both.
func validateSelectableFieldsOf(root *model.Props, fields []model.SelectableField, fldPath *field.Path, allowTooMany bool) field.ErrorList {
	errs := field.ErrorList{}
	s, err := structural.New(root)
	if err != nil {
		errs = append(errs, field.Invalid(fldPath.Child("schema.openAPIV3Schema"), "", err.Error()))
	}
	return append(errs, validateSelectableFields(fields, s, fldPath.Child("selectableFields"), allowTooMany)...)
}

// validateSelectableFields checks that every selectable field is a
// dot-notation path (cel.ResolveFieldPath without arrays) to a string, boolean or integer field outside metadata,
// with no duplicates and at most maxSelectableFields of them.
func validateSelectableFields(fields []model.SelectableField, s *structural.Schema, fldPath *field.Path, allowTooMany bool) field.ErrorList {
	errs := field.ErrorList{}
	seen := map[string]bool{}
	for i, f := range fields {
		p := fldPath.Index(i).Child("jsonPath")
		if f.JSONPath == "" {
			errs = append(errs, field.Required(p, ""))
			continue
		}
		path, found, err := cel.ResolveFieldPath(s, f.JSONPath, false)
		if err != nil {
			errs = append(errs, field.Invalid(p, f.JSONPath, "is an invalid path: "+err.Error()))
			continue
		}
		if path != nil && path.Root().String() == "metadata" {
			errs = append(errs, field.Invalid(p, f.JSONPath, "must not point to fields in metadata"))
		}
		if found == nil || (found.Type != "string" && found.Type != "boolean" && found.Type != "integer") {
			errs = append(errs, field.Invalid(p, f.JSONPath, "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."))
		}
		key := ""
		if path != nil {
			key = path.String()
		}
		if seen[key] {
			errs = append(errs, field.Duplicate(p, f.JSONPath))
		} else {
			seen[key] = true
		}
	}
	if len(seen) > maxSelectableFields && !allowTooMany {
		errs = append(errs, field.TooMany(fldPath, len(seen), maxSelectableFields))
	}
	return errs
}
