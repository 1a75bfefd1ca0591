package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/schema"
)

// decodeCRD reads one CRD from YAML for a test.
func decodeCRD(t *testing.T, yaml string) *model.CRD {
	t.Helper()
	docs, err := schema.ReadDocuments("test.yaml", []byte(yaml))
	if err != nil || len(docs) != 1 {
		t.Fatalf("reading the CRD: %v (%d documents)", err, len(docs))
	}
	crd, err := model.DecodeCRD(docs[0].JSON())
	if err != nil {
		t.Fatal(err)
	}
	return crd
}

// crdWith is a v1 CRD of crontabs.stable.example.com whose version v1 has
// the properties of spec given as YAML (indented for that place).
func crdWith(spec string) string {
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
` + spec
}

func TestFormatRecognized(t *testing.T) {
	for _, tc := range []struct {
		typ, format string
		want        bool
	}{
		{"string", "date-time", true},
		{"string", "datetime", true},
		{"", "date-time", true},
		{"string", "k8s-short-name", true},
		{"string", "k8sshort-name", true}, // compared without any "-"
		{"string", "int-or-string", false},
		{"string", "quantity", false},
		{"string", "Date", false},
		{"string", "int32", false},
		{"integer", "int32", true},
		{"integer", "date", false},
		{"integer", "int16", false},
		{"number", "double", true},
		{"number", "int64", false},
		{"boolean", "byte", false},
		{"object", "uri", false},
		{"array", "uri", false},
	} {
		if got := formatRecognized(tc.typ, tc.format); got != tc.want {
			t.Errorf("formatRecognized(%q, %q) = %v, want %v", tc.typ, tc.format, got, tc.want)
		}
	}
}

func TestCreateWarnings(t *testing.T) {
	crd := decodeCRD(t, crdWith(`              a: {type: string, format: cron}
              b: {type: string, format: cron}
              c: {type: integer, format: int16}
              d: {type: string, format: date-time}
              e:
                type: array
                x-kubernetes-list-type: set
                items: {type: object, x-kubernetes-map-type: atomic, properties: {x: {type: string, format: quantity}}}
              f: {type: array, x-kubernetes-list-type: set, items: {type: array, items: {type: string}}}
              g: {anyOf: [{type: string, format: cron2}], type: string}
`))
	got := CreateWarnings(&crd.Spec)
	want := []string{
		`unrecognized format "cron"`,
		`unrecognized format "cron2"`,
		`unrecognized format "int16"`,
		`unrecognized format "quantity"`,
		`x-kubernetes-list-type: set for items of type "array" is not supported by server-side apply or CEL validation rules`,
		`x-kubernetes-list-type: set for items of type "object" is not supported by server-side apply or CEL validation rules`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings\n got %q\nwant %q", got, want)
	}
}

func TestUpdateWarningsByValue(t *testing.T) {
	old := decodeCRD(t, crdWith(`              a: {type: string, format: cron}
              s: {type: array, x-kubernetes-list-type: set, items: {type: object, x-kubernetes-map-type: atomic}}
`))
	crd := decodeCRD(t, crdWith(`              a: {type: string, format: cron}
              b: {type: string, format: cron}
              c: {type: integer, format: int16}
              t: {type: array, x-kubernetes-list-type: set, items: {type: object, x-kubernetes-map-type: atomic}}
              u: {type: array, x-kubernetes-list-type: set, items: {type: array}}
`))
	got := UpdateWarnings(&crd.Spec, &old.Spec)
	want := []string{
		`unrecognized format "int16"`,
		`x-kubernetes-list-type: set for items of type "array" is not supported by server-side apply or CEL validation rules`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings\n got %q\nwant %q", got, want)
	}
}

// TestRecordWarningsLimits checks the apiserver's header limits: under
// 4096 runes in total nothing is cut; past it, every warning is cut to 256
// runes and, once the kept ones reach the limit again, the rest dropped.
func TestRecordWarningsLimits(t *testing.T) {
	short := []string{"b", "a", "b", ""}
	if got := recordWarnings(short); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("short warnings: %q", got)
	}
	var long []string
	for i := range 30 {
		long = append(long, fmt.Sprintf("w%02d %s", i, strings.Repeat("é", 300)))
	}
	got := recordWarnings(long)
	// 30 warnings of 304 runes: the 14th makes the total exceed 4096; all
	// are then cut to 256, and warnings are added while the total is
	// under 4096: 16 of them (16*256 = 4096).
	if len(got) != 16 {
		t.Fatalf("%d warnings kept, want 16", len(got))
	}
	for i, w := range got {
		if n := utf8.RuneCountInString(w); n != 256 || !strings.HasPrefix(w, fmt.Sprintf("w%02d ", i)) {
			t.Errorf("warning %d: %d runes, %q...", i, n, w[:4])
		}
	}
}
