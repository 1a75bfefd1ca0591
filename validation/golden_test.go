package validation_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/internal/golden"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// goldenCase is one testdata/validation/<case>.yaml: a schema (a resource
// root), whether the resource is namespaced, and objects to validate as on
// create (root metadata, value validation, list types, embedded resources).
type goldenCase struct {
	Schema     map[string]any `json:"schema"`
	Namespaced *bool          `json:"namespaced"`
	Objects    []any          `json:"objects"`
}

func compileSchema(t testing.TB, raw any) *structural.Schema {
	t.Helper()
	j, err := kjson.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	var p model.Props
	if err := model.DecodeProps(j, &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validateAsCreate validates obj as the apply pipeline does.
func validateAsCreate(v *validation.Validator, s *structural.Schema, obj any, namespaced bool) field.ErrorList {
	m, ok := obj.(map[string]any)
	if !ok {
		return v.Validate(obj)
	}
	meta, _ := m["metadata"].(map[string]any)
	vobj := make(map[string]any, len(m)+1)
	for k, x := range m {
		vobj[k] = x
	}
	vobj["metadata"] = embedded.MetaForCreate(meta, namespaced)
	var errs field.ErrorList
	errs = append(errs, embedded.ValidateResourceMeta(meta, namespaced)...)
	errs = append(errs, v.Validate(vobj)...)
	errs = append(errs, embedded.Validate(nil, vobj, s, false)...)
	return errs
}

func formatErrors(errs field.ErrorList) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, fmt.Sprintf("%s %s: %s", string(e.Type), e.Field, e.Detail))
	}
	sort.Strings(out)
	return out
}

func TestGolden(t *testing.T) {
	golden.Run(t, filepath.Join("..", "testdata", "validation"), func(t *testing.T, _ string, data []byte) string {
		j, err := yaml.YAMLToJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		var c goldenCase
		if err := kjson.Unmarshal(j, &c); err != nil {
			t.Fatal(err)
		}
		s := compileSchema(t, c.Schema)
		v := validation.New(s)
		namespaced := c.Namespaced == nil || *c.Namespaced
		var b strings.Builder
		for i, obj := range c.Objects {
			fmt.Fprintf(&b, "# object %d\n", i)
			for _, l := range formatErrors(validateAsCreate(v, s, obj, namespaced)) {
				fmt.Fprintln(&b, l)
			}
		}
		return b.String()
	})
}
