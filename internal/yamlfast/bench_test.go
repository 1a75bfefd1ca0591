package yamlfast

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/shareddata"
)

// BenchmarkDecodeCorpus decodes every document of the corpus CRD files,
// the load yamlfast carries in a CRD load, per iteration.
func BenchmarkDecodeCorpus(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(shareddata.Dir(b, "corpus"), "*", "crds", "*.yaml"))
	if len(files) == 0 {
		b.Fatal("no corpus CRD files")
	}
	var docs [][]byte
	var n int64
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		n += int64(len(data))
		for _, doc := range strings.Split(strings.TrimPrefix(string(data), "---\n"), "\n---\n") {
			docs = append(docs, []byte(doc))
		}
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			Decode(d)
		}
	}
}
