package check

import (
	"context"
	"reflect"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// validateDefaults checks every default of a structural schema as the
// apiserver does when a v1 CRD is created (pruned defaults required):
//
//   - a default outside the apiVersion, kind and metadata of a resource must
//     be pruned (`must not have unknown fields`), must hold valid TypeMeta and
//     ObjectMeta where it contains embedded resources, and must validate
//     against its schema node, with paths below …default;
//   - a default inside the apiVersion, kind or metadata of the resource root
//     or of an embedded resource is placed into a skeleton object of that
//     resource, which must then hold valid metadata (`must result in valid
//     metadata: …`), before the default is validated against its node.
//
// Defaults inside additionalProperties are not visited, as in the
// apiserver. The root is treated as an embedded resource.
//
// Without requirePruned (an update of a CRD that already had unpruned
// defaults) defaults may hold unknown fields.
func validateDefaults(fldPath *field.Path, s *structural.Schema, cache *cel.CompileCache, requirePruned bool) field.ErrorList {
	if s == nil {
		return nil
	}
	w := &defaultsWalker{budget: cel.RuntimeCostBudget, cache: cache, requirePruned: requirePruned}
	w.walk(fldPath, s, s, true, nil, false)
	return w.errs
}

// defaultsWalker collects the errors of validateDefaults.
type defaultsWalker struct {
	errs field.ErrorList
	// cache holds the rules compiled for the validators of the defaults
	// (nested defaults and repeated types share them).
	cache *cel.CompileCache
	// budget is what is left of the CEL cost budget all the defaults'
	// rules share; below zero, the walk stops.
	budget int64
	// requirePruned makes unknown fields in defaults an error.
	requirePruned bool
}

// step is one step from a resource's root to a node inside its TypeMeta or
// ObjectMeta: a property key, or an array item when index is set.
type step struct {
	key   string
	index bool
}

// walk visits s at pth. resource is the schema of the innermost enclosing
// resource (the root or an embedded resource) and resourceRoot says whether
// s is that resource's node itself; meta, when non-nil, is the path from
// that resource to s through its apiVersion, kind or metadata.
func (w *defaultsWalker) walk(pth *field.Path, s, resource *structural.Schema, resourceRoot bool, meta []step, insideMeta bool) {
	if s.EmbeddedResource {
		resource, resourceRoot, meta, insideMeta = s, true, nil, false
	}
	if s.HasDefault {
		if insideMeta {
			w.checkMetaDefault(pth, s, resource, meta)
		} else {
			w.checkDefault(pth, s, resourceRoot)
		}
		if w.budget < 0 {
			return
		}
	}
	if s.HasDefaultsBelow() {
		w.children(pth, s, resource, resourceRoot, meta, insideMeta)
	}
}

// children walks the items and properties of s that have a default at or
// below them (walk's arguments, for s itself).
func (w *defaultsWalker) children(pth *field.Path, s, resource *structural.Schema, resourceRoot bool, meta []step, insideMeta bool) {
	if s.Items != nil && (s.Items.HasDefault || s.Items.HasDefaultsBelow()) {
		w.walk(pth.Child("items"), s.Items, resource, false, metaPath(meta, insideMeta, step{index: true}), insideMeta)
		if w.budget < 0 {
			return
		}
	}
	// Only the properties with a default at or below them have anything
	// to check; the others need no path built.
	for _, k := range s.DefaultingProperties() {
		subMeta := insideMeta || resourceRoot && (k == "metadata" || k == "apiVersion" || k == "kind")
		w.walk(pth.Child("properties").Key(k), s.Properties[k], resource, false, metaPath(meta, subMeta, step{key: k}), subMeta)
		if w.budget < 0 {
			return
		}
	}
}

// metaPath is the path from a resource through its TypeMeta or ObjectMeta
// to the child at st of the node at meta, in a slice of its own; nil when
// the child is not inside them.
func metaPath(meta []step, inside bool, st step) []step {
	if !inside {
		return nil
	}
	return append(append([]step(nil), meta...), st)
}

// checkDefault checks a default outside TypeMeta and ObjectMeta.
// resourceRoot says whether s is a resource's node (the root or an
// embedded resource).
func (w *defaultsWalker) checkDefault(pth *field.Path, s *structural.Schema, resourceRoot bool) {
	dpath := pth.Child("default")
	if w.requirePruned && !defaultIsPruned(s, resourceRoot) {
		w.errs = append(w.errs, field.Invalid(dpath, s.Default, "must not have unknown fields"))
	}
	v := jsonvalue.DeepCopy(s.Default)
	if err := coerceMetadata(dpath, v, s, resourceRoot); err != nil {
		w.errs = append(w.errs, err)
	} else if errs := validateMetadata(dpath, v, s, resourceRoot); len(errs) > 0 {
		w.errs = append(w.errs, errs...)
	} else if errs := validateDefaultValue(dpath, v, s); len(errs) > 0 {
		w.errs = append(w.errs, errs...)
	} else {
		w.rules(dpath, s, resourceRoot)
	}
}

// rules evaluates the x-kubernetes-validations rules at and below s on
// s's default, as the apiserver does when a CRD is created: as an update
// from the default to itself, then, when that passes, as a create. Both
// take from the cost budget all defaults share; the larger cost counts.
func (w *defaultsWalker) rules(dpath *field.Path, s *structural.Schema, resourceRoot bool) {
	v := cel.NewValidator(s, resourceRoot, w.cache)
	if v == nil {
		return
	}
	errs, rem := v.Validate(context.Background(), s.Default, s.Default, cel.Options{Path: dpath, Budget: w.budget})
	w.errs = append(w.errs, errs...)
	if len(errs) == 0 {
		errs, remCreate := v.Validate(context.Background(), s.Default, nil, cel.Options{Path: dpath, Budget: w.budget})
		w.errs = append(w.errs, errs...)
		rem = min(rem, remCreate)
	}
	w.budget = rem
}

// checkMetaDefault checks a default inside the TypeMeta or ObjectMeta of
// the resource whose schema is resource, reached from it by meta.
func (w *defaultsWalker) checkMetaDefault(pth *field.Path, s, resource *structural.Schema, meta []step) {
	dpath := pth.Child("default")
	obj := surroundingObject(jsonvalue.DeepCopy(s.Default), meta)
	if err := coerceMetadata(nil, obj, resource, true); err != nil {
		w.errs = append(w.errs, field.Invalid(dpath, s.Default, "must result in valid metadata: "+err.Error()))
	} else if errs := validateMetadata(nil, obj, resource, true); len(errs) > 0 {
		w.errs = append(w.errs, field.Invalid(dpath, s.Default, "must result in valid metadata: "+errs.ToAggregate().Error()))
	} else if errs := validateDefaultValue(dpath, s.Default, s); len(errs) > 0 {
		w.errs = append(w.errs, errs...)
	} else {
		w.rules(dpath, s, s == resource)
	}
}

// surroundingObject puts v into a skeleton resource at the place meta
// leads to, with the apiVersion validation/v1 and kind Validation unless
// the path sets them.
func surroundingObject(v any, meta []step) map[string]any {
	for i := len(meta) - 1; i >= 0; i-- {
		if meta[i].index {
			v = []any{v}
		} else {
			v = map[string]any{meta[i].key: v}
		}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		obj = map[string]any{}
	}
	if _, ok := obj["kind"]; !ok {
		obj["kind"] = "Validation"
	}
	if _, ok := obj["apiVersion"]; !ok {
		obj["apiVersion"] = "validation/v1"
	}
	return obj
}

// defaultIsPruned reports whether pruning s's default against s changes
// nothing. resourceRoot keeps apiVersion, kind and metadata.
func defaultIsPruned(s *structural.Schema, resourceRoot bool) bool {
	v := jsonvalue.DeepCopy(s.Default)
	prune.Prune(v, s, prune.Options{ResourceRoot: resourceRoot})
	return reflect.DeepEqual(v, s.Default)
}

// coerceMetadata checks the TypeMeta and ObjectMeta of the resources in v
// (v itself when resourceRoot) as a create request's decoding does,
// normalising them in place. Like the apiserver, it stops at the first
// error, which has a path below pth.
func coerceMetadata(pth *field.Path, v any, s *structural.Schema, resourceRoot bool) *field.Error {
	var errs field.ErrorList
	if m, ok := v.(map[string]any); ok && resourceRoot && !s.EmbeddedResource {
		for _, k := range [...]string{"apiVersion", "kind"} {
			if x, found := m[k]; found {
				if _, ok := x.(string); !ok {
					return field.Invalid(pth.Child(k), x, "must be a string")
				}
			}
		}
		if _, err := embedded.CoerceResourceMeta(m, embedded.CoerceOptions{Base: pth}); err != nil {
			errs = field.ErrorList{err}
		}
	}
	if len(errs) == 0 {
		_, errs = embedded.CoerceEmbedded(v, s, embedded.CoerceOptions{Base: pth})
	}
	if len(errs) == 0 {
		return nil
	}
	return errs[0]
}

// validateMetadata validates the TypeMeta and ObjectMeta of the resources
// in v (v itself when resourceRoot), with paths below pth.
func validateMetadata(pth *field.Path, v any, s *structural.Schema, resourceRoot bool) field.ErrorList {
	return embedded.Validate(pth, v, s, resourceRoot)
}

// validateDefaultValue validates a default value against its schema node,
// with paths below pth (which ends in .default).
func validateDefaultValue(pth *field.Path, v any, s *structural.Schema) field.ErrorList {
	return validation.NewForDefaults(s).ValidateValue(pth, v)
}
