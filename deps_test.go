package crdschema_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// goListDeps lists the packages pkgs depend on, standard library excluded.
func goListDeps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	args := append([]string{"list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}} {{with .Module}}{{.Path}}{{end}}{{end}}"}, pkgs...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	return strings.Fields(string(out))
}

// TestLightPackagesDoNotLinkCEL keeps CEL out of the packages that users
// import for pruning, defaulting and validation alone: only internal/cel,
// internal/check, the module root and package revision (above the root)
// link cel-go and the apiserver's CEL libraries. Nor do they link the root
// or the CRD model it compiles: package schema reads a version's schema
// from a CRD document itself (Document.VersionSchema), the light chain's
// first step.
func TestLightPackagesDoNotLinkCEL(t *testing.T) {
	heavy := []string{modulePath, modulePath + "/internal/model", modulePath + "/internal/cel", modulePath + "/internal/check"}
	for _, pkg := range []string{"./schema", "./structural", "./prune", "./defaulting", "./validation", "./embedded", "./intorstring", "./conversion", "./serving", "./internal/sample", "./revision/internal/revdiff"} {
		fields := goListDeps(t, pkg) // import path, module path
		for i := 0; i+1 < len(fields); i += 2 {
			if dep := fields[i]; strings.HasPrefix(dep, "github.com/google/cel-go") || strings.HasPrefix(dep, "k8s.io/apiserver") || strings.HasPrefix(dep, "cel.dev/") || slices.Contains(heavy, dep) {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
	// prune and defaulting stay small: at most 5 modules besides this one
	// and the standard library.
	mods := map[string]bool{}
	fields := goListDeps(t, "./prune", "./defaulting")
	for i := 0; i+1 < len(fields); i += 2 {
		if m := fields[i+1]; m != "github.com/crdschema/crdschema" {
			mods[m] = true
		}
	}
	if len(mods) > 5 {
		t.Errorf("prune and defaulting link %d modules, want at most 5: %v", len(mods), mods)
	}
}

// layers are the library's packages from the bottom up (doc.go, "The
// packages"): a package imports only packages of this module in the
// layers below its own, so that no import runs back up. Every package of
// the module is listed; a new one must find its place here.
var layers = [][]string{
	{"internal/jsonfast", "internal/jsonvalue", "internal/errorsort", "internal/semantic", "internal/kubeversion", "internal/objpath", "internal/golden", "internal/shareddata"},
	{"internal/yamlfast", "internal/objdiff"},
	{"schema"},
	{"intorstring"},
	{"structural"},
	{"prune"},
	{"defaulting"},
	{"embedded"},
	{"validation"},
	{"conversion", "serving", "internal/sample"}, // the rooms of issues 21 and 22, on the light chain
	{"revision/internal/revdiff"},                // the changes between two revisions' schemas (issue 24), on the light chain
	{"internal/model"},
	{"internal/cel", "internal/celhint"}, // internal/celhint: what a rule says about its values, from its syntax (issue 30)
	{"internal/check"},
	{""},         // the root: the engine's front door
	{"revision"}, // what revisions of a CRD do to stored objects, on the root's public entries (issue 28)
	{"layout"},   // the roles of a repository's files, for linters (issue 29); imports no package of this module
	{"cmd/crdschema"},
}

const modulePath = "github.com/crdschema/crdschema"

// modulePackages lists the module's packages with their non-test imports
// and whether they are internal.
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		rel := strings.TrimPrefix(strings.TrimPrefix(f[0], modulePath), "/")
		var imps []string
		for _, imp := range f[1:] {
			if imp == modulePath || strings.HasPrefix(imp, modulePath+"/") {
				imps = append(imps, strings.TrimPrefix(strings.TrimPrefix(imp, modulePath), "/"))
			}
		}
		pkgs[rel] = imps
	}
	return pkgs
}

// TestLayersOneWay holds the layers: every import of a package of this
// module is of a package in a lower layer, and the command imports no
// internal package (it uses the public entries, so that the library and
// the command answer the same by construction).
func TestLayersOneWay(t *testing.T) {
	level := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			level[p] = i
		}
	}
	pkgs := modulePackages(t)
	if len(pkgs) < 20 {
		t.Fatalf("only %d packages listed", len(pkgs))
	}
	for p, imps := range pkgs {
		lp, ok := level[p]
		if !ok {
			t.Errorf("package %q has no layer in deps_test.go", p)
			continue
		}
		for _, imp := range imps {
			if li, ok := level[imp]; !ok || li >= lp {
				t.Errorf("%q (layer %d) imports %q (layer %d): imports run down only", p, lp, imp, li)
			}
			if p == "cmd/crdschema" && strings.HasPrefix(imp, "internal/") {
				t.Errorf("cmd/crdschema imports %s: the command uses public packages only", imp)
			}
		}
	}
}

// TestNoInit: no package of the library has an init function (hidden
// wiring between packages; package-level variables initialise
// themselves).
func TestNoInit(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}} {{join .GoFiles \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		for _, name := range f[1:] {
			n++
			file, err := parser.ParseFile(token.NewFileSet(), filepath.Join(f[0], name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
					t.Errorf("%s: func init", filepath.Join(f[0], name))
				}
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d files parsed", n)
	}
}

// TestLightChainModules: a program importing schema, structural, prune
// and defaulting (parse, build, rules 1–4, prune, default) links at most 5
// modules besides this one and the standard library, and no CEL.
func TestLightChainModules(t *testing.T) {
	mods := map[string]bool{}
	fields := goListDeps(t, "./schema", "./structural", "./prune", "./defaulting")
	for i := 0; i+1 < len(fields); i += 2 {
		if strings.HasPrefix(fields[i], "github.com/google/cel-go") || strings.HasPrefix(fields[i], "cel.dev/") {
			t.Errorf("the light chain links %s", fields[i])
		}
		if m := fields[i+1]; m != modulePath {
			mods[m] = true
		}
	}
	if len(mods) > 5 {
		t.Errorf("schema, structural, prune and defaulting link %d modules, want at most 5: %v", len(mods), mods)
	}
	t.Logf("schema, structural, prune, defaulting link %d modules: %v", len(mods), mods)
}
