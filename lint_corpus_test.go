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

// TestLintNegativePriority: the apiserver accepts a negative column
// priority, and kubectl get hides that column as it hides a positive one.
func TestLintNegativePriority(t *testing.T) {
	crds, err := crdschema.LoadCRDs("crd.yaml", []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gizmos.example.com}
spec:
  group: example.com
  names: {plural: gizmos, singular: gizmo, kind: Gizmo, listKind: GizmoList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Shown, type: string, jsonPath: .spec.a}
    - {name: Wide, type: string, jsonPath: .spec.a, priority: 1}
    - {name: Hidden, type: string, jsonPath: .spec.a, priority: -2}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {a: {type: string}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	got := crds[0].Lint()
	want := `spec.versions[0].additionalPrinterColumns[2].priority: Invalid value: -2: a negative priority hides the column from kubectl get as a positive one does: only priority 0 shows without -o wide`
	if len(got) != 1 || got[0].Error() != want {
		t.Errorf("Lint() = %v, want [%s]", got, want)
	}
}
