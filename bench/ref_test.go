package bench

import (
	"context"
	"fmt"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	apiextcel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/api/operation"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/storage/names"
)

// refSchema is what the reference needs to process objects of one version.
type refSchema struct {
	full       *structuralschema.Structural // pruning, list types, metadata
	served     *structuralschema.Structural // defaults pruned: defaulting
	validator  apiservervalidation.SchemaValidator
	rules      *apiextcel.Validator
	namespaced bool
}

func (v *version) refSchema() *refSchema {
	return &refSchema{full: v.ref, served: v.refServed, validator: v.refValid, rules: v.refRules, namespaced: v.namespace}
}

// refPipeline is the reference's create request from the body's JSON bytes
// (fieldValidation=Warn): the unstructured JSON decode,
// root ObjectMeta round trip, pruning with unknown-field paths, drop of
// non-nullable nulls, embedded ObjectMeta coercion, defaulting, then the
// custom resource strategy's create validation (ObjectMeta, OpenAPI values,
// embedded metadata, list types, CEL rules).
func refPipeline(data []byte, rs *refSchema) (map[string]any, []string, field.ErrorList, error) {
	var u map[string]any
	if err := utiljson.Unmarshal(data, &u); err != nil {
		return nil, nil, nil, err
	}
	paths, errs := refCoerce(u, rs.full)
	if len(errs) > 0 {
		return nil, nil, errs, nil
	}
	structuraldefaulting.Default(u, rs.served)
	return u, paths, refValidateCreate(u, rs), nil
}

// refCoerce is the decoding half of a create request (the apiserver's
// unstructuredDefaulter/schemaCoercingDecoder), in place.
func refCoerce(u map[string]any, s *structuralschema.Structural) ([]string, field.ErrorList) {
	objectMeta, foundObjectMeta, paths, err := schemaobjectmeta.GetObjectMetaWithOptions(u, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), u["metadata"], err.Error())}
	}
	paths = append(paths, structuralpruning.PruneWithOptions(u, s, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u, s)
	ferr, p := schemaobjectmeta.CoerceWithOptions(nil, u, s, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	if ferr != nil {
		return nil, field.ErrorList{ferr}
	}
	paths = append(paths, p...)
	if foundObjectMeta {
		if err := schemaobjectmeta.SetObjectMeta(u, objectMeta); err != nil {
			return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), u["metadata"], err.Error())}
		}
		if objectMeta != nil && objectMeta.CreationTimestamp.IsZero() {
			unstructured.RemoveNestedField(u, "metadata", "creationTimestamp")
		}
	}
	return paths, nil
}

// refValidateCreate is BeforeCreate's metadata handling and the custom
// resource strategy's Validate, in place.
func refValidateCreate(u map[string]any, rs *refSchema) field.ErrorList {
	obj := &unstructured.Unstructured{Object: u}
	switch {
	case !rs.namespaced:
		obj.SetNamespace("")
	case obj.GetNamespace() == "":
		obj.SetNamespace(metav1.NamespaceDefault)
	}
	if obj.GetName() == "" && obj.GetGenerateName() != "" {
		obj.SetName(names.SimpleNameGenerator.GenerateName(obj.GetGenerateName()))
	}
	ctx := context.Background()
	var errs field.ErrorList
	errs = append(errs, refValidateObjectMeta(ctx, obj, rs.namespaced)...)
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, obj.UnstructuredContent(), rs.validator)...)
	errs = append(errs, schemaobjectmeta.Validate(ctx, nil, obj.Object, rs.full, false)...)
	errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, rs.full, obj.Object)...)
	return append(errs, refValidateRules(ctx, errs, obj.Object, rs)...)
}

// refValidateRules is the strategy's CEL step: the blocking-error check,
// then the CEL validator with the runtime budget.
func refValidateRules(ctx context.Context, errs field.ErrorList, obj map[string]any, rs *refSchema) field.ErrorList {
	if rs.rules == nil {
		return nil
	}
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.ErrorList{field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")}
		}
	}
	ruleErrs, _ := rs.rules.Validate(ctx, nil, rs.full, obj, nil, celconfig.RuntimeCELCostBudget)
	return ruleErrs
}

// refValidateObjectMeta is customResourceValidator.validateObjectMetaDeclaratively.
func refValidateObjectMeta(ctx context.Context, obj *unstructured.Unstructured, namespaced bool) field.ErrorList {
	raw := obj.UnstructuredContent()["metadata"]
	meta := &metav1.ObjectMeta{}
	if raw != nil {
		m, ok := raw.(map[string]any)
		if !ok {
			return field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, fmt.Sprintf("expected map[string]interface{}, got %T", raw))}
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, meta); err != nil {
			return field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, err.Error())}
		}
	}
	return apimachineryvalidation.ValidateObjectMetaDeclaratively(ctx, operation.Create, meta, nil, namespaced, apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"), false)
}

// refValidateValues is the reference's value validation: the OpenAPI
// schema validator and the list-type set/map uniqueness checks.
func refValidateValues(obj map[string]any, rs *refSchema) field.ErrorList {
	errs := apiservervalidation.ValidateCustomResource(nil, obj, rs.validator)
	return append(errs, structurallisttype.ValidateListSetsAndMaps(nil, rs.full, obj)...)
}
