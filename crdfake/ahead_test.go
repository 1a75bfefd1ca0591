package crdfake

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/crdschema/crdschema"
)

// TestReadAheadAgrees reads every corpus CRD file ahead and decoded: the
// scan finds the same CRDs, in the same documents at the same lines, with
// the names the decoded CRDs have, or gives up on the file. It counts the
// files read ahead, so that a scan giving up on everything fails.
func TestReadAheadAgrees(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	corpus := filepath.Join(filepath.Dir(file), "..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		if os.Getenv("CRDSCHEMA_REQUIRE_SHARED") == "1" {
			t.Fatalf("shared test data missing at %s (%s=1)", corpus, "CRDSCHEMA_REQUIRE_SHARED")
		}
		t.Skipf("shared test data not found at %s: skipping (it sits beside the checkout in CI)", corpus)
	}
	files, _ := filepath.Glob(filepath.Join(corpus, "*", "crds", "*"))
	ahead, crds := 0, 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		found, ok := readAhead(data)
		if !ok {
			continue
		}
		ahead++
		crds += len(found)
		agree(t, name, data, found)
	}
	t.Logf("%d of %d corpus CRD files read ahead (%d CRDs)", ahead, len(files), crds)
	if ahead < len(files)*3/4 {
		t.Errorf("only %d of %d corpus CRD files read ahead", ahead, len(files))
	}
}

// agree compares the CRDs read ahead from a file with its decoding, and
// decodes each as kind.decode does.
func agree(t *testing.T, name string, data []byte, found []aheadDoc) {
	t.Helper()
	docs, err := crdschema.ReadDocuments(name, data)
	if err != nil {
		t.Errorf("%s: read ahead, but it cannot be read: %v", name, err)
		return
	}
	var want []*crdschema.Document
	for i := range docs {
		if docs[i].IsCRD() {
			want = append(want, &docs[i])
		}
	}
	if len(want) != len(found) {
		t.Errorf("%s: %d CRDs read ahead, %d decoded", name, len(found), len(want))
		return
	}
	for i, d := range want {
		crd, err := d.CRD()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		f := &found[i]
		if n := namesOf(crd); !n.equal(&f.names) || d.Index != f.index || d.Line != f.line {
			t.Errorf("%s: CRD %d read ahead as %+v (document %d, line %d), decoded as %+v (document %d, line %d)", name, i, f.names, f.index, f.line, n, d.Index, d.Line)
		}
		k := &kind{names: f.names, at: name, file: name, text: f.text, index: f.index, line: f.line}
		got, err := k.decode()
		if err != nil {
			t.Errorf("%s: CRD %d decoded from its document: %v", name, i, err)
			continue
		}
		if got.Position() != crd.Position() || got.Name() != crd.Name() {
			t.Errorf("%s: CRD %d decoded from its document as %s at %+v, from the file as %s at %+v", name, i, got.Name(), got.Position(), crd.Name(), crd.Position())
		}
	}
}
