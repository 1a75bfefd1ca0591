package validation

import (
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/structural"
)

// Ratcheting, as the apiserver does it on update (CRDValidationRatcheting):
// the value validation walks the new object; every node validated for a
// property, an additionalProperties value or a list item (and the root)
// whose old value can be correlated is a ratcheting point: when its subtree
// produced errors and the old and the new value there are equal (under the
// correlation rules below), its errors are dropped. Dropping errors only
// changes validity, never the match count, so junctors see ratcheted
// branches as valid.
//
// Correlation follows the structural schema from the root: a field is
// correlated when it is present in both objects and its schema is a
// specified property or an additionalProperties schema (never kind and
// apiVersion at the validator's root); a list item only in a
// x-kubernetes-list-type=map list, with the first old item having the same
// key values. Items of atomic lists and sets are not correlated: their
// errors ratchet only when an ancestor is unchanged.
//
// Equality is correlated too: objects are equal when they have the same
// fields and every field is correlated and equal (so a field the schema
// does not specify makes them unequal), map lists when they have the same
// length and every new item has an equal correlated old item (whatever the
// order), other lists and scalars when they are deeply equal.
//
// The correlation is computed only when errors are found: validating a
// valid object costs nothing more than on create.

// ratchet holds the roots of one ratcheting validation.
type ratchet struct {
	newRoot, oldRoot any
	s                *structural.Schema
	// oldRead is set once oldRoot is read as its JSON form (plainOld),
	// which is done only when an error asks for ratcheting.
	oldRead bool
}

// unchanged reports whether the node at p is correlated with an old value
// that equals its new value.
func (r *ratchet) unchanged(p path) bool {
	if !r.oldRead {
		r.oldRoot, r.oldRead = plainOld(r.oldRoot), true
	}
	nv, ov, s := r.newRoot, r.oldRoot, r.s
	if s == nil {
		return false
	}
	for i, e := range p {
		var ok bool
		if e.IsIndex() {
			if nv, ov, s, ok = r.item(nv, ov, s, e.Position()); !ok {
				return false
			}
			continue
		}
		if i == 0 && (e.Name() == "kind" || e.Name() == "apiVersion") {
			return false
		}
		if nv, ov, s, ok = r.field(nv, ov, s, e.Name()); !ok {
			return false
		}
	}
	return correlatedEqual(ov, nv, s)
}

// field steps from the correlated values nv and ov with schema s into
// their field name.
func (r *ratchet) field(nv, ov any, s *structural.Schema, name string) (any, any, *structural.Schema, bool) {
	nm, ok1 := nv.(map[string]any)
	om, ok2 := ov.(map[string]any)
	if !ok1 || !ok2 {
		return nil, nil, nil, false
	}
	var ok bool
	if nv, ok = nm[name]; !ok {
		return nil, nil, nil, false
	}
	if ov, ok = om[name]; !ok {
		return nil, nil, nil, false
	}
	if s = s.Field(name); s == nil {
		return nil, nil, nil, false
	}
	return nv, ov, s, true
}

// item steps from the correlated lists nv and ov with schema s into the
// new list's item i and the old item correlated with it.
func (r *ratchet) item(nv, ov any, s *structural.Schema, i int) (any, any, *structural.Schema, bool) {
	nl, ok1 := nv.([]any)
	ol, ok2 := ov.([]any)
	if !ok1 || !ok2 || i >= len(nl) {
		return nil, nil, nil, false
	}
	nv = nl[i]
	if ov = mapListOld(s, ol, nv); ov == nil || s.Items == nil {
		return nil, nil, nil, false
	}
	return nv, ov, s.Items, true
}

// isMapList reports whether items of a list with schema s are correlated
// by their map keys.
func isMapList(s *structural.Schema) bool {
	return s.Type == "array" && s.ListType == "map" && len(s.ListMapKeys) > 0
}

// mapListOld returns the first item of the old list ol that has the map
// keys of the new item, or nil (also when s is no map list).
func mapListOld(s *structural.Schema, ol []any, item any) any {
	if !isMapList(s) {
		return nil
	}
	m, ok := item.(map[string]any)
	if !ok {
		return nil
	}
	for _, k := range s.ListMapKeys {
		if !isKeyScalar(m[k]) {
			return nil
		}
	}
	for _, x := range ol {
		om, ok := x.(map[string]any)
		if !ok {
			continue
		}
		if sameMapKeys(s.ListMapKeys, m, om) {
			return om
		}
	}
	return nil
}

func isKeyScalar(v any) bool {
	switch v.(type) {
	case bool, float64, int64, string:
		return true
	}
	return false
}

// sameMapKeys compares the key values of two list-map items as the
// apiserver's correlation does: one key by Go value, several keys by their
// formatted forms (floats with six decimals).
func sameMapKeys(keys []string, a, b map[string]any) bool {
	if len(keys) == 1 {
		y, ok := b[keys[0]]
		return ok && isKeyScalar(y) && a[keys[0]] == y
	}
	for _, k := range keys {
		x := a[k]
		y, ok := b[k]
		if !ok || !isKeyScalar(y) {
			return false
		}
		switch xv := x.(type) {
		case float64:
			yv, ok := y.(float64)
			if !ok || (xv != yv && strconv.FormatFloat(xv, 'f', 6, 64) != strconv.FormatFloat(yv, 'f', 6, 64)) {
				return false
			}
		default:
			if x != y {
				return false
			}
		}
	}
	return true
}

// correlatedEqual compares an old and a new value under the correlation
// rules.
func correlatedEqual(o, n any, s *structural.Schema) bool {
	if n == nil || o == nil {
		return n == nil && o == nil
	}
	switch nv := n.(type) {
	case map[string]any:
		return correlatedEqualObject(o, nv, s)
	case []any:
		return correlatedEqualList(o, nv, s)
	}
	switch o.(type) {
	case map[string]any, []any:
		return false
	}
	return jsonvalue.Equal(o, n)
}

// correlatedEqualObject is correlatedEqual for a new object nv.
func correlatedEqualObject(o any, nv map[string]any, s *structural.Schema) bool {
	ov, ok := o.(map[string]any)
	if !ok || len(ov) != len(nv) {
		return false
	}
	for k, x := range nv {
		y, ok := ov[k]
		if !ok {
			return false
		}
		cs := s.Field(k)
		if cs == nil || !correlatedEqual(y, x, cs) {
			return false
		}
	}
	return true
}

// correlatedEqualList is correlatedEqual for a new list nv: items are
// correlated by key in a map list, by index otherwise.
func correlatedEqualList(o any, nv []any, s *structural.Schema) bool {
	ov, ok := o.([]any)
	if !ok || len(ov) != len(nv) {
		return false
	}
	if s.ListType != "map" {
		for i := range nv {
			if !jsonvalue.Equal(ov[i], nv[i]) {
				return false
			}
		}
		return true
	}
	for _, x := range nv {
		y := mapListOld(s, ov, x)
		if y == nil || s.Items == nil || !correlatedEqual(y, x, s.Items) {
			return false
		}
	}
	return true
}

// ValidateUpdate validates the new value of a whole custom resource on
// update, as the apiserver does with CRDValidationRatcheting: the OpenAPI
// value validation of obj with ratcheting against old (errors on values
// unchanged from old are not reported), then the list-type set/map
// uniqueness of obj, reported only when old's lists are all valid. Neither
// value is changed. A nil old validates as on create, without ratcheting.
func (v *Validator) ValidateUpdate(obj, old any) field.ErrorList {
	if old == nil {
		return v.Validate(obj)
	}
	errs := v.ValidateValueUpdate(nil, obj, old)
	if v != nil && v.lists[v.structural] {
		if lerrs := v.listErrors(obj); len(lerrs) > 0 && len(v.listErrors(old)) == 0 {
			errs = append(errs, lerrs...)
		}
	}
	return errs
}

// ValidateListsUpdate is the list-type set/map uniqueness check of an
// update: the violations of obj, reported only when old has none (the
// status subresource's update runs it on whole objects beside the
// validation of .status alone).
func (v *Validator) ValidateListsUpdate(obj, old map[string]any) field.ErrorList {
	if v == nil || !v.lists[v.structural] {
		return nil
	}
	errs := v.listErrors(obj)
	if len(errs) == 0 || len(v.listErrors(old)) > 0 {
		return nil
	}
	return errs
}

// listErrors is the list-type violations of x, an object read as its
// JSON form when it holds Go values that are not plain JSON (none for a
// value that is no object or has no JSON form).
func (v *Validator) listErrors(x any) field.ErrorList {
	m, ok := x.(map[string]any)
	if !ok || m == nil {
		m = plainObject(x)
	}
	if v.structural == nil || m == nil {
		return nil
	}
	var buf [64]objpath.Element
	w := listWalker{relevant: v.lists}
	w.object(v.structural, m, buf[:0])
	if w.typed {
		if p := plainObject(m); p != nil {
			return v.listErrors(p)
		}
	}
	return w.errs
}

// ValidateValueUpdate is ValidateValue with ratcheting against old, the
// value validation of an update: errors below a node whose value is
// unchanged from its correlated old value are not reported. The
// validator's root is the ratcheting root: for the status subresource,
// validate .status with a validator of the status schema, passing the old
// .status. Correlation needs the structural schema (New, NewForDefaults);
// a validator built from a non-structural schema ratchets only an unchanged whole.
func (v *Validator) ValidateValueUpdate(fldPath *field.Path, value, old any) (errs field.ErrorList) {
	if v.empty() {
		return nil
	}
	r := ratchet{newRoot: value, oldRoot: old, s: v.structural}
	if v.compiled != nil {
		defer func() {
			if rec := recover(); rec != nil {
				errs = append(errs, field.InternalError(fldPath, fmt.Errorf("validation failed: %v", rec)))
			}
		}()
		var buf [64]objpath.Element
		w := walker{r: r, ratcheting: true}
		w.child(v.compiled, buf[:0], value)
		if !w.unsupported {
			if len(w.errs) == 0 {
				return nil
			}
			return toFieldErrors(fldPath, dedupErrors(w.errs))
		}
	}
	read, changed, errs := readPlain(fldPath, value)
	switch {
	case errs != nil:
		return errs
	case changed:
		return v.ValidateValueUpdate(fldPath, read, old)
	}
	// The engine alone: only an unchanged whole is ratcheted.
	errs = v.validateValue(fldPath, value, false)
	if len(errs) > 0 && v.structural != nil && r.unchanged(nil) {
		return nil
	}
	return errs
}
