package model

import (
	"testing"
)

const twoVersions = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"foos.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"foos","kind":"Foo"},
"versions":[
 {"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}},"subresources":{"status":{}}},
 {"name":"v2","served":true,"storage":false,"schema":{"openAPIV3Schema":%s},"subresources":{"status":{}}}]}}`

func decode(t *testing.T, js string) *CRD {
	t.Helper()
	crd, err := DecodeCRD([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return crd
}

func TestDecodeV1HoistsIdenticalSchemas(t *testing.T) {
	crd := decode(t, fmtJSON(twoVersions, `{"type":"object"}`))
	if crd.Spec.Validation == nil || crd.Spec.Validation.OpenAPIV3Schema.Type != "object" {
		t.Fatalf("identical schemas not hoisted to spec.validation: %+v", crd.Spec)
	}
	for i, v := range crd.Spec.Versions {
		if v.Schema != nil || v.Subresources != nil {
			t.Errorf("versions[%d] keeps its schema or subresources after hoisting", i)
		}
	}
	if crd.Spec.Subresources == nil || crd.Spec.Subresources.Status == nil {
		t.Errorf("identical subresources not hoisted")
	}
	if crd.Spec.Version != "v1" {
		t.Errorf("spec.version = %q, want v1", crd.Spec.Version)
	}
	// Defaults of the v1 scheme.
	if crd.Spec.Names.Singular != "foo" || crd.Spec.Names.ListKind != "FooList" {
		t.Errorf("names not defaulted: %+v", crd.Spec.Names)
	}
	if crd.Spec.Conversion == nil || crd.Spec.Conversion.Strategy != "None" {
		t.Errorf("conversion not defaulted: %+v", crd.Spec.Conversion)
	}
	if len(crd.Status.StoredVersions) != 1 || crd.Status.StoredVersions[0] != "v1" {
		t.Errorf("storedVersions = %v, want [v1]", crd.Status.StoredVersions)
	}
	if crd.Spec.PreserveUnknownFields == nil || *crd.Spec.PreserveUnknownFields {
		t.Errorf("v1 preserveUnknownFields should be false")
	}
}

func TestDecodeV1KeepsDifferingSchemasPerVersion(t *testing.T) {
	crd := decode(t, fmtJSON(twoVersions, `{"type":"object","properties":{"a":{"type":"string"}}}`))
	if crd.Spec.Validation != nil {
		t.Fatalf("differing schemas hoisted")
	}
	if crd.SchemaFor("v2").Properties["a"].Type != "string" || crd.SchemaFor("v1").Type != "object" {
		t.Errorf("SchemaFor does not find the per-version schemas")
	}
	if crd.SubresourcesFor("v2") == nil {
		t.Errorf("identical subresources should still be found for v2")
	}
}

func TestDecodeV1beta1Defaults(t *testing.T) {
	crd := decode(t, `{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition",
	"metadata":{"name":"bars.example.com"},
	"spec":{"group":"example.com","version":"v1","names":{"plural":"bars","kind":"Bar"},
	"validation":{"openAPIV3Schema":{"type":"object"}},
	"conversion":{"strategy":"Webhook"}}}`)
	s := crd.Spec
	if s.Scope != "Namespaced" {
		t.Errorf("scope = %q, want Namespaced", s.Scope)
	}
	if len(s.Versions) != 1 || s.Versions[0].Name != "v1" || !s.Versions[0].Served || !s.Versions[0].Storage {
		t.Errorf("versions not defaulted from spec.version: %+v", s.Versions)
	}
	if s.PreserveUnknownFields == nil || !*s.PreserveUnknownFields {
		t.Errorf("v1beta1 preserveUnknownFields should default to true")
	}
	if len(s.Conversion.ConversionReviewVersions) != 1 || s.Conversion.ConversionReviewVersions[0] != "v1beta1" {
		t.Errorf("conversionReviewVersions = %v, want [v1beta1]", s.Conversion.ConversionReviewVersions)
	}
	if s.Validation == nil {
		t.Errorf("top-level validation lost")
	}
}

func TestDecodeCRDTypeErrors(t *testing.T) {
	_, err := DecodeCRD([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"maxProperties":true}}}]}}`))
	if err == nil {
		t.Fatal("maxProperties: true decoded without error")
	}
	if _, err := DecodeCRD([]byte(`{"apiVersion":"apiextensions.k8s.io/v2"}`)); err == nil {
		t.Fatal("unknown apiVersion decoded without error")
	}
}

func TestPropsDecoding(t *testing.T) {
	var p Props
	err := DecodeProps([]byte(`{"type":"object","default":{"a":1,"b":1.5},"enum":[null,"x"],
	"items":[{"type":"string"}],"additionalProperties":false,"x-kubernetes-preserve-unknown-fields":false}`), &p)
	if err != nil {
		t.Fatal(err)
	}
	def := p.Default.Value.(map[string]any)
	if def["a"] != int64(1) || def["b"] != 1.5 {
		t.Errorf("default = %#v, want int64 1 and float 1.5", def)
	}
	if len(p.Enum) != 2 || p.Enum[0].Value != nil {
		t.Errorf("enum = %#v", p.Enum)
	}
	if p.Items == nil || len(p.Items.Array) != 1 || p.Items.Schema != nil {
		t.Errorf("items as array not kept: %#v", p.Items)
	}
	if p.AdditionalProperties == nil || p.AdditionalProperties.Allows || p.AdditionalProperties.Schema != nil {
		t.Errorf("additionalProperties: false not kept: %#v", p.AdditionalProperties)
	}
	if p.XPreserveUnknownFields == nil || *p.XPreserveUnknownFields {
		t.Errorf("x-kubernetes-preserve-unknown-fields: false not kept")
	}
	if err := DecodeProps([]byte(`{"additionalProperties": 3}`), &p); err == nil {
		t.Errorf("additionalProperties: 3 decoded without error")
	}
}

func fmtJSON(format, arg string) string {
	out := []byte{}
	for i := 0; i < len(format); i++ {
		if format[i] == '%' && i+1 < len(format) && format[i+1] == 's' {
			out = append(out, arg...)
			i++
			continue
		}
		out = append(out, format[i])
	}
	return string(out)
}
