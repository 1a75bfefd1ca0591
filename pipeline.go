package crdschema

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// validators holds what the walkers need beyond the structural schema,
// compiled once per schema.
type validators struct {
	// served is the schema the apiserver defaults with: its defaults pruned,
	// embedded metadata inside them coerced (unless unknown fields are
	// preserved altogether).
	served *structural.Schema
	// values validates values against the full schema.
	values *validation.Validator

	// status validates .status alone (the status subresource's
	// validator), built on first use.
	statusOnce sync.Once
	status     *validation.Validator
	// rules evaluates the x-kubernetes-validations rules; nil without any.
	rules *cel.Validator
}

// statusValues returns the validator of the schema of .status (one that
// accepts everything when the schema has none).
func (v *validators) statusValues() *validation.Validator {
	v.statusOnce.Do(func() {
		v.status = &validation.Validator{}
		if s := v.served; s != nil {
			if st, ok := s.Properties["status"]; ok {
				v.status = validation.New(st)
			}
		}
	})
	return v.status
}

// coerceDefault coerces the embedded resources inside a default value as the
// apiserver does before serving the schema: malformed parts dropped, no
// errors.
func coerceDefault(v any, s *structural.Schema) {
	embedded.CoerceEmbedded(v, s, embedded.CoerceOptions{DropMalformed: true})
}

func newValidators(s *structural.Schema, preserveUnknownFields bool, cache *cel.CompileCache) *validators {
	v := &validators{served: s, values: validation.New(s), rules: cel.NewValidator(s, true, cache)}
	if !preserveUnknownFields && s != nil {
		v.served = defaulting.PruneDefaults(s, coerceDefault)
	}
	return v
}

// coerce is the decoding part of a create request, in place: coerce the
// root metadata, prune unknown fields, drop non-nullable nulls without
// default, coerce the metadata of embedded resources. It returns the pruned
// paths, or the errors that reject the request (malformed metadata).
func (s *Schema) coerce(obj map[string]any) ([]string, field.ErrorList) {
	return s.coerceWith(obj, embedded.CoerceOptions{ReturnPaths: true}, true)
}

// pruneAndCoerce is what reading from storage does: coerce the root
// metadata, prune, then coerce embedded metadata, malformed fields dropped.
func (s *Schema) pruneAndCoerce(obj map[string]any) ([]string, field.ErrorList) {
	return s.coerceWith(obj, embedded.CoerceOptions{DropMalformed: true, ReturnPaths: true}, false)
}

func (s *Schema) coerceWith(obj map[string]any, opts embedded.CoerceOptions, dropNulls bool) ([]string, field.ErrorList) {
	// The apiserver's coercer meets a non-string kind or apiVersion, then
	// metadata that is no object (or, on a create, malformed metadata;
	// a read drops malformed fields), then an unparsable apiVersion.
	if err := checkTypeMeta(obj, false); err != nil {
		return nil, field.ErrorList{err}
	}
	metaPaths, err := embedded.CoerceResourceMeta(obj, opts)
	if err != nil {
		return nil, field.ErrorList{err}
	}
	if err := checkTypeMeta(obj, true); err != nil {
		return nil, field.ErrorList{err}
	}
	var paths []string
	if !s.preserveUnknownFields {
		// The apiserver prunes and then drops nulls with the same schema;
		// one walk does both.
		paths = prune.Prune(obj, s.s, prune.Options{ResourceRoot: true, ReturnPaths: true, DropNulls: dropNulls})
	}
	embeddedPaths, errs := embedded.CoerceEmbedded(obj, s.s, opts)
	if len(errs) > 0 {
		return nil, errs
	}
	pruned := make([]string, 0, len(metaPaths)+len(paths)+len(embeddedPaths))
	pruned = append(pruned, metaPaths...)
	pruned = append(pruned, paths...)
	return append(pruned, embeddedPaths...), nil
}

// checkTypeMeta fails as the apiserver's decoding of a custom resource does
// when kind or apiVersion is not a string, or apiVersion is not a
// group/version (checked only when parseGroupVersion). (Objects routed by
// kind and apiVersion always pass; a bare schema takes any object.)
func checkTypeMeta(obj map[string]any, parseGroupVersion bool) *field.Error {
	for _, k := range [...]string{"kind", "apiVersion"} {
		if v, found := obj[k]; found {
			if _, ok := v.(string); !ok {
				_, _, err := objpath.NestedString(obj, k)
				return field.Invalid(field.NewPath(k), v, err.Error())
			}
		}
	}
	if av, _ := obj["apiVersion"].(string); parseGroupVersion && strings.Count(av, "/") > 1 {
		return field.Invalid(field.NewPath("apiVersion"), av, "unexpected GroupVersion string: "+av)
	}
	return nil
}

// dropNullsAndDefault drops non-nullable nulls without default, then
// defaults, in one walk.
func (s *Schema) dropNullsAndDefault(obj map[string]any) {
	defaulting.DropNullsAndDefault(obj, s.v.served)
}

// applyDefaults defaults a decoded object in place.
func (s *Schema) applyDefaults(obj map[string]any) {
	defaulting.Default(obj, s.v.served)
}

// prepareForCreate is the strategy's create preparation: with the status
// subresource, a create cannot set .status. It reports whether it removed
// one.
func (s *Schema) prepareForCreate(obj map[string]any) bool {
	if !s.status {
		return false
	}
	if _, ok := obj["status"]; !ok {
		return false
	}
	delete(obj, "status")
	return true
}

// readBack is what reading the stored object back through the storage
// codec changes after a strategy removed .status: the object was pruned
// and defaulted already, so only a default of .status itself (and the
// defaults inside it) can appear.
func (s *Schema) readBack(obj map[string]any) {
	if st := s.v.served; st != nil {
		if p, ok := st.Properties["status"]; ok && p.HasDefault {
			s.applyDefaults(obj)
		}
	}
}

// validate is the create validation of the registry strategy.
func (s *Schema) validate(obj map[string]any) field.ErrorList {
	var errs field.ErrorList
	meta, _ := obj["metadata"].(map[string]any)
	errs = append(errs, embedded.ValidateResourceMeta(meta, s.namespaced)...)
	// The value validation sees the metadata as the server holds it when it
	// validates a create: a generated name, the request's namespace. Most
	// objects already hold it so, and are validated as they are.
	withMeta := obj
	if !embedded.MetaIsAsCreated(meta, s.namespaced) {
		withMeta = make(map[string]any, len(obj))
		for k, v := range obj {
			withMeta[k] = v
		}
		withMeta["metadata"] = embedded.MetaForCreate(meta, s.namespaced)
	}
	errs = append(errs, s.v.values.Validate(withMeta)...)
	errs = append(errs, s.validateScale(obj)...)
	// An x-kubernetes-embedded-resource root is validated as an embedded
	// resource too, on the metadata the server holds: a cluster-scoped
	// resource's namespace is cleared before the strategy validates.
	errs = append(errs, embedded.Validate(nil, withMeta, s.s, false)...)
	return s.validateRules(errs, withMeta, nil)
}

// validateRules evaluates the x-kubernetes-validations rules on obj (old
// is the old object on update, nil on create) after the OpenAPI
// validation found errs, and returns errs with the rules' errors: when errs
// holds a blocking error, the rules are skipped for the one error saying
// so, as in the apiserver. A schema without rules to evaluate (none, or
// none that a CEL type reaches) has no rules to skip.
func (s *Schema) validateRules(errs field.ErrorList, obj, old map[string]any) field.ErrorList {
	if !s.v.rules.Evaluates() {
		return errs
	}
	if e := cel.BlockingError(errs); e != nil {
		return append(errs, e)
	}
	var oldObj any
	if old != nil {
		oldObj = old
	}
	// On update (old set), CEL ratcheting: rules not using oldSelf skip
	// their errors on values unchanged from the correlated old values.
	ruleErrs, _ := s.v.rules.Validate(context.Background(), obj, oldObj, cel.Options{Ratcheting: old != nil})
	return append(errs, ruleErrs...)
}

// validateScale checks the replica paths of the scale subresource: spec
// and status replicas must be int32-sized non-negative integers when
// present, the label selector a string.
func (s *Schema) validateScale(obj map[string]any) field.ErrorList {
	return s.validateScalePaths(obj, true)
}

// validateScaleStatus checks the scale subresource's status paths only
// (status replicas and the label selector), as a status update does.
func (s *Schema) validateScaleStatus(obj map[string]any) field.ErrorList {
	return s.validateScalePaths(obj, false)
}

func (s *Schema) validateScalePaths(obj map[string]any, withSpec bool) field.ErrorList {
	if s.scale == nil {
		return nil
	}
	var errs field.ErrorList
	replicas := func(p string) {
		v, _, err := objpath.NestedInt64(obj, p)
		switch {
		case err != nil:
			errs = append(errs, field.Invalid(field.NewPath(p), v, err.Error()))
		case v < 0:
			errs = append(errs, field.Invalid(field.NewPath(p), v, "should be a non-negative integer"))
		case v > math.MaxInt32:
			errs = append(errs, field.Invalid(field.NewPath(p), v, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32)))
		}
	}
	if withSpec {
		replicas(s.scale.SpecReplicasPath)
	}
	replicas(s.scale.StatusReplicasPath)
	if sel := s.scale.LabelSelectorPath; sel != nil {
		v, _, err := objpath.NestedString(obj, *sel)
		if err != nil {
			errs = append(errs, field.Invalid(field.NewPath(*sel), v, err.Error()))
		}
	}
	return errs
}
