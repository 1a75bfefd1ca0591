package gen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// Input is one generated input file: its documents and how they are written.
type Input struct {
	// Name is the file name relative to the batch folder.
	Name string
	// Docs are the documents, in order.
	Docs []any
	// JSON writes the file as JSON (one document only); otherwise YAML.
	JSON bool
	// List wraps the documents into one kind: List document.
	List bool
}

// Batch is one invocation of a verb: shared context files (CRDs or a bare
// schema) and the case files, each case file one test case.
type Batch struct {
	// Verb is check, prune, default or apply.
	Verb string
	// Schema is the bare schema file used with --schema, or nil.
	Schema *Input
	// CRDs are the CRD files given with --crd.
	CRDs []*Input
	// Cases are the case files: CRDs or schemas for check, objects otherwise.
	Cases []*Input
	// Old, for the verb update (apply --old), holds the stored objects,
	// and for check the stored CRDs (check --old); Status makes the
	// updates status updates (--subresource status).
	Old    *Input
	Status bool
	// To is convert's --to version.
	To string
}

// Verbs are the command's verbs, in the order of the contract; update is
// apply --old (see UpdateBatch).
var Verbs = []string{"check", "prune", "default", "apply", "update", "convert", "review"}

// ServedVerbs are the verbs of what the apiserver serves (contract, third
// edition): openapi on random CRDs, columns and scale on random stored
// objects of random CRDs (columns with --now fixed).
var ServedVerbs = []string{"openapi", "columns", "scale"}

// openapiBatch is a batch of n case files of CRDs (one, sometimes two per
// file) given to openapi as plain PATHs.
func (g *Gen) openapiBatch(n int) *Batch {
	b := &Batch{Verb: "openapi"}
	for i := 0; i < n; i++ {
		in := &Input{Name: fmt.Sprintf("crd%03d", i)}
		for d := 1 + boolInt(g.chance(0.1)); d > 0; d-- {
			in.Docs = append(in.Docs, g.CRD().Doc)
		}
		g.fileStyle(in)
		b.Cases = append(b.Cases, in)
	}
	return b
}

// Batch returns a batch of n cases for verb.
func (g *Gen) Batch(verb string, n int) *Batch {
	switch verb {
	case "update":
		return g.UpdateBatch(n)
	case "warnings":
		return g.WarningsBatch(n)
	case "crd-update":
		return g.CRDUpdateBatch(n)
	case "convert":
		return g.ConvertBatch(n)
	case "review":
		return g.ReviewBatch(n)
	}
	b := &Batch{Verb: verb}
	if verb == "openapi" {
		return g.openapiBatch(n)
	}
	if verb == "check" {
		for i := 0; i < n; i++ {
			in := &Input{Name: fmt.Sprintf("f%04d", i)}
			for d := 1 + boolInt(g.chance(0.1)); d > 0; d-- {
				if g.chance(0.55) {
					in.Docs = append(in.Docs, g.CRD().Doc)
				} else if g.chance(0.9) {
					in.Docs = append(in.Docs, g.RootSchema())
				} else {
					in.Docs = append(in.Docs, g.node(3))
				}
			}
			g.fileStyle(in)
			b.Cases = append(b.Cases, in)
		}
		return b
	}
	if verb != "columns" && verb != "scale" && g.chance(0.3) {
		s := g.RootSchema()
		b.Schema = &Input{Name: "schema", Docs: []any{s}}
		g.fileStyle(b.Schema)
		b.Schema.List = false
		for i := 0; i < n; i++ {
			in := &Input{Name: fmt.Sprintf("objs%03d", i)}
			for d := g.r.Intn(4) + 1; d > 0; d-- {
				in.Docs = append(in.Docs, g.SchemaObject(s))
			}
			g.fileStyle(in)
			b.Cases = append(b.Cases, in)
		}
		return b
	}
	var crds []*CRD
	for i := g.r.Intn(5) + 2; i > 0; i-- {
		c := g.CRD()
		crds = append(crds, c)
		in := &Input{Name: fmt.Sprintf("crds/crd%03d", len(crds)-1), Docs: []any{c.Doc}}
		g.fileStyle(in)
		b.CRDs = append(b.CRDs, in)
	}
	for i := 0; i < n; i++ {
		in := &Input{Name: fmt.Sprintf("objs%03d", i)}
		for d := g.r.Intn(4) + 1; d > 0; d-- {
			in.Docs = append(in.Docs, g.Object(pick(g, crds...)))
		}
		g.fileStyle(in)
		b.Cases = append(b.Cases, in)
	}
	return b
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fileStyle picks JSON or YAML, and a List wrapper, for in.
func (g *Gen) fileStyle(in *Input) {
	switch {
	case len(in.Docs) == 1 && g.chance(0.2):
		in.JSON = true
	case g.chance(0.08):
		in.List = true
	}
}

// FileName is the name the input is written under, with its extension.
func (in *Input) FileName() string {
	if in.JSON {
		return in.Name + ".json"
	}
	return in.Name + ".yaml"
}

// Marshal renders the input file.
func (in *Input) Marshal() ([]byte, error) {
	docs := in.Docs
	if in.List {
		docs = []any{map[string]any{"apiVersion": "v1", "kind": "List", "items": in.Docs}}
	}
	if in.JSON {
		b, err := json.Marshal(stripRaw(docs[0]))
		return append(b, '\n'), err
	}
	var sb strings.Builder
	for i, d := range docs {
		if i > 0 {
			sb.WriteString("---\n")
		}
		b, err := yaml.Marshal(d)
		if err != nil {
			return nil, err
		}
		sb.Write(b)
	}
	return []byte(strings.ReplaceAll(sb.String(), rawMarker, "")), nil
}

// stripRaw removes the raw markers from keys and strings.
func stripRaw(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[strings.TrimPrefix(k, rawMarker)] = stripRaw(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = stripRaw(x)
		}
		return l
	case string:
		return strings.TrimPrefix(v, rawMarker)
	}
	return v
}

// Write writes the batch's files under dir and returns the command-line
// arguments (relative to dir) that run it with JSON output.
func (b *Batch) Write(dir string) ([]string, error) {
	args := []string{b.Verb}
	if b.Verb == "review" {
		args = []string{"convert", "--review"}
	}
	var all []*Input
	if b.Verb == "check" && b.Old != nil {
		args = append(args, "--old", b.Old.FileName())
		all = append(all, b.Old)
	}
	if b.Verb == "update" {
		args[0] = "apply"
		if b.Old != nil {
			args = append(args, "--old", b.Old.FileName())
			all = append(all, b.Old)
		}
		if b.Status {
			args = append(args, "--subresource", "status")
		}
	}
	if b.Schema != nil {
		args = append(args, "--schema", b.Schema.FileName())
		all = append(all, b.Schema)
	}
	if len(b.CRDs) > 0 {
		for _, c := range b.CRDs {
			args = append(args, "--crd", c.FileName())
		}
		all = append(all, b.CRDs...)
	}
	if b.Verb == "convert" {
		args = append(args, "--to", b.To)
	}
	args = append(args, "-o", "json")
	if b.Verb == "columns" {
		args = append(args, "--now", "2026-11-25T00:00:00Z")
	}
	for _, c := range b.Cases {
		args = append(args, c.FileName())
	}
	all = append(all, b.Cases...)
	for _, in := range all {
		data, err := in.Marshal()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", in.Name, err)
		}
		p := filepath.Join(dir, in.FileName())
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return nil, err
		}
	}
	return args, nil
}
