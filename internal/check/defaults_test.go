package check

import (
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/errorsort"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

func mustStructural(t *testing.T, js string) *structural.Schema {
	t.Helper()
	p := &model.Props{}
	if err := model.DecodeProps([]byte(js), p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestValidateDefaults(t *testing.T) {
	root := field.NewPath("spec", "validation", "openAPIV3Schema")
	for _, tc := range []struct {
		name, schema string
		want         []string // "Type field: detail prefix"
	}{
		{
			name:   "valid defaults",
			schema: `{"type":"object","properties":{"spec":{"type":"object","default":{"a":"x"},"properties":{"a":{"type":"string","default":"y"}}}}}`,
		},
		{
			name:   "unknown field in default",
			schema: `{"type":"object","properties":{"spec":{"type":"object","default":{"a":"x","b":1},"properties":{"a":{"type":"string"}}}}}`,
			want:   []string{"FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].default: must not have unknown fields"},
		},
		{
			name:   "unknown field kept by preserve-unknown-fields",
			schema: `{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"default":{"a":"x","b":1},"properties":{"a":{"type":"string"}}}}}`,
		},
		{
			name:   "unknown field in an item default",
			schema: `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","default":{"z":1}}}}}`,
			want:   []string{"FieldValueInvalid spec.validation.openAPIV3Schema.properties[l].items.default: must not have unknown fields"},
		},
		{
			name:   "default against its schema",
			schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer","maximum":10,"default":15}}}}}`,
			want:   []string{"FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default:  in body should be less than or equal to 10"},
		},
		{
			name:   "nested default checked below the default",
			schema: `{"type":"object","properties":{"spec":{"type":"object","default":{"n":"abc"},"properties":{"n":{"type":"string","maxLength":2}}}}}`,
			want:   []string{"FieldValueTooLong spec.validation.openAPIV3Schema.properties[spec].default.n: "},
		},
		{
			name:   "a root default is a resource: apiVersion and kind required",
			schema: `{"type":"object","default":{"spec":{}},"properties":{"spec":{"type":"object"}}}`,
			want: []string{
				"FieldValueRequired spec.validation.openAPIV3Schema.default.apiVersion",
				"FieldValueRequired spec.validation.openAPIV3Schema.default.kind",
			},
		},
		{
			name:   "malformed metadata in an embedded resource's default",
			schema: `{"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"default":{"apiVersion":"v1","kind":"Pod","metadata":{"name":5}}}}}`,
			want:   []string{"FieldValueInvalid spec.validation.openAPIV3Schema.properties[t].default.metadata: json: cannot unmarshal number"},
		},
		{
			name:   "non-string kind in an embedded resource's default",
			schema: `{"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"default":{"apiVersion":"v1","kind":1}}}}`,
			want:   []string{"FieldValueInvalid spec.validation.openAPIV3Schema.properties[t].default.kind: must be a string"},
		},
		{
			name:   "default inside an embedded resource's metadata",
			schema: `{"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","default":"bad/name"}}}}}}}`,
			want:   []string{"FieldValueInvalid spec.validation.openAPIV3Schema.properties[t].properties[metadata].properties[name].default: must result in valid metadata: "},
		},
		{
			name:   "valid default inside an embedded resource's metadata",
			schema: `{"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","default":"good"}}}}}}}`,
		},
		{
			name:   "defaults inside additionalProperties are not validated",
			schema: `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string","default":5}}}}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := validateDefaults(root, mustStructural(t, tc.schema), cel.NewCompileCache(), true)
			errorsort.Sort(errs)
			if len(errs) != len(tc.want) {
				t.Fatalf("errors %v, want %v", errs, tc.want)
			}
			for i, e := range errs {
				got := string(e.Type) + " " + e.Field + ": " + e.Detail
				if !strings.HasPrefix(got, tc.want[i]) {
					t.Errorf("error %d: %q, want prefix %q", i, got, tc.want[i])
				}
			}
		})
	}
}

func TestSurroundingObject(t *testing.T) {
	got := surroundingObject("x", []step{{key: "metadata"}, {key: "finalizers"}, {index: true}})
	md, _ := got["metadata"].(map[string]any)
	l, _ := md["finalizers"].([]any)
	if len(l) != 1 || l[0] != "x" || got["kind"] != "Validation" || got["apiVersion"] != "validation/v1" {
		t.Errorf("got %v", got)
	}
	got = surroundingObject("v2", []step{{key: "apiVersion"}})
	if got["apiVersion"] != "v2" || got["kind"] != "Validation" {
		t.Errorf("got %v", got)
	}
}
