package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/shareddata"
)

// BenchmarkApplyManyCRDs is `crdschema apply -o json` of one object (a
// flux Kustomization) with every corpus CRD (389 files, 33 MB; the
// gateway-api experimental channel left out, whose names repeat the
// standard channel's): "flags" gives the CRDs with --crd, one per project
// directory; "repository" is a directory holding the CRDs and the object,
// as a repository is linted (the CRDs among the objects, two passes).
// Only the routed CRD is checked and compiled; what is left is reading.
// "corpus" is the whole corpus as one repository, CRDs and examples (the
// experimental channel included: 13 CRDs defined twice with differing
// specs, which the run warns about); some examples have errors (exit 1).
func BenchmarkApplyManyCRDs(b *testing.B) {
	corpus := shareddata.Dir(b, "corpus")
	dirs, _ := filepath.Glob(filepath.Join(corpus, "*", "crds"))
	obj := filepath.Join(corpus, "flux-kustomize-controller", "examples", "config__samples__kustomize_v1_kustomization.yaml")
	flags := []string{"apply", "-o", "json"}
	repo := b.TempDir()
	for _, d := range dirs {
		project := filepath.Base(filepath.Dir(d))
		if strings.Contains(project, "gateway-api-experimental") {
			continue
		}
		flags = append(flags, "--crd", d)
		files, _ := filepath.Glob(filepath.Join(d, "*"))
		for _, f := range files {
			copyFile(b, f, filepath.Join(repo, project, filepath.Base(f)))
		}
	}
	copyFile(b, obj, filepath.Join(repo, "kustomization.yaml"))
	for _, tc := range []struct {
		name    string
		args    []string
		maxExit int
	}{
		{"flags", append(flags, obj), 0},
		{"repository", []string{"apply", "-o", "json", repo}, 0},
		{"corpus", []string{"apply", "-o", "json", "--exclude", "MANIFEST.json", "--exclude", "README.md", "--exclude", "expected", corpus}, 1},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if code := run(tc.args, nil, io.Discard, io.Discard); code > tc.maxExit {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

func copyFile(b *testing.B, from, to string) {
	data, err := os.ReadFile(from)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(to), 0o755)
	}
	if err == nil {
		err = os.WriteFile(to, data, 0o644)
	}
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkApplyProject is one invocation of bench/cmd/peers' run,
// `crdschema apply -o json --crd P/crds P/examples`, in process, for the
// three corpus projects that cost it most (issue 32). allocs/op are what
// to compare: a process pays its package init and first-use caches once,
// which repeated runs in one process do not.
func BenchmarkApplyProject(b *testing.B) {
	corpus := shareddata.Dir(b, "corpus")
	for _, p := range []string{"argo-workflows", "prometheus-operator", "gateway-api"} {
		args := []string{"apply", "-o", "json", "--crd", filepath.Join(corpus, p, "crds"), filepath.Join(corpus, p, "examples")}
		b.Run(p, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if code := run(args, nil, io.Discard, io.Discard); code > 1 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

// BenchmarkPublish is `crdschema jsonschema` and `crdschema openapi` of
// every corpus CRD (one --crd per project directory): each checks every
// CRD (Errors) and then publishes its versions from their structural
// models, which the check has built on its way (issue 32).
func BenchmarkPublish(b *testing.B) {
	dirs, _ := filepath.Glob(filepath.Join(shareddata.Dir(b, "corpus"), "*", "crds"))
	var crds []string
	for _, d := range dirs {
		crds = append(crds, "--crd", d)
	}
	out := b.TempDir()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"jsonschema", append([]string{"jsonschema", "--out", out}, crds...)},
		{"openapi", append([]string{"openapi"}, crds...)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if code := run(tc.args, nil, io.Discard, io.Discard); code > 1 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
