package check

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// TestRulesCompiledOnce checks that a CRD's rules are compiled once for
// its check, the check of its defaults and its versions' validators
// together: the defaults' validator compiles a defaulted node's rules
// first (defaults are checked before the rules), the rules' check takes
// those results, and the validators of both versions (equal schemas)
// compile nothing.
func TestRulesCompiledOnce(t *testing.T) {
	const version = `
  - name: %s
    served: true
    storage: %s
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.replicas <= self.max"
            properties:
              replicas:
                type: integer
                default: 1
                x-kubernetes-validations:
                - rule: "self >= 0"
                  messageExpression: "'replicas must not be negative'"
              max:
                type: integer
`
	crd := decodeCRD(t, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:`+fmt.Sprintf(version, "v1", "true")+fmt.Sprintf(version, "v2", "false"))
	// The defaults' check alone compiles the defaulted node's rule.
	alone := cel.NewCompileCache()
	if errs := validateDefaults(nil, mustStructuralProps(t, crd.SchemaFor("v1")), alone, true); len(errs) > 0 {
		t.Fatalf("defaults: %v", errs)
	}
	if n := alone.Len(); n != 1 {
		t.Errorf("the defaults' check compiled %d rule sets, want 1", n)
	}
	errs, built := CRD(crd)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	// One result per distinct set of rules on a node type: spec's rule and
	// replicas' rule (compiled by the defaults' validator, taken by the
	// check and by v2, whose schema equals v1's).
	if n := built.Rules.Len(); n != 2 {
		t.Errorf("the check compiled %d rule sets, want 2", n)
	}
	for _, v := range crd.Spec.Versions {
		s := built.Structural(crd.SchemaFor(v.Name))
		if s == nil {
			t.Fatalf("no structural model of %s", v.Name)
		}
		cv := cel.NewValidator(s, true, built.Rules)
		if cv == nil {
			t.Fatalf("no validator for %s", v.Name)
		}
		// A validator compiles a node when a value first reaches it:
		// compile them all now.
		cv.CompileAll()
	}
	if n := built.Rules.Len(); n != 2 {
		t.Errorf("after the versions' validators: %d rule sets, want 2", n)
	}
}

func mustStructuralProps(t *testing.T, p *model.Props) *structural.Schema {
	t.Helper()
	s, err := structural.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCorpusVersionsCompileNothing checks, on every corpus CRD the
// apiserver accepts, that the validators of its versions, given what the
// check built, compile no rule again: every rule they evaluate was
// compiled by the check (or the check of its defaults).
func TestCorpusVersionsCompileNothing(t *testing.T) {
	checked, validators := 0, 0
	eachCorpusCRD(t, func(file string, crd *model.CRD) {
		errs, built := CRD(crd)
		if len(errs) > 0 {
			return
		}
		n := built.Rules.Len()
		for _, v := range crd.Spec.Versions {
			if s := built.Structural(crd.SchemaFor(v.Name)); s != nil {
				// Compiled as when values reach every node.
				cel.NewValidator(s, true, built.Rules).CompileAll()
				validators++
			}
		}
		if got := built.Rules.Len(); got != n {
			t.Errorf("%s (%s): the versions' validators compiled %d rule sets the check had not", file, crd.Metadata.Name, got-n)
		}
		checked++
	})
	t.Logf("%d accepted CRDs, %d versions' validators", checked, validators)
	// A Built that gave no structural schema would build no validator and
	// compare nothing.
	if checked > 0 && validators < checked {
		t.Errorf("%d validators built for %d accepted CRDs: every accepted CRD has at least one version", validators, checked)
	}
}

// eachCorpusCRD calls fn with every CRD of the corpus CRD files.
func eachCorpusCRD(t *testing.T, fn func(file string, crd *model.CRD)) {
	files, _ := filepath.Glob(filepath.Join(shareddata.Dir(t, "corpus"), "*", "crds", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no corpus CRD files")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := schema.ReadDocuments(f, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			crd, err := model.DecodeCRDDocument(d)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			fn(f, crd)
		}
	}
}
