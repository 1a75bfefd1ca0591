package crdschema_test

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/golden"
)

// apiBudget is the most exported identifiers the public packages may have
// together. Issue 11 halved it to 147; later additions are named in the
// commits that made them: the parsed OpenAPI v3 model made public (issue 19,
// +83: schema.Props and its fields, Parse, ReadDocuments, structural.New,
// Schema.Source, KeepFloats, SortErrors, prune.DropNulls), Result.Duplicates
// (issue 20, +1), the CRD warnings and updates (issue 24, +4), conversion
// (issue 21, +26; samples and round trips +8) and serving (issue 22,
// +33; the JSON Schema export +3), CRD.Deprecation (+1, so that crdfake
// words deprecation warnings with the root's text instead of a copy) and
// Props.FillNullProperties (+1, the one copy internal/model's CRD decoder
// also calls), the CRD revision entries (Replay, Changes and their
// types, +17) and CRD.ReadJSON (+1, reading stored bytes without a copy).
// Issue 28 kept the count at 325: the merged pairs went (CRD.ReadWith,
// AnyVersion, UpdateErrors, UpdateWarnings, CRD.Samples, package check's
// CRD and BareSchema, -7), the revision entries moved to package revision
// as functions in time order (Changes, Replay with its Effect, RoundTrip,
// RoundTrips, Trip, Loss, Change: same count), and seven came:
// CheckUpdate (errors and warnings of a CRD update together),
// CRD.WithConverter (a converter given once), Schema.Samples (samples
// belong to a compiled schema), and the storage accessors package revision
// needs, each of use on its own: CRD.Decode and CRD.Convert (the storage's
// read and conversion below the served API), CRD.StoredVersions and
// CRD.ConversionStrategy. schema.Document.VersionSchema (+1, the light
// chain's first step: a version's schema from a CRD document without the
// root, issue 28). The one document reader (issue 28, +6: Documents,
// streaming, in package schema and the root; Document.Duplicates and
// Document.Text in both, the repeated keys found once and the text fields
// are located in; Result.Strict, fieldValidation=Strict; KeepFloats
// removed, the readers mark whole floats). Document.Locator in package
// schema and the root (issue 28, +2): the line and column of an error's
// field in the document's text, the command's locator moved into the
// library for every CI tool that annotates its inputs. Issue 33's schema
// of an unserved version (+1, serving.UnservedJSONSchema) and explain
// (+20: serving.Explain with its result Explanation, ExplainedField and
// ExplainedRule and their fields, the -o json contract; CRD.Explain).
// Issue 29 (+18): prune.Suggest ("did you mean" for an unknown field),
// package layout (+15: Scan, Tree.Of, Place and its 4 fields, Role with
// its 4 values and String, Placeholder: the roles of a repository's files,
// which the command's lint reads), Conflicts and Schema.CRD (the differing
// copies of a CRD in a repository, and which one Route chose, for the lint
// to warn and to name it). CRD.Resource (issue 31, +10: the method;
// serving.Resource's Singular, ShortNames, Categories, Namespaced and
// Scale; serving.ScalePaths and its three paths): the names, scope, subresources and selectable fields of a
// version in the type OpenAPI and JSONSchema already take, which crdfake's
// REST mapper and routing and explain's resource names read from the CRD
// document themselves before. The storage-version migration (issue 30,
// +7): revision.Migrate and its Migration (Stored, Migrated, Losses,
// Update, Errors: the object before and after its rewrite, what the
// rewrite loses, why it fails, why it cannot be migrated at all), the
// library entry behind crdschema migrate. Issue 30 (+3): CRD.Converter
// (whether a Webhook CRD can convert: what package revision then checks,
// or says it cannot), Effect.Manifest (an object without server-set
// metadata was created under the old revision first) and
// Effect.NotChecked (the steps that need a webhook the CRD was not given).
// Issue 32 (same count): Document.JSON, in package schema and the root, is
// a method instead of a field, so that a YAML document's JSON is encoded
// only when asked for (it was encoded for every document and almost
// nothing reads it: loading all corpus CRDs from YAML 362 → 330 MB/op,
// the command over prometheus-operator 55.7 → 51.0 MB/op). schema.SplitYAML
// (+1, session 9): a YAML stream's documents as the readers split them,
// without decoding; crdfake's read-ahead kept a copy of the rule.
// Session 11 (three repositories never used before): layout.Input and
// layout.Update (+2), two roles of a kuttl test's files: a file below the
// test's directory that only its scripts read, and a step file updating
// what an earlier step made (checked as a merge into it, not skipped: the
// command must tell it from a manifest). Reading a snippet wrapped in
// Jinja's raw tags is the command's (cmd/crdschema/jinja.go), as reading
// Go templates is: no name of the library.
// Session 12 (+1): revision.Effect.RefusedManifest, a manifest the old
// revision refuses and Replay takes as stored: without it a refused
// manifest reads as a dump (Manifest false), 71 object lines over 21 of
// the real revision pairs. structural.Schema.Field (+1): a key's schema
// (property, else additionalProperties), which prune (twice), validation
// and revision each wrote again.
const apiBudget = 398

// TestAPISurface lists every exported identifier of the public packages
// (functions, types, their exported fields and methods, constants and
// variables; test files, internal/, cmd/ and the separate modules left
// out) and compares the list with testdata/api.txt, so that a change of
// the public API shows in review as a diff of that file (-update rewrites
// it). The list must stay within apiBudget.
func TestAPISurface(t *testing.T) {
	ids := exportedIdentifiers(t, ".")
	got := strings.Join(ids, "\n") + "\n"
	const file = "testdata/api.txt"
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if d := golden.Diff(string(want), got); d != "" {
		t.Errorf("the public API changed (review, then go test -run TestAPISurface -update .):\n%s", d)
	}
	if len(ids) > apiBudget {
		t.Errorf("%d exported identifiers, budget %d", len(ids), apiBudget)
	}
}

// exportedIdentifiers walks the public packages below root.
func exportedIdentifiers(t *testing.T, root string) []string {
	t.Helper()
	var ids []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "internal", "cmd", "testdata", "conformance", "bench":
				return filepath.SkipDir
			}
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); p != root && err == nil {
				return filepath.SkipDir // a separate module (crdfake)
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := f.Name.Name
		for _, decl := range f.Decls {
			ids = append(ids, declIdentifiers(pkg, decl)...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(ids)
	return ids
}

func declIdentifiers(pkg string, decl ast.Decl) []string {
	var ids []string
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() {
			return nil
		}
		if d.Recv == nil {
			return []string{fmt.Sprintf("%s.%s", pkg, d.Name.Name)}
		}
		if recv := receiverName(d.Recv); ast.IsExported(recv) {
			return []string{fmt.Sprintf("%s.%s.%s", pkg, recv, d.Name.Name)}
		}
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				if !s.Name.IsExported() {
					continue
				}
				ids = append(ids, fmt.Sprintf("%s.%s", pkg, s.Name.Name))
				if st, ok := s.Type.(*ast.StructType); ok {
					for _, fl := range st.Fields.List {
						names := fl.Names
						if len(names) == 0 { // embedded: the field is named by its type
							names = []*ast.Ident{ast.NewIdent(embeddedName(fl.Type))}
						}
						for _, n := range names {
							if n.IsExported() {
								ids = append(ids, fmt.Sprintf("%s.%s.%s", pkg, s.Name.Name, n.Name))
							}
						}
					}
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.IsExported() {
						ids = append(ids, fmt.Sprintf("%s.%s", pkg, n.Name))
					}
				}
			}
		}
	}
	return ids
}

func receiverName(r *ast.FieldList) string {
	e := r.List[0].Type
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if i, ok := e.(*ast.IndexExpr); ok {
		e = i.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func embeddedName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return embeddedName(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.Ident:
		return x.Name
	}
	return ""
}
