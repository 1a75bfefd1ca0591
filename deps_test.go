package crdschema_test

import (
	"os/exec"
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
// internal/check, the module root and package check (which wraps the root)
// link cel-go and the apiserver's CEL libraries.
func TestLightPackagesDoNotLinkCEL(t *testing.T) {
	for _, pkg := range []string{"./schema", "./structural", "./prune", "./defaulting", "./validation", "./embedded", "./intorstring", "./conversion", "./internal/sample"} {
		for _, dep := range goListDeps(t, pkg) {
			if strings.HasPrefix(dep, "github.com/google/cel-go") || strings.HasPrefix(dep, "k8s.io/apiserver") || strings.HasPrefix(dep, "cel.dev/") {
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
