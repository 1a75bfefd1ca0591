package prune_test

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
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

// goldenCase is one testdata/prune/<case>.yaml.
type goldenCase struct {
	Schema json.RawMessage `json:"schema"`
	Object json.RawMessage `json:"object"`
	// Root is whether the object is a resource root (default true).
	Root *bool `json:"root"`
}

// goldenResult is one testdata/prune/<case>.golden.
type goldenResult struct {
	Object any      `json:"object"`
	Pruned []string `json:"pruned"`
	Errors []string `json:"errors,omitempty"`
}

func buildSchema(t testing.TB, raw json.RawMessage) *structural.Schema {
	t.Helper()
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var p model.Props
	if err := model.DecodeProps(raw, &p); err != nil {
		t.Fatalf("schema: %v", err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	return s
}

// run does what the prune verb does: for a resource root, coerce the root
// metadata, prune, coerce the embedded resources (dropping malformed
// metadata); otherwise only prune.
func run(obj any, s *structural.Schema, root bool) goldenResult {
	var paths []string
	var errs []string
	if m, ok := obj.(map[string]any); ok && root {
		opts := embedded.CoerceOptions{DropMalformed: true, ReturnPaths: true}
		ps, err := embedded.CoerceResourceMeta(m, opts)
		if err != nil {
			return goldenResult{Pruned: []string{}, Errors: []string{err.Error()}}
		}
		paths = append(paths, ps...)
		paths = append(paths, prune.Prune(obj, s, prune.Options{ResourceRoot: true, ReturnPaths: true})...)
		ps, fes := embedded.CoerceEmbedded(obj, s, opts)
		paths = append(paths, ps...)
		for _, e := range fes {
			errs = append(errs, e.Error())
		}
	} else {
		paths = prune.Prune(obj, s, prune.Options{ResourceRoot: root, ReturnPaths: true})
	}
	// Sorted and de-duplicated, as the command prints them.
	pruned := []string{}
	for _, p := range slices.Sorted(slices.Values(paths)) {
		if len(pruned) == 0 || pruned[len(pruned)-1] != p {
			pruned = append(pruned, p)
		}
	}
	return goldenResult{Object: obj, Pruned: pruned, Errors: errs}
}

func TestGolden(t *testing.T) {
	golden.Run(t, filepath.Join("..", "testdata", "prune"), func(t *testing.T, _ string, data []byte) string {
		var c goldenCase
		if err := yaml.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		s := buildSchema(t, c.Schema)
		root := c.Root == nil || *c.Root
		// Numbers as the command reads them: int64 when integral.
		var obj any
		if err := utiljson.Unmarshal(c.Object, &obj); err != nil {
			t.Fatal(err)
		}
		got, err := yaml.Marshal(run(obj, s, root))
		if err != nil {
			t.Fatal(err)
		}
		return string(got)
	})
}
