package oracle_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/conformance/oracle"
)

// TestUndecodableCRDIsInputError pins the contract's common rule for every
// verb that takes --crd: a CRD the apiserver cannot decode (here a
// fieldPath that YAML 1.1 reads as the number 0.1) is an input error,
// exit 2, named on stderr. The served verbs (columns, scale) once skipped
// it silently, which CI's served difftest found (seed 1795820349).
func TestUndecodableCRDIsInputError(t *testing.T) {
	dir := t.TempDir()
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: size(self) >= 0
          fieldPath: .1
`
	obj := "apiVersion: other.example.com/v1\nkind: Gadget\nmetadata: {name: g}\n"
	for name, text := range map[string]string{"crd.yaml": crd, "obj.yaml": obj} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"apply", "--crd", "crd.yaml", "-o", "json", "obj.yaml"},
		{"convert", "--crd", "crd.yaml", "--to", "v1", "-o", "json", "obj.yaml"},
		{"columns", "--crd", "crd.yaml", "-o", "json", "obj.yaml"},
		{"scale", "--crd", "crd.yaml", "-o", "json", "obj.yaml"},
		{"openapi", "--crd", "crd.yaml", "-o", "json"},
	} {
		var stdout, stderr bytes.Buffer
		code := oracle.Run(context.Background(), oracle.Env{Dir: dir, Stdout: &stdout, Stderr: &stderr}, args)
		if code != oracle.ExitInput || !strings.Contains(stderr.String(), "crd.yaml:1: document 0: cannot decode CustomResourceDefinition") {
			t.Errorf("%s: exit %d, want %d with the CRD's decode error; stderr:\n%s", args[0], code, oracle.ExitInput, stderr.String())
		}
	}
}
