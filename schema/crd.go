package schema

import (
	"fmt"
	"slices"

	kjson "k8s.io/apimachinery/pkg/util/json"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// The parts of a CustomResourceDefinition document that hold its schemas.
// The type names are those internal/jsonvalue.DecodeError renders as the
// apiserver's in decoding errors.
type (
	v1CRD struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Spec       struct {
			// Version is v1beta1's single version, when Versions is empty.
			Version  string      `json:"version"`
			Versions []v1Version `json:"versions"`
			// Validation is v1beta1's schema of every version that has
			// none of its own.
			Validation *crdValidation `json:"validation"`
		} `json:"spec"`
	}
	v1Version struct {
		Name   string         `json:"name"`
		Schema *crdValidation `json:"schema"`
	}
	// crdValidation is a CRD's validation (or a version's schema) field.
	crdValidation struct {
		OpenAPIV3Schema *Props `json:"openAPIV3Schema"`
	}
)

// VersionSchema decodes the openAPIV3Schema of version of the
// CustomResourceDefinition the document holds (apiextensions.k8s.io/v1 or
// v1beta1), as the apiserver reads it: the version's own schema, or, in a
// v1beta1 CRD, the top-level spec.validation for a version without one (a
// v1beta1 CRD with a single spec.version and no versions list included).
// It is nil, with no error, when the version has no schema (possible in
// v1beta1 only). The schema decodes as Decode decodes one; it is not
// checked (package structural builds its model and checks the rules).
//
// A document that is not such a CRD, a version it does not define and a
// schema that does not decode are an *InputError naming the document's
// file and line.
//
// This is the first step of the light chain from a CRD file, without the
// module root (which compiles every version with its CEL rules):
// ReadDocuments, VersionSchema, structural.New and structural.Validate
// (rules 1–4), then prune, defaulting and validation.
func (d *Document) VersionSchema(version string) (*Props, error) {
	if d.Object == nil {
		return nil, d.inputError(fmt.Errorf("document %d is not a mapping", d.Index))
	}
	av, _ := d.Object["apiVersion"].(string)
	kind, _ := d.Object["kind"].(string)
	if kind != "CustomResourceDefinition" || (av != "apiextensions.k8s.io/v1" && av != "apiextensions.k8s.io/v1beta1") {
		return nil, d.inputError(fmt.Errorf("document %d is not an apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition (apiVersion %q, kind %q)", d.Index, av, kind))
	}
	var crd v1CRD
	err := kjson.Unmarshal(d.JSON(), &crd)
	if err != nil {
		return nil, d.inputError(fmt.Errorf("document %d: cannot decode the CustomResourceDefinition: %w", d.Index, jsonvalue.DecodeError(err, av)))
	}
	versions := crd.Spec.Versions
	if len(versions) == 0 && crd.Spec.Version != "" && av != "apiextensions.k8s.io/v1" {
		versions = []v1Version{{Name: crd.Spec.Version}}
	}
	i := slices.IndexFunc(versions, func(v v1Version) bool { return v.Name == version })
	if i < 0 {
		names := make([]string, len(versions))
		for j, v := range versions {
			names[j] = v.Name
		}
		return nil, d.inputError(fmt.Errorf("document %d: the CustomResourceDefinition defines no version %q (it defines %q)", d.Index, version, names))
	}
	sch := versions[i].Schema
	if sch == nil && av == "apiextensions.k8s.io/v1beta1" {
		sch = crd.Spec.Validation
	}
	if sch == nil || sch.OpenAPIV3Schema == nil {
		return nil, nil
	}
	p := sch.OpenAPIV3Schema
	p.FillNullProperties()
	return p, nil
}
