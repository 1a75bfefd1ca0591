package structural_test

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// FuzzStructural feeds arbitrary JSON through decoding, the structural model
// and Validate: none of them may panic, and Validate must be deterministic.
func FuzzStructural(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"type":"object","properties":{"a":{"type":"string"}}}`,
		`{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}`,
		`{"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]}],"x-kubernetes-int-or-string":true}`,
		`{"properties":{"metadata":{"type":"object","properties":{"name":{}}}},"not":{"properties":{"x":{"items":{}}}}}`,
		`{"x-kubernetes-embedded-resource":true,"additionalProperties":false,"items":[]}`,
	} {
		f.Add([]byte(s))
	}
	// The golden cases are seeds too.
	if files, err := filepath.Glob(filepath.Join(goldenDir, "*.yaml")); err == nil {
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				continue
			}
			if js, err := yaml.YAMLToJSON(data); err == nil {
				f.Add(js)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p model.Props
		if err := model.DecodeProps(data, &p); err != nil {
			return
		}
		s, err := structural.New(&p)
		if err != nil || s == nil {
			return
		}
		path := field.NewPath("spec", "validation", "openAPIV3Schema")
		a := structural.Validate(path, s)
		b := structural.Validate(path, s)
		if len(a) != len(b) {
			t.Fatalf("nondeterministic: %d vs %d errors", len(a), len(b))
		}
		for i := range a {
			if a[i].Error() != b[i].Error() {
				t.Fatalf("nondeterministic at %d: %q vs %q", i, a[i].Error(), b[i].Error())
			}
		}
	})
}
