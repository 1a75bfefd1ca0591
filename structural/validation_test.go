package structural_test

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/internal/golden"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

const goldenDir = "../testdata/structural"

// validateYAML reads a bare schema and returns its structural errors, one
// "type field: detail" per line, sorted.
func validateYAML(t *testing.T, data []byte) []string {
	t.Helper()
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatalf("yaml: %v", err)
	}
	var p model.Props
	if err := model.DecodeProps(js, &p); err != nil {
		t.Fatalf("decode: %v", err)
	}
	s, err := structural.New(&p)
	if err != nil {
		return []string{"New: " + err.Error()}
	}
	return format(structural.Validate(nil, s))
}

func format(errs field.ErrorList) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, string(e.Type)+" "+e.Field+": "+e.Detail)
	}
	sort.Strings(out)
	return out
}

func TestGolden(t *testing.T) {
	golden.Run(t, goldenDir, func(t *testing.T, file string, data []byte) string {
		got := strings.Join(validateYAML(t, data), "\n")
		if got != "" {
			got += "\n"
		}
		// Clean cases are named *-ok; failing ones must fail.
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		if strings.HasSuffix(name, "-ok") != (got == "") {
			t.Errorf("case %s: -ok suffix and error count disagree:\n%s", name, got)
		}
		return got
	})
}

func TestValidateNil(t *testing.T) {
	if errs := structural.Validate(field.NewPath("x"), nil); len(errs) != 0 {
		t.Fatalf("nil schema: %v", errs)
	}
}

func TestValidatePathPrefix(t *testing.T) {
	errs := validateWithPrefix(t, `{"anyOf":[{"properties":{"bar":{"type":"integer"}}}]}`)
	want := []string{
		"FieldValueForbidden spec.validation.openAPIV3Schema.anyOf[0].properties[bar].type: must be empty to be structural",
		"FieldValueRequired spec.validation.openAPIV3Schema.properties[bar]: because it is defined in spec.validation.openAPIV3Schema.anyOf[0].properties[bar]",
		"FieldValueRequired spec.validation.openAPIV3Schema.type: must not be empty at the root",
	}
	if strings.Join(errs, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(errs, "\n"), strings.Join(want, "\n"))
	}
}

func validateWithPrefix(t *testing.T, js string) []string {
	t.Helper()
	var p model.Props
	if err := model.DecodeProps([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatal(err)
	}
	return format(structural.Validate(field.NewPath("spec", "validation", "openAPIV3Schema"), s))
}

// TestSorted checks the result order: by field, type and detail, as every
// error list of the module.
func TestSorted(t *testing.T) {
	var p model.Props
	js := `{"properties":{"b":{},"a":{},"metadata":{"type":"string"}},"anyOf":[{"description":"x","properties":{"z":{}}}]}`
	if err := model.DecodeProps([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatal(err)
	}
	errs := structural.Validate(field.NewPath("r"), s)
	if len(errs) == 0 {
		t.Fatal("no errors")
	}
	for i := 1; i < len(errs); i++ {
		a, b := errs[i-1], errs[i]
		if a.Field > b.Field || (a.Field == b.Field && (a.Type > b.Type || (a.Type == b.Type && a.Detail > b.Detail))) {
			t.Errorf("not sorted at %d: %q before %q", i, a.Error(), b.Error())
		}
	}
}
