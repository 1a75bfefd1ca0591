package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/shareddata"
)

// TestCheckLintCorpus runs check -o json --lint-fail over every CRD of the
// corpus: it reports exactly the two lint findings CRD.Lint finds there
// (TestLintCorpus), positioned in their files, and fails the run (the
// corpus's rejected v1beta1 CRDs fail it too, and get no lint).
func TestCheckLintCorpus(t *testing.T) {
	dir := shareddata.Dir(t, "corpus")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "crds", "*.yaml"))
	if len(files) == 0 {
		shareddata.Missing(t, filepath.Join(dir, "*", "crds"))
	}
	t.Chdir(dir)
	for i, f := range files {
		files[i], _ = filepath.Rel(dir, f)
	}
	var out, errb bytes.Buffer
	status := run(append([]string{"check", "--lint-fail", "-o", "json"}, files...), strings.NewReader(""), &out, &errb)
	if status != 1 || errb.Len() > 0 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", status, errb.String())
	}
	var got []string
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r checkResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Errors) > 0 && len(r.Lint) > 0 {
			t.Errorf("%s: lint findings beside apiserver errors (CRD.Lint is nil for a rejected CRD)", r.File)
		}
		for _, l := range r.Lint {
			if l.Line == 0 || l.Column == 0 {
				t.Errorf("%s: %s is not placed", r.File, l.Field)
			}
			got = append(got, r.File+" "+l.Field+" "+l.PrinterColumn+" "+l.Path+" "+l.Schema)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{
		// openshift's controlplanemachinesets reads its label selector
		// from .status.labelSelector, which its schema does not declare.
		"openshift-api/crds/controlplanemachinesets.machine.openshift.io.yaml spec.versions[0].subresources.scale.labelSelectorPath  .status.labelSelector .status.labelSelector",
		// velero's podvolumebackups Node column reads .status.node; node
		// is under spec.
		"velero/crds/podvolumebackups.velero.io.yaml spec.versions[0].additionalPrinterColumns[7].jsonPath Node .status.node .status.node",
	}
	if !slices.Equal(got, want) {
		t.Errorf("lint findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
