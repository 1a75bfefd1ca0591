package validation

import (
	"fmt"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"
	openapierrors "k8s.io/kube-openapi/pkg/validation/errors"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"

	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// Validator validates values against one compiled schema. It is immutable
// and safe for concurrent use by any number of goroutines. The zero value and
// a nil *Validator accept everything.
//
// The schema is compiled into a tree of native checks that yields exactly
// the errors of kube-openapi's validate engine (the apiserver's), without
// allocating while a value is valid (New compiles each node once, when a
// value first reaches it; the engine is built when first needed). Two cases go to the engine
// itself instead: a schema using keywords the compiler does not implement
// (patternProperties, dependencies, items given as an array,
// additionalItems, $ref; possible only on a
// non-structural schema) is validated by the engine entirely; a value
// holding Go types other than map[string]any, []any, string, int64,
// float64, bool and nil (int, json.Number, typed maps or slices, …) is
// validated as its JSON form (see the package doc).
type Validator struct {
	// openapi is the schema in kube-openapi's form; nil for New, whose
	// engine converts the structural schema when it is first needed.
	openapi    *spec.Schema
	structural *structural.Schema
	// engine is kube-openapi's validator for the schema, built on first
	// use (most validators never need it: the compiled walk handles every
	// plain JSON value) and then shared by every call, as the apiserver
	// shares one per CRD version.
	engineOnce sync.Once
	engine     *validate.SchemaValidator
	// compiled is the schema compiled for the walk (openapi, or for New
	// the structural schema, whose nodes' children compile on first use),
	// nil when it uses a keyword the walk does not implement.
	compiled *cnode
	// lists holds the structural nodes with a list type (set or map) at or
	// below them: the only ones the list-type walk must visit.
	lists map[*structural.Schema]bool
}

// compileWhole compiles the validator's kube-openapi schema for the walk,
// the whole tree at once, and marks its list types (the engine itself is
// built on first use).
func (v *Validator) compileWhole() *Validator {
	if v.openapi != nil {
		if c, ok := compile(v.openapi); ok {
			v.compiled = c
		}
	}
	if v.structural != nil {
		v.lists = map[*structural.Schema]bool{}
		markLists(v.structural, v.lists)
	}
	return v
}

// empty reports whether v has no schema: it accepts everything.
func (v *Validator) empty() bool {
	return v == nil || (v.openapi == nil && v.structural == nil)
}

// engineValidator is kube-openapi's validator for the schema, built on
// the first call.
func (v *Validator) engineValidator() *validate.SchemaValidator {
	v.engineOnce.Do(func() {
		s := v.openapi
		if s == nil {
			s = fromModel(v.structural)
		}
		v.engine = validate.NewSchemaValidator(s, nil, "", strfmt.Default)
	})
	return v.engine
}

// markLists adds to lists the nodes of s with a list type set or map at or
// below them, and reports whether s is one.
func markLists(s *structural.Schema, lists map[*structural.Schema]bool) bool {
	found, _ := scanModel(s, lists, false)
	return found
}

// scanModel is markLists, and with checkSource reports also whether
// compile would compile fromModel(s) (sourceCompiles on every node): one
// walk of the model for both.
func scanModel(s *structural.Schema, lists map[*structural.Schema]bool, checkSource bool) (listBelow, compiles bool) {
	if s == nil {
		return false, true
	}
	listBelow = s.ListType == "set" || s.ListType == "map"
	compiles = !checkSource || sourceCompiles(s)
	visit := func(c *structural.Schema) {
		l, ok := scanModel(c, lists, checkSource)
		listBelow = listBelow || l
		compiles = compiles && ok
	}
	visit(s.Items)
	for _, c := range s.Properties {
		visit(c)
	}
	if s.AdditionalProperties != nil {
		visit(s.AdditionalProperties.Schema)
	}
	if listBelow {
		lists[s] = true
	}
	return listBelow, compiles
}

// New compiles the validator the apiserver uses for custom resources of a
// CRD version whose schema is s (built from the version's
// openAPIV3Schema): the full schema, junctors included, converted as the
// apiserver converts it (x-kubernetes-int-or-string becomes the types
// integer,string; formats the apiserver does not support are dropped). A nil
// s gives a validator that accepts everything. The structure (types,
// nullable, default, properties, items, additionalProperties) is read from
// the model, the value validations and junctors from each node's Source,
// so a model written by hand validates as the same model built by
// structural.New.
//
// The walk's form of each node is compiled when a value first reaches it
// (a CRD's objects use a small part of a large schema), so the first
// validations of a new validator allocate.
func New(s *structural.Schema) *Validator {
	if s == nil {
		return &Validator{}
	}
	v := &Validator{structural: s, lists: map[*structural.Schema]bool{}}
	if _, compiles := scanModel(s, v.lists, true); compiles {
		v.compiled = compileModel(s)
	}
	return v
}

// newFromProps is New for a parsed schema node that has no structural model
// (for example a schema that is not structural). List-type checks are then
// skipped.
func newFromProps(p *schema.Props) *Validator {
	if p == nil {
		return &Validator{}
	}
	return (&Validator{openapi: fromProps(p)}).compileWhole()
}

// NewForDefaults compiles the validator the apiserver uses to check a default
// value against the schema node s: the structural conversion, in which
// x-kubernetes-int-or-string is not unfolded to types and formats are kept
// as written.
func NewForDefaults(s *structural.Schema) *Validator {
	if s == nil {
		return &Validator{}
	}
	return (&Validator{openapi: fromStructural(s), structural: s}).compileWhole()
}

// Validate validates a whole custom resource (or any value at the schema's
// root) against the schema: OpenAPI value validation, then
// x-kubernetes-list-type set/map uniqueness. Errors have paths relative to
// the root (spec.replicas). The object is not changed.
func (v *Validator) Validate(obj any) field.ErrorList {
	errs, obj := v.validateRead(nil, obj, true)
	if v != nil && v.lists[v.structural] {
		errs = append(errs, v.listErrors(obj)...)
	}
	return errs
}

// ValidateValue runs only the OpenAPI value validation of value, reporting
// errors below fldPath exactly as the apiserver does (its
// ValidateCustomResource with a base path): a keyword error at the value's
// root gets fldPath itself, one at spec.replicas gets
// fldPath.Child("spec.replicas"). This is what the apiserver runs on default
// values (with fldPath ending in .default); list types are not checked there.
// The errors are sorted by field, type and detail (the engine's own order
// follows map iteration).
func (v *Validator) ValidateValue(fldPath *field.Path, value any) field.ErrorList {
	return v.validateValue(fldPath, value, true)
}

// validateValue is ValidateValue, by the compiled walk when useCompiled is
// set and the schema and value allow it, by the engine otherwise. A panic
// becomes an internal error, as in the apiserver.
func (v *Validator) validateValue(fldPath *field.Path, value any, useCompiled bool) field.ErrorList {
	errs, _ := v.validateRead(fldPath, value, useCompiled)
	return errs
}

// validateRead is validateValue, returning also the value it validated:
// value, or its JSON form when value holds Go values that are not plain
// JSON (nil when one has none; the error then says so).
func (v *Validator) validateRead(fldPath *field.Path, value any, useCompiled bool) (errs field.ErrorList, read any) {
	if v.empty() {
		return nil, value
	}
	defer func() {
		if r := recover(); r != nil {
			errs = append(errs, field.InternalError(fldPath, fmt.Errorf("validation failed: %v", r)))
		}
	}()
	if useCompiled && v.compiled != nil {
		var buf [64]objpath.Element
		w := walker{}
		w.node(v.compiled, buf[:0], value)
		if !w.unsupported {
			if len(w.errs) == 0 {
				return nil, value
			}
			return toFieldErrors(fldPath, dedupErrors(w.errs)), value
		}
	}
	read, changed, errs := readPlain(fldPath, value)
	switch {
	case errs != nil:
		return errs, nil
	case changed:
		return v.validateRead(fldPath, read, useCompiled)
	}
	return v.validateWithEngine(fldPath, value), value
}

// validateWithEngine is ValidateValue by kube-openapi's engine.
func (v *Validator) validateWithEngine(fldPath *field.Path, value any) field.ErrorList {
	res := v.engineValidator().Validate(value)
	if res == nil || res.IsValid() {
		return nil
	}
	return toFieldErrors(fldPath, res.Errors)
}

// dedupErrors drops errors whose message an earlier error has, as the
// engine's results do when they merge.
//
// Enum errors are compared without building their messages (which list
// every enum value) unless two of them have the same field: only then can
// their messages be equal.
func dedupErrors(errs []error) []error {
	out := make([]error, 0, len(errs))
	seen := make(map[string]bool, len(errs))
	var enums map[string][]*enumError
	for _, e := range errs {
		if ee, ok := e.(*enumError); ok {
			if enums == nil {
				enums = map[string][]*enumError{}
			}
			dup := false
			for _, other := range enums[ee.name] {
				if other.Error() == ee.Error() {
					dup = true
					break
				}
			}
			if !dup {
				enums[ee.name] = append(enums[ee.name], ee)
				out = append(out, e)
			}
			continue
		}
		if msg := e.Error(); !seen[msg] {
			seen[msg] = true
			out = append(out, e)
		}
	}
	return out
}

// toFieldErrors turns the engine's errors into field errors, as the
// apiserver does, sorted by field, type and detail.
func toFieldErrors(fldPath *field.Path, result []error) field.ErrorList {
	var errs field.ErrorList
	var enums enumDetails
	for _, err := range result {
		switch e := err.(type) {
		case *enumError:
			errs = append(errs, enums.notSupported(childPath(fldPath, e.name), e))
		case *openapierrors.Validation:
			errs = append(errs, validationFieldError(fldPath, e))
		default:
			errs = append(errs, field.Invalid(fldPath, "", err.Error()))
		}
	}
	errorsort.Sort(errs)
	return errs
}

// childPath is fldPath followed by an engine error's name (".a.b", with
// "" and "." naming the value itself).
func childPath(fldPath *field.Path, name string) *field.Path {
	if name == "" || name == "." {
		return fldPath
	}
	return fldPath.Child(strings.TrimPrefix(name, "."))
}

// validationFieldError is the field error the apiserver makes of one of
// the engine's validation errors, by its code.
func validationFieldError(fldPath *field.Path, verr *openapierrors.Validation) *field.Error {
	p := childPath(fldPath, verr.Name)
	value := any("")
	if verr.Value != nil {
		value = verr.Value
	}
	switch verr.Code() {
	case openapierrors.RequiredFailCode:
		return field.Required(p, "")
	case openapierrors.EnumFailCode:
		return field.NotSupported(p, verr.Value, enumStrings(verr.Values))
	case openapierrors.TooLongFailCode:
		return field.TooLong(p, "", int(int64Or(verr.Valid)))
	case openapierrors.MaxItemsFailCode, openapierrors.TooManyPropertiesCode:
		return field.TooMany(p, int(int64Or(verr.Value)), int(int64Or(verr.Valid)))
	case openapierrors.InvalidTypeCode:
		return field.TypeInvalid(p, value, verr.Error())
	default:
		return field.Invalid(p, value, verr.Error())
	}
}

func int64Or(x any) int64 {
	if i, ok := x.(int64); ok {
		return i
	}
	return -1
}
