package schema

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/crdschema/crdschema/internal/shareddata"
)

func benchFile(b *testing.B) []byte {
	data, err := os.ReadFile(filepath.Join(shareddata.Dir(b, "corpus"), "argo-workflows", "crds", "workflows.argoproj.io.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func BenchmarkReadWorkflowsYAML(b *testing.B) { benchRead(b, benchFile(b)) }

func BenchmarkReadWorkflowsJSON(b *testing.B) {
	docs, err := ReadDocuments("f", benchFile(b))
	if err != nil {
		b.Fatal(err)
	}
	benchRead(b, docs[0].JSON())
}

// benchRead reads data by the fast and the exact reader, side by side.
func benchRead(b *testing.B, data []byte) {
	for _, side := range []struct {
		name string
		f    func(string, []byte) ([]Document, error)
	}{{"fast", ReadDocuments}, {"exact", readDocumentsExact}} {
		b.Run(side.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := side.f("f", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
