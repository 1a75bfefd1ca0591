package model

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/schema"
)

func benchFile(b *testing.B) []byte {
	data, err := os.ReadFile(filepath.Join(shareddata.Dir(b, "corpus"), "argo-workflows", "crds", "workflows.argoproj.io.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func BenchmarkDecodeWorkflowsCRD(b *testing.B) {
	docs, err := schema.ReadDocuments("f", benchFile(b))
	if err != nil {
		b.Fatal(err)
	}
	js := docs[0].JSON()
	for _, side := range []struct {
		name string
		f    func([]byte) (*CRD, error)
	}{{"fast", DecodeCRD}, {"exact", decodeCRDExact}} {
		b.Run(side.name, func(b *testing.B) {
			b.SetBytes(int64(len(js)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := side.f(js); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
