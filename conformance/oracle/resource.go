package oracle

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

// validator is the create preparation and validation of the custom
// resource registry strategy.
type validator interface {
	PrepareForCreate(ctx context.Context, obj runtime.Object)
	Validate(ctx context.Context, obj runtime.Object) field.ErrorList
}

// servedVersion is what the apiserver builds to serve one version of a CRD
// (customresource_handler.go, getOrCreateServingInfoFor).
type servedVersion struct {
	crd        *checkedCRD
	name       string
	structural *structuralschema.Structural // nil without a schema
	internal   *apiextensions.JSONSchemaProps
	namespaced bool
	status     *apiextensions.CustomResourceSubresourceStatus
	scale      *apiextensions.CustomResourceSubresourceScale
	selectable []apiextensionsv1.SelectableField
	err        error

	strategyOnce sync.Once
	strategy     validator
	strategyErr  error
	// statusStrategy is the status subresource's strategy (CRDs only).
	statusStrategy updateStrategy
}

func newServedVersion(c *checkedCRD, v apiextensionsv1.CustomResourceDefinitionVersion) *servedVersion {
	sv := &servedVersion{
		crd:        c,
		name:       v.Name,
		namespaced: c.V1.Spec.Scope == apiextensionsv1.NamespaceScoped,
		selectable: v.SelectableFields,
	}
	val, err := apihelpers.GetSchemaForVersion(c.V1, v.Name)
	if err != nil {
		sv.err = err
		return sv
	}
	if val != nil {
		internal := &apiextensions.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
			sv.err = fmt.Errorf("failed converting CRD validation to internal version: %v", err)
			return sv
		}
		sv.internal = internal.OpenAPIV3Schema
		s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
		if err != nil && !c.V1.Spec.PreserveUnknownFields {
			sv.err = fmt.Errorf("failed to convert schema to structural: %v", err)
			return sv
		}
		if !c.V1.Spec.PreserveUnknownFields {
			s = s.DeepCopy()
			if err := structuraldefaulting.PruneDefaults(s); err != nil {
				sv.err = fmt.Errorf("failed to prune defaults: %v", err)
				return sv
			}
		}
		sv.structural = s
	}
	sub, err := apihelpers.GetSubresourcesForVersion(c.V1, v.Name)
	if err != nil {
		sv.err = err
		return sv
	}
	if sub != nil && sub.Status != nil {
		sv.status = &apiextensions.CustomResourceSubresourceStatus{}
		if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceStatus_To_apiextensions_CustomResourceSubresourceStatus(sub.Status, sv.status, nil); err != nil {
			sv.err = err
			return sv
		}
	}
	if sub != nil && sub.Scale != nil {
		sv.scale = &apiextensions.CustomResourceSubresourceScale{}
		if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(sub.Scale, sv.scale, nil); err != nil {
			sv.err = err
			return sv
		}
	}
	return sv
}

// validator returns the registry strategy serving this version, built on
// first use (building it compiles the CEL rules).
func (sv *servedVersion) validator() (validator, error) {
	sv.strategyOnce.Do(func() { sv.strategy, sv.strategyErr = sv.newStrategy() })
	return sv.strategy, sv.strategyErr
}

// newStrategy builds the registry strategy as the apiserver's
// getOrCreateServingInfoFor does.
func (sv *servedVersion) newStrategy() (validator, error) {
	schemaValidator, statusValidator, err := sv.schemaValidators()
	if err != nil {
		return nil, err
	}
	if sv.crd.Kind == KindSchema {
		return &schemaStrategy{
			namespaced:      sv.namespaced,
			schemaValidator: schemaValidator,
			structural:      sv.structural,
			celValidator:    cel.NewValidator(sv.structural, true, celconfig.PerCallLimit),
		}, nil
	}
	spec := sv.crd.V1.Spec
	kind := schema.GroupVersionKind{Group: spec.Group, Version: sv.name, Kind: spec.Names.Kind}
	st := customresource.NewStrategy(
		crdserverscheme.NewUnstructuredObjectTyper(),
		sv.namespaced,
		kind,
		schemaValidator,
		statusValidator,
		sv.structural,
		sv.status,
		sv.scale,
		sv.selectable,
	)
	sv.statusStrategy = customresource.NewStatusStrategy(st)
	return st, nil
}

// schemaValidators are the schema validators getOrCreateServingInfoFor
// builds for the version: of the whole object, and of .status under the
// status subresource (nil otherwise).
func (sv *servedVersion) schemaValidators() (main, status apiservervalidation.SchemaValidator, err error) {
	main, _, err = apiservervalidation.NewSchemaValidator(sv.internal)
	if err != nil {
		return nil, nil, err
	}
	if sv.status != nil && sv.internal != nil && sv.internal.Properties != nil {
		if statusSchema, ok := sv.internal.Properties["status"]; ok {
			status, _, err = apiservervalidation.NewSchemaValidator(&statusSchema)
			if err != nil {
				return nil, nil, err
			}
		}
	}
	return main, status, nil
}

// updateStrategy returns the strategy an update meets: the main one, or
// the status subresource's.
func (sv *servedVersion) updateStrategy(statusOnly bool) (updateStrategy, error) {
	if _, err := sv.validator(); err != nil {
		return nil, err
	}
	if statusOnly {
		return sv.statusStrategy, nil
	}
	st, ok := sv.strategy.(updateStrategy)
	if !ok {
		return nil, fmt.Errorf("no update strategy for %T", sv.strategy)
	}
	return st, nil
}

// router routes objects to the CRD versions that serve them.
type router struct {
	crds   []*checkedCRD
	schema *checkedCRD // --schema: the one bare schema for every object

	mu     sync.Mutex
	served map[*checkedCRD]map[string]*servedVersion

	// to is convert's --to version.
	to string
}

// newRouter returns a router among CRDs (in the order given: the first
// accepted CRD of a group and kind wins).
func newRouter(crds []*checkedCRD) *router {
	return &router{crds: crds, served: map[*checkedCRD]map[string]*servedVersion{}}
}

// newSchemaRouter returns a router sending every object to one bare schema.
func newSchemaRouter(c *checkedCRD) *router {
	return &router{schema: c, served: map[*checkedCRD]map[string]*servedVersion{}}
}

func (r *router) version(c *checkedCRD, name string) *servedVersion {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.served[c]
	if m == nil {
		m = map[string]*servedVersion{}
		r.served[c] = m
	}
	if sv, ok := m[name]; ok {
		return sv
	}
	for _, v := range c.V1.Spec.Versions {
		if v.Name == name {
			sv := newServedVersion(c, v)
			m[name] = sv
			return sv
		}
	}
	return nil
}

// route finds the served version for an object and the kind it is served
// as, or the routing error.
func (r *router) route(obj map[string]interface{}) (*servedVersion, schema.GroupVersionKind, *field.Error) {
	kindVal, hasKind := obj["kind"]
	kind, _ := kindVal.(string)
	apiVersionVal, hasAPIVersion := obj["apiVersion"]
	apiVersion, _ := apiVersionVal.(string)

	if r.schema != nil {
		gv, _ := schema.ParseGroupVersion(apiVersion)
		if !r.schema.Accepted() {
			errs := sortedErrors(r.schema.Errors)
			return nil, gv.WithKind(kind), notFound("kind", fmt.Sprintf("the schema would be rejected (%d errors, first: %s)", len(errs), errorWithoutValue(errs[0])))
		}
		return r.version(r.schema, "v1"), gv.WithKind(kind), nil
	}

	if !hasKind || kind == "" {
		if hasKind && kindVal != nil {
			if _, ok := kindVal.(string); !ok {
				return nil, schema.GroupVersionKind{}, field.Invalid(field.NewPath("kind"), kindVal, "must be a string")
			}
		}
		return nil, schema.GroupVersionKind{}, field.Required(field.NewPath("kind"), "")
	}
	if !hasAPIVersion || apiVersion == "" {
		if hasAPIVersion && apiVersionVal != nil {
			if _, ok := apiVersionVal.(string); !ok {
				return nil, schema.GroupVersionKind{}, field.Invalid(field.NewPath("apiVersion"), apiVersionVal, "must be a string")
			}
		}
		return nil, schema.GroupVersionKind{}, field.Required(field.NewPath("apiVersion"), "")
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, schema.GroupVersionKind{}, field.Invalid(field.NewPath("apiVersion"), apiVersion, err.Error())
	}
	gvk := gv.WithKind(kind)
	noMatch := fmt.Sprintf("no matches for kind %q in version %q", kind, apiVersion)

	var rejected *checkedCRD
	for _, c := range r.crds {
		if c.Internal == nil || c.Internal.Spec.Group != gv.Group || c.Internal.Spec.Names.Kind != kind {
			continue
		}
		if !c.Accepted() {
			if rejected == nil {
				rejected = c
			}
			continue
		}
		var served []string
		for _, v := range c.V1.Spec.Versions {
			if v.Served {
				served = append(served, v.Name)
			}
		}
		sort.Strings(served)
		for _, v := range c.V1.Spec.Versions {
			if v.Name == gv.Version && v.Served {
				return r.version(c, v.Name), gvk, nil
			}
		}
		return nil, gvk, notFound("apiVersion", fmt.Sprintf("%s: CustomResourceDefinition %q serves %s", noMatch, c.Name, strings.Join(served, ", ")))
	}
	if rejected != nil {
		errs := sortedErrors(rejected.Errors)
		return nil, gvk, notFound("kind", fmt.Sprintf("%s: CustomResourceDefinition %q would be rejected (%d errors, first: %s)", noMatch, rejected.Name, len(errs), errorWithoutValue(errs[0])))
	}
	return nil, gvk, notFound("kind", noMatch)
}

func notFound(path, detail string) *field.Error {
	return &field.Error{Type: field.ErrorTypeNotFound, Field: path, Detail: detail}
}

// schemaStrategy validates objects against a bare schema (--schema): it is
// the custom resource strategy's Validate without the TypeMeta check, as a
// bare schema has no group, version and kind of its own.
type schemaStrategy struct {
	namespaced      bool
	schemaValidator apiservervalidation.SchemaValidator
	structural      *structuralschema.Structural
	celValidator    *cel.Validator
}

// PrepareForCreate does nothing: a bare schema has no status subresource,
// and the generation it would set is not part of the output.
func (s *schemaStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {}

// Validate is customResourceStrategy.Validate (pkg/registry/customresource)
// minus customResourceValidator.ValidateTypeMeta.
func (s *schemaStrategy) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	u := obj.(*unstructured.Unstructured)
	var errs field.ErrorList
	errs = append(errs, validateObjectMeta(ctx, u, s.namespaced)...)
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, u.UnstructuredContent(), s.schemaValidator)...)
	errs = append(errs, schemaobjectmeta.Validate(ctx, nil, u.Object, s.structural, false)...)
	errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, s.structural, u.Object)...)
	if s.celValidator != nil {
		if has, err := hasBlockingErr(errs); has {
			errs = append(errs, err)
		} else {
			err, _ := s.celValidator.Validate(ctx, nil, s.structural, u.Object, nil, celconfig.RuntimeCELCostBudget)
			errs = append(errs, err...)
		}
	}
	return errs
}

// validateObjectMeta is customResourceValidator.validateObjectMetaDeclaratively.
func validateObjectMeta(ctx context.Context, obj *unstructured.Unstructured, namespaced bool) field.ErrorList {
	raw := obj.UnstructuredContent()["metadata"]
	meta := &metav1.ObjectMeta{}
	if raw != nil {
		metadataMap, ok := raw.(map[string]interface{})
		if !ok {
			return field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, fmt.Sprintf("expected map[string]interface{}, got %T", raw))}
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(metadataMap, meta); err != nil {
			return field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, err.Error())}
		}
	}
	return validation.ValidateObjectMetaDeclaratively(ctx, operation.Create, meta, nil, namespaced, validation.NameIsDNSSubdomain, field.NewPath("metadata"), utilfeature.DefaultFeatureGate.Enabled(features.DeclarativeValidationBeta))
}

// hasBlockingErr is the custom resource strategy's: OpenAPI errors that
// keep CEL rules from being evaluated.
func hasBlockingErr(errs field.ErrorList) (bool, *field.Error) {
	for _, err := range errs {
		if err.Type == field.ErrorTypeNotSupported || err.Type == field.ErrorTypeRequired || err.Type == field.ErrorTypeTooLong || err.Type == field.ErrorTypeTooMany || err.Type == field.ErrorTypeTypeInvalid {
			return true, field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		}
	}
	return false, nil
}

// errorWithoutValue formats a field error as "field: type: detail", without
// the bad value (which may be a whole schema).
func errorWithoutValue(e *field.Error) string {
	s := e.Field + ": " + e.Type.String()
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}
