package validation

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	openapierrors "k8s.io/kube-openapi/pkg/validation/errors"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// Validator validates values against one compiled schema. It is immutable
// and safe for concurrent use by any number of goroutines. The zero value and
// a nil *Validator accept everything.
type Validator struct {
	openapi    *spec.Schema
	structural *structural.Schema
	// engine is kube-openapi's validator for openapi, built once and shared
	// by every call, as the apiserver shares one per CRD version.
	engine *validate.SchemaValidator
}

// withEngine builds the validator's kube-openapi engine once.
func (v *Validator) withEngine() *Validator {
	if v.openapi != nil {
		v.engine = validate.NewSchemaValidator(v.openapi, nil, "", strfmt.Default)
	}
	return v
}

// New compiles the validator the apiserver uses for custom resources of a
// CRD version whose schema is s (built from the version's
// openAPIV3Schema): the full schema, junctors included, converted as the
// apiserver converts it (x-kubernetes-int-or-string becomes the types
// integer,string; formats the apiserver does not support are dropped). A nil
// s gives a validator that accepts everything.
func New(s *structural.Schema) *Validator {
	if s == nil {
		return &Validator{}
	}
	return (&Validator{openapi: fromProps(s.Props), structural: s}).withEngine()
}

// NewFromProps is New for a parsed schema node that has no structural model
// (for example a schema that is not structural). List-type checks are then
// skipped.
func NewFromProps(p *schema.Props) *Validator {
	if p == nil {
		return &Validator{}
	}
	return (&Validator{openapi: fromProps(p)}).withEngine()
}

// NewForDefaults compiles the validator the apiserver uses to check a default
// value against the schema node s: the structural conversion, in which
// x-kubernetes-int-or-string is not unfolded to types and formats are kept
// as written.
func NewForDefaults(s *structural.Schema) *Validator {
	if s == nil {
		return &Validator{}
	}
	return (&Validator{openapi: fromStructural(s), structural: s}).withEngine()
}

// Validate validates a whole custom resource (or any value at the schema's
// root) against the schema: OpenAPI value validation, then
// x-kubernetes-list-type set/map uniqueness. Errors have paths relative to
// the root (spec.replicas). The object is not changed.
func (v *Validator) Validate(obj any) field.ErrorList {
	errs := v.ValidateValue(nil, obj)
	if v != nil && v.structural != nil {
		if m, ok := obj.(map[string]any); ok {
			errs = append(errs, ValidateListSetsAndMaps(nil, v.structural, m)...)
		}
	}
	return errs
}

// ValidateValue runs only the OpenAPI value validation of value, reporting
// errors below fldPath exactly as the apiserver does (its
// ValidateCustomResource with a base path): a keyword error at the value's
// root gets fldPath itself, one at spec.replicas gets
// fldPath.Child("spec.replicas"). This is what the apiserver runs on default
// values (with fldPath ending in .default); list types are not checked there.
func (v *Validator) ValidateValue(fldPath *field.Path, value any) (errs field.ErrorList) {
	if v == nil || v.engine == nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			errs = append(errs, field.InternalError(fldPath, fmt.Errorf("validation failed: %v", r)))
		}
	}()
	res := v.engine.Validate(value)
	if res == nil || res.IsValid() {
		return nil
	}
	return toFieldErrors(fldPath, res)
}

// toFieldErrors turns the engine's result into field errors, as the
// apiserver does.
func toFieldErrors(fldPath *field.Path, res *validate.Result) field.ErrorList {
	var errs field.ErrorList
	for _, err := range res.Errors {
		verr, ok := err.(*openapierrors.Validation)
		if !ok {
			errs = append(errs, field.Invalid(fldPath, "", err.Error()))
			continue
		}
		p := fldPath
		if verr.Name != "" && verr.Name != "." {
			p = p.Child(strings.TrimPrefix(verr.Name, "."))
		}
		value := any("")
		if verr.Value != nil {
			value = verr.Value
		}
		switch verr.Code() {
		case openapierrors.RequiredFailCode:
			errs = append(errs, field.Required(p, ""))
		case openapierrors.EnumFailCode:
			values := []string{}
			for _, allowed := range verr.Values {
				if s, ok := allowed.(string); ok {
					values = append(values, s)
				} else {
					b, _ := json.Marshal(allowed)
					values = append(values, string(b))
				}
			}
			errs = append(errs, field.NotSupported(p, verr.Value, values))
		case openapierrors.TooLongFailCode:
			errs = append(errs, field.TooLong(p, "", int(int64Or(verr.Valid))))
		case openapierrors.MaxItemsFailCode, openapierrors.TooManyPropertiesCode:
			errs = append(errs, field.TooMany(p, int(int64Or(verr.Value)), int(int64Or(verr.Valid))))
		case openapierrors.InvalidTypeCode:
			errs = append(errs, field.TypeInvalid(p, value, verr.Error()))
		default:
			errs = append(errs, field.Invalid(p, value, verr.Error()))
		}
	}
	return errs
}

func int64Or(x any) int64 {
	if i, ok := x.(int64); ok {
		return i
	}
	return -1
}
