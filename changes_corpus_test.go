package crdschema_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/shareddata"
)

// corpusCRDs loads every corpus CRD twice: two revisions with the same
// text.
func corpusCRDs(t *testing.T) (olds, news []*crdschema.CRD) {
	t.Helper()
	dir := shareddata.Dir(t, "corpus")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "crds", "*.yaml"))
	if len(files) == 0 {
		shareddata.Missing(t, filepath.Join(dir, "*", "crds"))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a, err := crdschema.LoadCRDs(f, data)
		if err != nil {
			t.Fatal(err)
		}
		b, err := crdschema.LoadCRDs(f, data)
		if err != nil {
			t.Fatal(err)
		}
		olds, news = append(olds, a...), append(news, b...)
	}
	return olds, news
}

// TestChangesCorpusSelf: every corpus CRD compared with itself (the same
// text loaded twice) has no change.
func TestChangesCorpusSelf(t *testing.T) {
	olds, news := corpusCRDs(t)
	if len(olds) != 326 {
		t.Errorf("%d corpus CRDs, want 326", len(olds))
	}
	start := time.Now()
	for i := range olds {
		for _, c := range news[i].Changes(olds[i]) {
			t.Errorf("%s: %+v", olds[i].Name(), c)
		}
	}
	t.Logf("%d CRDs compared with themselves in %v", len(olds), time.Since(start))
}
