package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// KindCRD and KindSchema are the values of the "kind" field of check output.
const (
	KindCRD    = "CustomResourceDefinition"
	KindSchema = "Schema"
)

// schemaRoot is where the apiserver reports a schema shared by all versions
// of a CRD: the path prefix stripped for bare schemas.
const schemaRoot = "spec.validation.openAPIV3Schema"

// codec decodes apiextensions.k8s.io objects as the apiserver does: into the
// internal version, with the scheme's defaults applied.
type codec struct {
	scheme  *runtime.Scheme
	decoder runtime.Decoder
}

func newCodec() *codec {
	s := runtime.NewScheme()
	install.Install(s)
	return &codec{scheme: s, decoder: serializer.NewCodecFactory(s).UniversalDecoder()}
}

// IsCRD reports whether a document is an apiextensions.k8s.io/v1 or v1beta1
// CustomResourceDefinition.
func IsCRD(obj map[string]interface{}) bool {
	kind, _ := obj["kind"].(string)
	apiVersion, _ := obj["apiVersion"].(string)
	return kind == KindCRD && (apiVersion == "apiextensions.k8s.io/v1" || apiVersion == "apiextensions.k8s.io/v1beta1")
}

// checkedCRD is one checked CustomResourceDefinition or bare schema.
type checkedCRD struct {
	// Doc is the input document.
	Doc Document
	// Kind is KindCRD or KindSchema.
	Kind string
	// Name is metadata.name of a CRD, "" for a bare schema.
	Name string
	// Internal is the CRD in its internal form, as validated (nil when it
	// could not be decoded).
	Internal *apiextensions.CustomResourceDefinition
	// V1 is the CRD as the apiserver stores and serves it.
	V1 *apiextensionsv1.CustomResourceDefinition
	// Errors are the errors the apiserver returns on create, with paths
	// relative to the schema root for a bare schema.
	Errors field.ErrorList
}

// Accepted reports whether the apiserver would accept the CRD.
func (c *checkedCRD) Accepted() bool { return c.Internal != nil && len(c.Errors) == 0 }

// DecodeError is a CRD or schema that the apiserver cannot decode.
type DecodeError struct {
	Kind string // KindCRD or KindSchema
	Err  error  // the decoder's error
}

// Error implements error.
func (e *DecodeError) Error() string { return fmt.Sprintf("cannot decode %s: %v", e.Kind, e.Err) }

// Unwrap returns the decoder's error.
func (e *DecodeError) Unwrap() error { return e.Err }

// decodeCRD decodes the JSON of a CRD into its internal version, applying
// the defaults of its version, as the apiserver does with a request body.
func (c *codec) decodeCRD(raw []byte, noCEL bool) (*apiextensions.CustomResourceDefinition, error) {
	obj, _, err := c.decoder.Decode(raw, nil, nil)
	if err != nil {
		return nil, err
	}
	crd, ok := obj.(*apiextensions.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("decoded %T, not a CustomResourceDefinition", obj)
	}
	if noCEL {
		// Stripped as if the request had come without rules: the v1
		// conversion moves per-version schemas that only differed in their
		// rules to the top-level validation, so convert there and back.
		stripCRDValidations(crd)
		v1, err := c.toV1(crd)
		if err != nil {
			return nil, err
		}
		back := &apiextensions.CustomResourceDefinition{}
		if err := c.scheme.Convert(v1, back, nil); err != nil {
			return nil, err
		}
		crd = back
	}
	return crd, nil
}

// validateCRD runs what a create request does with a decoded CRD: the
// registry's PrepareForCreate, the generic metadata handling of
// BeforeCreate, and ValidateCustomResourceDefinition.
func (c *codec) validateCRD(ctx context.Context, crd *apiextensions.CustomResourceDefinition) field.ErrorList {
	strategy := customresourcedefinition.NewStrategy(c.scheme)
	// BeforeCreate: a cluster-scoped object has no namespace.
	crd.Namespace = ""
	strategy.PrepareForCreate(ctx, crd)
	return validation.ValidateCustomResourceDefinition(ctx, crd)
}

// toV1 converts an internal CRD to the v1 form in which it is stored.
func (c *codec) toV1(crd *apiextensions.CustomResourceDefinition) (*apiextensionsv1.CustomResourceDefinition, error) {
	out := &apiextensionsv1.CustomResourceDefinition{}
	if err := c.scheme.Convert(crd, out, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// checkCRD decodes and validates a CRD document.
func (c *codec) checkCRD(ctx context.Context, doc Document, noCEL bool) (*checkedCRD, error) {
	raw, err := json.Marshal(doc.Object)
	if err != nil {
		return nil, &DecodeError{Kind: KindCRD, Err: err}
	}
	crd, err := c.decodeCRD(raw, noCEL)
	if err != nil {
		return nil, &DecodeError{Kind: KindCRD, Err: err}
	}
	errs := c.validateCRD(ctx, crd)
	v1, err := c.toV1(crd)
	if err != nil {
		return nil, &DecodeError{Kind: KindCRD, Err: err}
	}
	return &checkedCRD{Doc: doc, Kind: KindCRD, Name: crd.Name, Internal: crd, V1: v1, Errors: errs}, nil
}

// Bare schemas are wrapped into this minimal, otherwise valid v1 CRD.
const (
	bareGroup  = "example.com"
	bareKind   = "Widget"
	barePlural = "widgets"
)

// wrapSchema returns a minimal valid v1 CRD with the given schema.
func wrapSchema(schema map[string]interface{}) map[string]interface{} {
	return map[string]interface{}{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       KindCRD,
		"metadata":   map[string]interface{}{"name": barePlural + "." + bareGroup},
		"spec": map[string]interface{}{
			"group": bareGroup,
			"names": map[string]interface{}{
				"plural":   barePlural,
				"singular": strings.ToLower(bareKind),
				"kind":     bareKind,
				"listKind": bareKind + "List",
			},
			"scope": "Namespaced",
			"versions": []interface{}{
				map[string]interface{}{
					"name":    "v1",
					"served":  true,
					"storage": true,
					"schema":  map[string]interface{}{"openAPIV3Schema": schema},
				},
			},
		},
	}
}

// checkSchema validates a bare schema inside a minimal valid CRD and makes
// the error paths (and schema paths quoted in messages) relative to the
// schema root.
func (c *codec) checkSchema(ctx context.Context, doc Document, noCEL bool) (*checkedCRD, error) {
	raw, err := json.Marshal(wrapSchema(doc.Object))
	if err != nil {
		return nil, &DecodeError{Kind: KindSchema, Err: err}
	}
	crd, err := c.decodeCRD(raw, noCEL)
	if err != nil {
		return nil, &DecodeError{Kind: KindSchema, Err: err}
	}
	errs := c.validateCRD(ctx, crd)
	v1, err := c.toV1(crd)
	if err != nil {
		return nil, &DecodeError{Kind: KindSchema, Err: err}
	}
	rel := make(field.ErrorList, 0, len(errs))
	for _, e := range errs {
		e2 := *e
		e2.Field = relativeSchemaPath(e.Field)
		e2.Detail = strings.ReplaceAll(e.Detail, schemaRoot+".", "")
		e2.Detail = strings.ReplaceAll(e2.Detail, schemaRoot, "")
		rel = append(rel, &e2)
	}
	return &checkedCRD{Doc: doc, Kind: KindSchema, Internal: crd, V1: v1, Errors: rel}, nil
}

// relativeSchemaPath strips the schema root from a field path.
func relativeSchemaPath(p string) string {
	switch {
	case p == schemaRoot:
		return ""
	case strings.HasPrefix(p, schemaRoot+"."):
		return p[len(schemaRoot)+1:]
	case strings.HasPrefix(p, schemaRoot+"["):
		return p[len(schemaRoot):]
	}
	return p
}

// stripCRDValidations removes every x-kubernetes-validations rule from a CRD.
func stripCRDValidations(crd *apiextensions.CustomResourceDefinition) {
	if crd.Spec.Validation != nil {
		stripValidations(crd.Spec.Validation.OpenAPIV3Schema)
	}
	for i := range crd.Spec.Versions {
		if v := crd.Spec.Versions[i].Schema; v != nil {
			stripValidations(v.OpenAPIV3Schema)
		}
	}
}

func stripValidations(s *apiextensions.JSONSchemaProps) {
	if s == nil {
		return
	}
	s.XValidations = nil
	if s.Items != nil {
		stripValidations(s.Items.Schema)
		for i := range s.Items.JSONSchemas {
			stripValidations(&s.Items.JSONSchemas[i])
		}
	}
	for _, list := range [][]apiextensions.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			stripValidations(&list[i])
		}
	}
	stripValidations(s.Not)
	for _, m := range []map[string]apiextensions.JSONSchemaProps{s.Properties, s.PatternProperties, s.Definitions} {
		for k, v := range m {
			stripValidations(&v)
			m[k] = v
		}
	}
	if s.AdditionalProperties != nil {
		stripValidations(s.AdditionalProperties.Schema)
	}
	if s.AdditionalItems != nil {
		stripValidations(s.AdditionalItems.Schema)
	}
	for k, v := range s.Dependencies {
		stripValidations(v.Schema)
		s.Dependencies[k] = v
	}
}
