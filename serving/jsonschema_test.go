package serving_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	crdschema "github.com/crdschema/crdschema"
)

const jsonSchemaCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size, mode, port]
            properties:
              size: {type: integer, minimum: 1}
              mode: {type: string, enum: [a, b], default: a}
              port: {x-kubernetes-int-or-string: true}
              note: {type: string, nullable: true, format: date-time}
              tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              free: {type: object, x-kubernetes-preserve-unknown-fields: true}
              pod: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              ready: {type: boolean}
`

// TestJSONSchemaTranslation pins the translation of each keyword the
// issue names, in the plain and the strict variant.
func TestJSONSchemaTranslation(t *testing.T) {
	crd, err := crdschema.LoadCRD([]byte(jsonSchemaCRD))
	if err != nil {
		t.Fatal(err)
	}
	for _, strict := range []bool{false, true} {
		s, err := crd.JSONSchema("v1", strict)
		if err != nil {
			t.Fatal(err)
		}
		spec := at(s, "properties", "spec")
		for _, c := range []struct {
			got  any
			want string
		}{
			{at(spec, "required"), `["size","port"]`},                        // mode has a default
			{at(spec, "properties", "size", "type"), `"integer"`},            // required: no null
			{at(spec, "properties", "mode", "enum"), `["a","b",null]`},       // not required: null dropped
			{at(spec, "properties", "port", "type"), `["integer","string"]`}, // required int-or-string
			{at(spec, "properties", "note", "type"), `["string","null"]`},
			{at(spec, "properties", "note", "x-kubernetes-format"), `"date-time"`},
			{at(spec, "properties", "tags", "uniqueItems"), `true`},
			{at(spec, "properties", "free", "additionalProperties"), `null`},
			{at(spec, "properties", "pod", "required"), `["apiVersion","kind"]`},
			{at(s, "properties", "status", "type"), `null`}, // dropped on create
			{at(s, "properties", "apiVersion", "enum"), `["example.com/v1"]`},
			{at(s, "required"), `["apiVersion","kind","metadata"]`},
			{at(spec, "additionalProperties"), map[bool]string{false: `null`, true: `false`}[strict]},
		} {
			got, _ := json.Marshal(c.got)
			if string(got) != c.want {
				t.Errorf("strict=%v: %s, want %s", strict, got, c.want)
			}
		}
	}
	if _, err := crd.JSONSchema("v2", false); err == nil {
		t.Error("JSONSchema of an unserved version: no error")
	}
}

// at walks nested maps; nil when a key is missing.
func at(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// ExampleCRD_JSONSchema exports the strict JSON Schema of a served version.
func ExampleCRD_JSONSchema() {
	crd, err := crdschema.LoadCRD([]byte(jsonSchemaCRD))
	if err != nil {
		panic(err)
	}
	s, err := crd.JSONSchema("v1", true)
	if err != nil {
		panic(err)
	}
	fmt.Println(s["$schema"], reflect.ValueOf(s["properties"]).Len())
	// Output: http://json-schema.org/draft-04/schema# 5
}
