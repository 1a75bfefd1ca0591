package embedded_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/internal/golden"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// coerceCase is one testdata/embedded/<case>.yaml: a resource whose
// metadata, and whose embedded resources', are coerced.
type coerceCase struct {
	Drop   bool            `json:"drop"`
	Schema json.RawMessage `json:"schema"`
	Object json.RawMessage `json:"object"`
}

type coerceResult struct {
	Object any      `json:"object"`
	Paths  []string `json:"paths"`
	Errors []string `json:"errors"`
}

func TestCoerceGolden(t *testing.T) {
	golden.Run(t, filepath.Join("..", "testdata", "embedded"), func(t *testing.T, _ string, data []byte) string {
		var c coerceCase
		if err := yaml.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		var s *structural.Schema
		if len(c.Schema) > 0 {
			var p model.Props
			if err := model.DecodeProps(c.Schema, &p); err != nil {
				t.Fatal(err)
			}
			var err error
			if s, err = structural.New(&p); err != nil {
				t.Fatal(err)
			}
		}
		var obj map[string]any
		if err := utiljson.Unmarshal(c.Object, &obj); err != nil {
			t.Fatal(err)
		}
		paths, errs := embedded.Coerce(obj, s, embedded.CoerceOptions{DropMalformed: c.Drop, ReturnPaths: true})
		r := coerceResult{Object: obj, Paths: slices.Sorted(slices.Values(paths)), Errors: []string{}}
		if r.Paths == nil {
			r.Paths = []string{}
		}
		for _, e := range errs {
			r.Errors = append(r.Errors, e.Error())
		}
		got, err := yaml.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(got)
	})
}

// RoundTripObjectMeta never changes its input and shares nothing with it.
func TestRoundTripDoesNotAlias(t *testing.T) {
	in := map[string]any{
		"labels":        map[string]any{"a": "b"},
		"managedFields": []any{map[string]any{"fieldsV1": map[string]any{"f:x": map[string]any{}}}},
	}
	out, _, err := embedded.RoundTripObjectMeta(in, false)
	if err != nil {
		t.Fatal(err)
	}
	out["labels"].(map[string]any)["a"] = "changed"
	out["managedFields"].([]any)[0].(map[string]any)["fieldsV1"].(map[string]any)["f:y"] = 1
	if in["labels"].(map[string]any)["a"] != "b" || len(in["managedFields"].([]any)[0].(map[string]any)["fieldsV1"].(map[string]any)) != 1 {
		t.Fatal("output aliases input")
	}
}
