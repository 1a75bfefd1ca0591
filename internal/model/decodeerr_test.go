package model

import (
	"strings"
	"testing"
)

// TestDecodeErrorsAsTheApiserver: decoding errors name the apiserver's
// types and write numbers as its untyped round trip does (answers of the
// apiserver code, via the conformance oracle).
func TestDecodeErrorsAsTheApiserver(t *testing.T) {
	crd := func(spec, prop string) string {
		return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"things.h.io"},"spec":{"group":"h.io","scope":"Namespaced",` + spec +
			`"names":{"plural":"things","singular":"thing","kind":"Thing"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"s":` + prop + `}}}}]}}`
	}
	for in, want := range map[string]string{
		crd(``, `{"type":"string","maxLength":1e20}`):                        "json: cannot unmarshal number 100000000000000000000 into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.maxLength of type int64",
		crd(``, `{"type":"string","maxLength":1.5}`):                         "json: cannot unmarshal number 1.5 into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.maxLength of type int64",
		crd(`"conversion":{"strategy":5},`, `{"type":"string"}`):             "json: cannot unmarshal number into Go struct field CustomResourceConversion.spec.conversion.strategy of type v1.ConversionStrategyType",
		crd(`"preserveUnknownFields":"x",`, `{"type":"string"}`):             "json: cannot unmarshal string into Go struct field CustomResourceDefinitionSpec.spec.preserveUnknownFields of type bool",
		strings.Replace(crd(``, `{}`), `"plural":"things"`, `"plural":5`, 1): "json: cannot unmarshal number into Go struct field CustomResourceDefinitionNames.spec.names.plural of type string",
	} {
		_, err := DecodeCRD([]byte(in))
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", in, err, want)
		}
	}
	var p Props
	if err := DecodeProps([]byte(`{"properties":{"s":{"maxLength":1e20}}}`), &p); err == nil || err.Error() != "json: cannot unmarshal number 100000000000000000000 into Go struct field JSONSchemaProps.properties.maxLength of type int64" {
		t.Errorf("bare schema: %v", err)
	}
}
