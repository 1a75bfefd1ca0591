package crdschema_test

import (
	"os"
	"path/filepath"
	"testing"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/shareddata"
)

// TestLintCorpus runs CRD.Lint over every corpus CRD and logs what real
// projects get wrong in their printer columns and scale paths. The count
// is pinned so that a change of the lint shows.
func TestLintCorpus(t *testing.T) {
	dir := shareddata.Dir(t, "corpus")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "crds", "*.yaml"))
	if len(files) == 0 {
		shareddata.Missing(t, filepath.Join(dir, "*", "crds"))
	}
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		crds, err := crdschema.LoadCRDs(f, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range crds {
			for _, e := range c.Lint() {
				rel, _ := filepath.Rel(dir, f)
				t.Logf("%s: %s: %v", rel, c.Name(), e)
				n++
			}
		}
	}
	t.Logf("%d findings in %d CRD files", n, len(files))
	// velero's podvolumebackups column .status.node (node is under spec)
	// and openshift's controlplanemachinesets labelSelectorPath
	// .status.labelSelector (undeclared).
	if n != 2 {
		t.Errorf("%d findings, want the 2 known ones", n)
	}
}
