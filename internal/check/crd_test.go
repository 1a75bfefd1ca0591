package check

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/golden"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// TestCRDGolden checks every CRD of testdata/crd/<case>.yaml and compares
// the sorted errors with <case>.golden. Run with -update to rewrite the
// golden files after checking the differences by hand.
func TestCRDGolden(t *testing.T) {
	golden.Run(t, filepath.Join("..", "..", "testdata", "crd"), func(t *testing.T, file string, data []byte) string {
		return checkCRDFile(t, filepath.Base(file), data)
	})
}

// checkCRDFile renders the errors of every CRD in the file name holding
// data: a header line per document, then one line per error.
func checkCRDFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	docs, err := schema.ReadDocuments(name, data)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range docs {
		crd, err := model.DecodeCRD(d.JSON())
		if err != nil {
			t.Fatalf("document %d: %v", d.Index, err)
		}
		errs, _ := CRD(crd)
		errorsort.Sort(errs)
		fmt.Fprintf(&b, "# %d %s: %d errors\n", d.Index, crd.Metadata.Name, len(errs))
		for _, e := range errs {
			fmt.Fprintf(&b, "%s %s: %s\n", e.Type, e.Field, stableDetail(e.Detail))
		}
	}
	return b.String()
}

func TestCompareHelpers(t *testing.T) {
	if !isApprovalURL("https://github.com/kubernetes/kubernetes/pull/1") {
		t.Error("URL not accepted")
	}
	for _, s := range []string{"", "github.com/x", "/just/a/path", "https://"} {
		if isApprovalURL(s) {
			t.Errorf("isApprovalURL(%q) = true", s)
		}
	}
	for g, want := range map[string]bool{
		"k8s.io": true, "x.k8s.io": true, "kubernetes.io": true, "a.b.kubernetes.io": true,
		"xk8s.io": false, "example.com": false, "k8s.io.example.com": false,
	} {
		if got := isProtectedGroup(g); got != want {
			t.Errorf("isProtectedGroup(%q) = %v, want %v", g, got, want)
		}
	}
}

func TestSelectableFieldPath(t *testing.T) {
	crdJSON := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"foos.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"foos","kind":"Foo"},"versions":[{"name":"v1","served":true,"storage":true,
"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{
  "s":{"type":"string"},"m":{"type":"object","additionalProperties":{"type":"integer"}},"b":{"type":"object","additionalProperties":true}}}}}}}]}}`
	crd, err := model.DecodeCRD([]byte(crdJSON))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, wantPath, wantType, wantErr string
	}{
		{".spec.s", "spec.s", "string", ""},
		{".spec.m.key", "spec.m[key]", "integer", ""},
		{".spec.b.key", "spec.b[key]", "", ""},
		{".spec.b.key.deeper", "", "", "does not refer to a valid field"},
		{".spec.x", "", "", "does not refer to a valid field"},
		{".spec.s.x", "", "", "does not refer to a valid field"},
		{".spec['s']", "", "", "array notation is not allowed"},
		{"spec.s", "", "", "expected [ or . but got: spec"},
		{".spec.", "", "", "unexpected end of JSON path"},
	}
	s, err := structural.New(crd.Spec.Validation.OpenAPIV3Schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		p, found, err := cel.ResolveFieldPath(s, tt.path, false)
		switch {
		case tt.wantErr != "":
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%q: error %v, want %q", tt.path, err, tt.wantErr)
			}
		case err != nil:
			t.Errorf("%q: unexpected error %v", tt.path, err)
		case p.String() != tt.wantPath:
			t.Errorf("%q: path %s, want %s", tt.path, p, tt.wantPath)
		case (found == nil) != (tt.wantType == "") || (found != nil && found.Type != tt.wantType):
			t.Errorf("%q: schema %+v, want type %q", tt.path, found, tt.wantType)
		}
	}
}

func TestAnnotationsSize(t *testing.T) {
	const maxAnnotationsSize = 256 * 1024
	meta := func(n int) field.ErrorList {
		crd := &model.CRD{Metadata: model.ObjectMeta{Name: "ws.example.com", Annotations: map[string]string{"k": strings.Repeat("x", n)}}}
		crd.Spec.Names.Plural, crd.Spec.Group = "ws", "example.com"
		return validateCRDMetadata(crd, field.NewPath("metadata"))
	}
	if errs := meta(maxAnnotationsSize - 1); len(errs) != 0 {
		t.Errorf("at the limit: %v", errs)
	}
	errs := meta(maxAnnotationsSize)
	if len(errs) != 1 || errs[0].Type != field.ErrorTypeTooLong || errs[0].Field != "metadata.annotations" ||
		errs[0].Detail != "may not be more than 262144 bytes" {
		t.Errorf("over the limit: %v", errs)
	}
}
