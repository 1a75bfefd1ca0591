package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/internal/golden"
)

// TestRevisionGolden runs every testdata/revision/cases/*.yaml
// ({args: [...]}) inside testdata/revision, whose old/ and new/ hold real
// corpus CRDs (cert-manager's Certificate, cluster-api's IPAddress) and
// new revisions made by editing them (see testdata/revision/README.md),
// and compares exit status, stdout and stderr with the .golden file.
func TestRevisionGolden(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "revision"))
	if err != nil {
		t.Fatal(err)
	}
	golden.Run(t, filepath.Join(dir, "cases"), func(t *testing.T, path string, data []byte) string {
		var c struct {
			Args []string `json:"args"`
		}
		if err := yaml.UnmarshalStrict(data, &c); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		var out, errb bytes.Buffer
		status := run(c.Args, strings.NewReader(""), &out, &errb)
		return fmt.Sprintf("$ crdschema %s\nexit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(c.Args, " "), status, out.String(), errb.String())
	})
}
