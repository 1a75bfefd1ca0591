package crdschema

import (
	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/embedded"
)

// ApplyUpdate does to obj what the apiserver does to an update request
// (PUT, fieldValidation=Warn) of the stored object old, with
// CRDValidationRatcheting on:
//
//   - old is taken as stored: it goes through the read path (prune,
//     coerce metadata with malformed fields dropped, drop nulls, default),
//     never through validation;
//   - obj is decoded as on create (prune, drop nulls, coerce metadata
//     rejecting malformed metadata, default);
//   - the update preparation: with the status subresource, obj's .status is
//     replaced by old's (removed when old has none); the request carries
//     the stored resourceVersion;
//   - update validation: ObjectMeta and the ObjectMeta update rules (name,
//     namespace, uid, creationTimestamp … immutable), OpenAPI value
//     validation with ratcheting (an error on a value unchanged from old is
//     not reported), the scale subresource's paths, embedded resources'
//     metadata, list-type set/map uniqueness (reported only when old's
//     lists are valid).
//
// Result.Object is what the response shows; server-populated metadata
// (uid, resourceVersion, generation, …) is not added. Then the CEL rules,
// with oldSelf (transition rules, optionalOldSelf) and CEL ratcheting of
// unchanged values, unless a blocking error was found. Neither obj nor old
// is changed.
func (s *Schema) ApplyUpdate(obj, old map[string]any) Result {
	obj, old, err := copyUpdate(obj, old)
	if err != nil {
		return refused(err)
	}
	return s.applyUpdate(obj, old, false)
}

// ApplyStatusUpdate does to obj what the apiserver does to an update of
// the status subresource (PUT .../status) of the stored object old: obj is
// decoded as on create, then the new object becomes old with only obj's
// .status (removed when obj has none), validated as the status strategy
// does: ObjectMeta update rules, OpenAPI value validation of .status with
// ratcheting, the scale subresource's status paths, list-type uniqueness
// (ratcheted as in ApplyUpdate). On a version without the status
// subresource the result is one FieldValueNotFound error at status and no
// object. Neither obj nor old is changed.
func (s *Schema) ApplyStatusUpdate(obj, old map[string]any) Result {
	if !s.status {
		return Result{Pruned: []string{}, Errors: field.ErrorList{&field.Error{
			Type: field.ErrorTypeNotFound, Field: "status", BadValue: field.OmitValueType{},
			Detail: "the version has no status subresource",
		}}}
	}
	obj, old, err := copyUpdate(obj, old)
	if err != nil {
		return refused(err)
	}
	return s.applyUpdate(obj, old, true)
}

// readStored puts a stored object through the apiserver's read path, in
// place: coerce metadata (malformed fields dropped), prune, drop nulls,
// coerce embedded metadata, default.
func (s *Schema) readStored(old map[string]any) field.ErrorList {
	if _, errs := s.coerceWith(old, embedded.CoerceOptions{DropMalformed: true}, false); len(errs) > 0 {
		return errs
	}
	s.dropNullsAndDefault(old)
	return nil
}

func (s *Schema) applyUpdate(obj, old map[string]any, statusOnly bool) Result {
	if old == nil {
		old = map[string]any{}
	}
	if errs := s.readStored(old); len(errs) > 0 {
		// Storage could not decode it: the update fails.
		for _, e := range errs {
			e.Detail = "the stored object cannot be read: " + e.Detail
		}
		errorsort.Sort(errs)
		return Result{Pruned: []string{}, Errors: errs}
	}
	return s.updateRead(obj, old, statusOnly)
}

// updateRead is the update of old by obj, old being the stored object
// as the storage read path hands it over at s's version (decoded and
// defaulted at the version it is stored at, converted, pruned at s's
// version: CRD.Read), which the update may change, and obj the request,
// which it changes too. s's defaults are applied to obj only: the
// apiserver's storage decoder defaults an object at its stored version,
// before the conversion, so an update at another version sees the
// stored object without the requested version's defaults.
func (s *Schema) updateRead(obj, old map[string]any, statusOnly bool) Result {
	if obj == nil {
		obj = map[string]any{}
	}
	pruned, rejected := s.coerce(obj)
	if len(rejected) > 0 {
		errorsort.Sort(rejected)
		return Result{Pruned: []string{}, Errors: rejected, Deprecation: s.deprecation}
	}
	r := Result{Deprecation: s.deprecation}
	r.Pruned = sortedUnique(pruned)
	s.applyDefaults(obj)

	statusRemoved := false
	if statusOnly {
		status, has := obj["status"]
		managed, hasManaged := nestedMap(obj, "metadata")["managedFields"]
		obj = deepCopyMap(old)
		if meta := nestedMap(obj, "metadata"); meta != nil {
			if hasManaged {
				meta["managedFields"] = managed
			} else {
				delete(meta, "managedFields")
			}
		}
		if has {
			obj["status"] = status
		} else if _, ok := obj["status"]; ok {
			delete(obj, "status")
			statusRemoved = true
		}
	} else if s.status {
		if st, ok := old["status"]; ok {
			obj["status"] = jsonvalue.DeepCopy(st)
		} else if _, ok := obj["status"]; ok {
			delete(obj, "status")
			statusRemoved = true
		}
	}
	r.Object = obj
	r.Errors = s.validateUpdate(obj, old, statusOnly)
	errorsort.Sort(r.Errors)
	if statusRemoved {
		s.readBack(obj)
	}
	dropEmptyMetadata(obj)
	return r
}

// dropEmptyMetadata removes a root metadata that is an empty map from the
// object an update prints. An update's object always names its stored
// object, so its metadata is empty only when both carry an empty name
// (name: "" is dropped by the ObjectMeta coercion); the apiserver's answer
// then shows no metadata at all, where a create shows "metadata": {}
// (../shared/findings/update-unnamed-stored-object).
func dropEmptyMetadata(obj map[string]any) {
	if m, ok := obj["metadata"].(map[string]any); ok && len(m) == 0 {
		delete(obj, "metadata")
	}
}

// validateUpdate is the update validation of the registry (main or status
// strategy) on the prepared new object and the stored one.
func (s *Schema) validateUpdate(obj, old map[string]any, statusOnly bool) field.ErrorList {
	newMeta, oldMeta := embedded.MetaForUpdate(nestedMap(obj, "metadata"), nestedMap(old, "metadata"), s.namespaced, !embedded.SameExceptMetadata(obj, old))
	newV := withMetadata(obj, newMeta)
	oldV := withMetadata(old, oldMeta)

	metaPath := field.NewPath("metadata")
	// The generic registry's common checks, then the strategy's (which
	// repeats the update rules, so their errors appear twice, as in the
	// apiserver's answer). Only the strategy's errors can keep the CEL
	// rules from running.
	common := embedded.ValidateObjectMeta(metaPath, newMeta, s.namespaced, embedded.NameIsPathSegment)
	common = append(common, embedded.ValidateObjectMetaUpdate(metaPath, newMeta, oldMeta)...)
	errs := embedded.ValidateObjectMetaUpdate(metaPath, newMeta, oldMeta)
	if statusOnly {
		if st, ok := newV["status"]; ok {
			errs = append(errs, s.v.statusValues().ValidateValueUpdate(field.NewPath("status"), st, oldV["status"])...)
		}
		errs = append(errs, s.validateScaleStatus(newV)...)
		errs = append(errs, s.v.values.ValidateListsUpdate(newV, oldV)...)
	} else {
		errs = append(errs, s.v.values.ValidateValueUpdate(nil, newV, oldV)...)
		errs = append(errs, s.validateScale(newV)...)
		errs = append(errs, embedded.Validate(nil, newV, s.s, false)...)
		errs = append(errs, s.v.values.ValidateListsUpdate(newV, oldV)...)
	}
	// The CEL rules, on the whole objects for both strategies, with
	// oldSelf and CEL ratcheting.
	errs = s.validateRules(errs, newV, oldV)
	return append(common, errs...)
}

// withMetadata returns obj with metadata replaced, a shallow copy.
func withMetadata(obj, meta map[string]any) map[string]any {
	out := make(map[string]any, len(obj)+1)
	for k, v := range obj {
		out[k] = v
	}
	out["metadata"] = meta
	return out
}

func nestedMap(obj map[string]any, k string) map[string]any {
	m, _ := obj[k].(map[string]any)
	return m
}

// Namespaced reports whether objects of the schema are namespaced (always
// for a bare schema).
func (s *Schema) Namespaced() bool { return s.namespaced }

// copyUpdate copies the new and the old object of an update (see
// copyObject).
func copyUpdate(obj, old map[string]any) (map[string]any, map[string]any, *field.Error) {
	obj, err := copyObject(obj)
	if err != nil {
		return nil, nil, err
	}
	old, err = copyObject(old)
	if err != nil {
		return nil, nil, err
	}
	return obj, old, nil
}

// HasStatusSubresource reports whether the version has the status
// subresource (never for a bare schema).
func (s *Schema) HasStatusSubresource() bool { return s.status }
