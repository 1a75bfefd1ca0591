package jsonfast

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/internal/shareddata"
)

// corpusObjects returns the JSON of the shared corpus's example objects.
func corpusObjects(b *testing.B) (docs [][]byte, n int64) {
	filepath.WalkDir(shareddata.Dir(b, "corpus"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, "/crds/") || !strings.HasSuffix(p, ".yaml") {
			return nil
		}
		data, _ := os.ReadFile(p)
		if js, err := yaml.YAMLToJSON(data); err == nil && len(js) > 0 && js[0] == '{' {
			docs = append(docs, js)
			n += int64(len(js))
		}
		return nil
	})
	if len(docs) == 0 {
		b.Skip("corpus absent")
	}
	return docs, n
}

// BenchmarkDecodeObjects decodes the corpus objects' JSON with the fast
// path and with apimachinery's decoder.
func BenchmarkDecodeObjects(b *testing.B) {
	docs, n := corpusObjects(b)
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range docs {
				if _, ok := Decode(d); !ok {
					b.Fatal("declined")
				}
			}
		}
	})
	b.Run("exact", func(b *testing.B) {
		b.SetBytes(n)
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range docs {
				var v any
				if err := kjson.Unmarshal(d, &v); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
