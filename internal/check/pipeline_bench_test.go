package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// BenchmarkCRDWorkflowsFromYAML is bench/'s crdschema side of
// CRDFromYAML for the largest corpus CRD: read, decode, check, build.
func BenchmarkCRDWorkflowsFromYAML(b *testing.B) {
	benchFromYAML(b, filepath.Join(shareddata.Dir(b, "corpus"), "argo-workflows", "crds", "workflows.argoproj.io.yaml"))
}

// BenchmarkCRDAllFromYAML is the same over every corpus CRD file.
func BenchmarkCRDAllFromYAML(b *testing.B) {
	benchFromYAML(b, filepath.Join(shareddata.Dir(b, "corpus"), "*", "crds", "*.yaml"))
}

// benchFromYAML reads, decodes, checks and builds every CRD of the files
// matching pattern, per iteration.
func benchFromYAML(b *testing.B, pattern string) {
	files, _ := filepath.Glob(pattern)
	if len(files) == 0 {
		b.Skip("corpus absent")
	}
	var datas [][]byte
	var n int64
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		datas = append(datas, d)
		n += int64(len(d))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range datas {
			docs, err := schema.ReadDocuments("crd", data)
			if err != nil {
				b.Fatal(err)
			}
			for _, d := range docs {
				crd, err := model.DecodeCRDDocument(d)
				if err != nil {
					b.Fatal(err)
				}
				_, built := CRD(crd)
				for _, v := range crd.Spec.Versions {
					if p := crd.SchemaFor(v.Name); p != nil && built.Structural(p) == nil {
						structural.New(p)
					}
				}
			}
		}
	}
}

// BenchmarkCRDDeepChain checks a CRD whose schema is a chain of 400
// objects, each with the same rule: the compile cache's lookups compared
// each node with every entry down to the chain's end, which made the
// check cubic in the depth (6.3 s at depth 400 from the command; the
// apiserver's code takes 0.6 s).
func BenchmarkCRDDeepChain(b *testing.B) {
	var chain strings.Builder
	const depth = 400
	for range depth {
		chain.WriteString(`{"type":"object","x-kubernetes-validations":[{"rule":"true"}],"properties":{"a":`)
	}
	chain.WriteString(`{"type":"string"}`)
	for range depth {
		chain.WriteString(`}}`)
	}
	data := []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",` +
		`"metadata":{"name":"deeps.example.com"},"spec":{"group":"example.com","scope":"Namespaced",` +
		`"names":{"kind":"Deep","plural":"deeps"},"versions":[{"name":"v1","served":true,"storage":true,` +
		`"schema":{"openAPIV3Schema":` + chain.String() + `}}]}}`)
	b.ReportAllocs()
	for b.Loop() {
		crd, err := model.DecodeCRD(data)
		if err != nil {
			b.Fatal(err)
		}
		if errs, _ := CRD(crd); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
