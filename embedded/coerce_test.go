package embedded_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

var update = flag.Bool("update", false, "rewrite the golden files")

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
	files, err := filepath.Glob(filepath.Join("..", "testdata", "embedded", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var c coerceCase
			if err := yaml.Unmarshal(data, &c); err != nil {
				t.Fatal(err)
			}
			var s *structural.Schema
			if len(c.Schema) > 0 {
				var p schema.Props
				if err := schema.DecodeProps(c.Schema, &p); err != nil {
					t.Fatal(err)
				}
				if s, err = structural.New(&p); err != nil {
					t.Fatal(err)
				}
			}
			var obj map[string]any
			if err := utiljson.Unmarshal(c.Object, &obj); err != nil {
				t.Fatal(err)
			}
			paths, errs := embedded.Coerce(obj, s, embedded.CoerceOptions{DropMalformed: c.Drop, ReturnPaths: true})
			r := coerceResult{Object: obj, Paths: slices.Sorted(slices.Values(prune.Strings(paths))), Errors: []string{}}
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
			golden := strings.TrimSuffix(f, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s:\n got:\n%s\nwant:\n%s", name, golden, got, want)
			}
		})
	}
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
