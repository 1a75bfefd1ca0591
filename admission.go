package crdschema

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objdiff"
	"github.com/crdschema/crdschema/internal/objpath"
)

// Warnings returns the warnings the apiserver sends for a request, in its
// wording and order: the deprecation warning of a deprecated version first,
// then, under fieldValidation=Warn (its default when the request names
// none), the fields the request body holds twice (Duplicates,
// `duplicate field "spec.replicas"`), then the pruned fields
// (`unknown field "spec.foo"`); a read (CRD.Read) is warned only about the
// deprecation. This is what an admission webhook puts in its response's
// warnings, and kubectl prints as "Warning: ...".
func (r Result) Warnings() []string {
	dups := r.duplicates()
	if len(r.Pruned) == 0 && len(dups) == 0 && r.Deprecation == "" {
		return nil
	}
	out := make([]string, 0, len(dups)+len(r.Pruned)+1)
	if r.Deprecation != "" {
		out = append(out, r.Deprecation)
	}
	for _, p := range dups {
		out = append(out, duplicateText(p))
	}
	for _, p := range r.Pruned {
		out = append(out, unknownText(p))
	}
	return out
}

// Strict returns the apiserver's answer to the same request under
// fieldValidation=Strict (kubectl's --validate=strict): a request body
// holding fields written twice (Duplicates) or unknown fields (Pruned) is
// rejected while it is decoded, with one error per field
// (FieldValueDuplicate `duplicate field "spec.size"`, FieldValueNotFound
// `unknown field "spec.foo"`, sorted) and no Object; Pruned, Duplicates
// and Deprecation are kept. Any other Result is the answer under Strict
// as it is, and so is a request already rejected while decoding (no
// Object): the apiserver meets that first. r itself is the answer under
// Warn, the apiserver's default, whose Warnings name the same fields.
func (r Result) Strict() Result {
	dups := r.duplicates()
	if r.Object == nil || len(dups)+len(r.Pruned) == 0 {
		return r
	}
	errs := make(field.ErrorList, 0, len(dups)+len(r.Pruned))
	for _, p := range dups {
		errs = append(errs, &field.Error{Type: field.ErrorTypeDuplicate, Field: p, BadValue: field.OmitValueType{}, Detail: duplicateText(p)})
	}
	for _, p := range r.Pruned {
		errs = append(errs, &field.Error{Type: field.ErrorTypeNotFound, Field: p, BadValue: field.OmitValueType{}, Detail: unknownText(p)})
	}
	errorsort.Sort(errs)
	return Result{Pruned: r.Pruned, Errors: errs, Duplicates: r.Duplicates, Deprecation: r.Deprecation}
}

// duplicates are the fields the request holds twice, none when it was
// rejected while decoding.
func (r Result) duplicates() []string {
	if r.Object == nil {
		return nil
	}
	return r.Duplicates
}

// duplicateText and unknownText word a field held twice and an unknown
// field as the apiserver's warnings and strict errors do.
func duplicateText(path string) string { return "duplicate field " + strconv.Quote(path) }
func unknownText(path string) string   { return "unknown field " + strconv.Quote(path) }

// patchOperation is one operation of an RFC 6902 JSON Patch.
type patchOperation struct {
	Op    string `json:"op"` // "add", "remove" or "replace"
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// MarshalJSON writes the operation; "value" is present for add and replace
// (even when it is null) and absent for remove.
func (o patchOperation) MarshalJSON() ([]byte, error) {
	type withValue struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value"`
	}
	type withoutValue struct {
		Op   string `json:"op"`
		Path string `json:"path"`
	}
	if o.Op == "remove" {
		return json.Marshal(withoutValue{o.Op, o.Path})
	}
	return json.Marshal(withValue(o))
}

// Patch returns the RFC 6902 JSON Patch that turns request, the object the
// Result was computed from, into r.Object (pruned, defaulted, metadata
// coerced): what a mutating admission webhook answers (patchType
// "JSONPatch") so that the apiserver stores what Apply computed. The patch
// is "[]" when nothing changes. Numbers are compared by value, so a
// request decoded with encoding/json (float64) gets no spurious
// operations. It fails when r.Object is nil: a rejected request has no
// result to patch to. request is not changed.
//
// The operations come in sorted key order at every level. Lists of the
// same length are patched item by item; otherwise a changed list is
// replaced whole, which never depends on the order of index operations.
func (r Result) Patch(request map[string]any) ([]byte, error) {
	if r.Object == nil {
		return nil, errors.New("the request was rejected: there is no object to patch to")
	}
	from, err := jsonvalue.Normalize(request, jsonvalue.MaxDepth)
	if err != nil {
		return nil, err
	}
	fromMap, _ := from.(map[string]any)
	if fromMap == nil {
		fromMap = map[string]any{}
	}
	ops := []patchOperation{}
	objdiff.Walk(fromMap, r.Object, sameJSON, func(at objpath.Steps, k objdiff.Kind, bv any) {
		op := patchOperation{Op: "replace", Path: pointer(at), Value: bv}
		switch k {
		case objdiff.Removed:
			op.Op, op.Value = "remove", nil
		case objdiff.Added:
			op.Op = "add"
		}
		ops = append(ops, op)
	})
	return json.Marshal(ops)
}

// pointer is the JSON Pointer (RFC 6901) of a path.
func pointer(at objpath.Steps) string {
	var b strings.Builder
	for _, e := range at {
		b.WriteByte('/')
		if e.IsIndex() {
			b.WriteString(strconv.Itoa(e.Position()))
		} else {
			b.WriteString(escapePointer(e.Name()))
		}
	}
	return b.String()
}

// sameJSON compares two normalized JSON values; numbers by value.
func sameJSON(a, b any) bool {
	switch av := a.(type) {
	case int64:
		if bf, ok := b.(float64); ok {
			return float64(av) == bf
		}
	case float64:
		if bi, ok := b.(int64); ok {
			return av == float64(bi)
		}
	}
	return reflect.DeepEqual(a, b)
}

// escapePointer escapes a key for a JSON Pointer (RFC 6901).
func escapePointer(k string) string {
	if !strings.ContainsAny(k, "~/") {
		return k
	}
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// DefaultInto defaults a Go value through its JSON form, as the apiserver
// would default the same JSON: obj, a non-nil pointer (typically to a
// struct with json tags), is encoded with encoding/json, given to Default,
// and the result is decoded into a new value that replaces *obj. Fields
// that the JSON form always holds (no omitempty, not a pointer) are
// present, so the schema does not default them, as the apiserver would
// not; use pointers or omitempty for fields with defaults. The value must
// encode to a JSON object.
func (s *Schema) DefaultInto(obj any) error {
	rv := reflect.ValueOf(obj)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("DefaultInto needs a non-nil pointer, not %T", obj)
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return fmt.Errorf("DefaultInto: %w", err)
	}
	var m map[string]any
	if err := kjson.Unmarshal(b, &m); err != nil || m == nil {
		return fmt.Errorf("DefaultInto: %T does not encode to a JSON object", obj)
	}
	r := s.Default(m)
	if len(r.Errors) > 0 {
		return fmt.Errorf("DefaultInto: %w", r.Errors.ToAggregate())
	}
	out, err := json.Marshal(r.Object)
	if err != nil {
		return fmt.Errorf("DefaultInto: %w", err)
	}
	fresh := reflect.New(rv.Elem().Type())
	if err := json.Unmarshal(out, fresh.Interface()); err != nil {
		return fmt.Errorf("DefaultInto: the defaulted object does not decode into %T: %w", obj, err)
	}
	rv.Elem().Set(fresh.Elem())
	return nil
}
