package crdschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/golden"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/schema"
)

// loadCase reads a test case: its first document is a CRD (compiled at its
// first served version) or a bare schema, the others are objects.
func loadCase(t testing.TB, file string) (*Schema, []map[string]any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := schema.ReadDocuments(file, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatalf("%s: no documents", file)
	}
	var s *Schema
	if model.IsCRD(docs[0].Object) {
		crd, err := model.DecodeCRD(docs[0].JSON())
		if err != nil {
			t.Fatal(err)
		}
		c := newCRD(crd)
		if errs := c.Errors(); len(errs) > 0 {
			t.Fatalf("%s: CRD has errors: %v", file, errs)
		}
		s, err = c.Version(c.ServedVersions()[0])
		if err != nil {
			t.Fatal(err)
		}
	} else {
		p := &model.Props{}
		if err := model.DecodeProps(docs[0].JSON(), p); err != nil {
			t.Fatal(err)
		}
		if s, err = compileSchema(p); err != nil {
			t.Fatal(err)
		}
	}
	var objs []map[string]any
	for _, d := range docs[1:] {
		objs = append(objs, d.Object)
	}
	return s, objs
}

type goldenLine struct {
	Object any         `json:"object"`
	Pruned []string    `json:"pruned"`
	Errors []goldenErr `json:"errors"`
}

type goldenErr struct {
	Type   string `json:"type"`
	Field  string `json:"field"`
	Detail string `json:"detail"`
}

func render(r Result) goldenLine {
	l := goldenLine{Pruned: r.Pruned, Errors: []goldenErr{}}
	if r.Object != nil {
		l.Object = r.Object
	}
	for _, e := range r.Errors {
		l.Errors = append(l.Errors, goldenErr{string(e.Type), e.Field, e.Detail})
	}
	return l
}

// TestGolden applies every object of each testdata/apply case and compares
// the results with <case>.golden (rewrite with -update, then review the
// diff).
func TestGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "apply"), func(t *testing.T, f string, _ []byte) string {
		s, objs := loadCase(t, f)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		for _, o := range objs {
			if err := enc.Encode(render(s.Apply(o))); err != nil {
				t.Fatal(err)
			}
		}
		return buf.String()
	})
}

func errPairs(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, string(e.Type)+" "+e.Field)
	}
	return out
}

// TestCronTab checks the documentation's CronTab examples: pruning and
// defaulting of a good object, and the two documented errors.
func TestCronTab(t *testing.T) {
	s, objs := loadCase(t, filepath.Join("testdata", "apply", "crontab.yaml"))

	r := s.Apply(objs[0])
	if len(r.Errors) > 0 {
		t.Errorf("errors %v", r.Errors)
	}
	if !reflect.DeepEqual(r.Pruned, []string{"spec.someRandomField"}) {
		t.Errorf("pruned %q, want spec.someRandomField", r.Pruned)
	}
	spec, _ := r.Object["spec"].(map[string]any)
	if spec["replicas"] != int64(1) || spec["cronSpec"] != "* * * * */5" {
		t.Errorf("spec %v, want replicas defaulted to 1 and cronSpec kept", spec)
	}

	r = s.Apply(objs[1])
	spec, _ = r.Object["spec"].(map[string]any)
	if spec["cronSpec"] != "5 0 * * *" || spec["replicas"] != int64(1) {
		t.Errorf("spec %v, want both defaults", spec)
	}

	r = s.Apply(objs[2])
	want := []string{"FieldValueInvalid spec.cronSpec", "FieldValueInvalid spec.replicas"}
	if got := errPairs(r.Errors); !reflect.DeepEqual(got, want) {
		t.Errorf("errors %v, want %v", r.Errors, want)
	}
	if r.Object == nil {
		t.Error("an invalid object is still returned as it would be validated")
	}
	for _, e := range r.Errors {
		if e.Field == "spec.replicas" && e.Detail != "spec.replicas in body should be less than or equal to 10" {
			t.Errorf("detail %q", e.Detail)
		}
	}
}

// TestRejectsMalformedMetadata: malformed metadata is not repaired on
// create, the request is rejected at the metadata's path.
func TestRejectsMalformedMetadata(t *testing.T) {
	s, objs := loadCase(t, filepath.Join("testdata", "apply", "metadata.yaml"))
	for i, wantField := range []string{"metadata", "metadata", "spec.template.metadata", "spec.template.apiVersion"} {
		r := s.Apply(objs[i])
		if r.Object != nil {
			t.Errorf("object %d: not rejected: %v", i, r.Object)
		}
		if len(r.Errors) != 1 || r.Errors[0].Type != field.ErrorTypeInvalid || r.Errors[0].Field != wantField {
			t.Errorf("object %d: errors %v, want one FieldValueInvalid at %s", i, r.Errors, wantField)
		}
		if r.Pruned == nil || len(r.Pruned) != 0 {
			t.Errorf("object %d: pruned %q, want []", i, r.Pruned)
		}
		// Prune (a read from storage) drops malformed fields instead; only
		// root metadata that is no object at all fails there too.
		if p := s.Prune(objs[i]); (p.Object == nil) != (i == 0) || (len(p.Errors) > 0) != (i == 0) {
			t.Errorf("object %d: Prune gave %v, %v", i, p.Object, p.Errors)
		}
	}
}

// TestInputsNotChanged: Apply, Prune, Default and Validate leave their
// input alone and share nothing with it.
func TestInputsNotChanged(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "apply", "*.yaml"))
	for _, f := range files {
		s, objs := loadCase(t, f)
		for i, o := range objs {
			before := deepCopyMap(o)
			for _, r := range []Result{s.Apply(o), s.Prune(o), s.Default(o)} {
				if r.Object != nil {
					r.Object["__mark"] = true
				}
			}
			s.Validate(o)
			if !reflect.DeepEqual(o, before) {
				t.Errorf("%s #%d: input changed:\n%v\nwant\n%v", f, i, o, before)
			}
		}
	}
}

// TestConcurrentUse applies one compiled schema from many goroutines (run
// with -race).
func TestConcurrentUse(t *testing.T) {
	s, objs := loadCase(t, filepath.Join("testdata", "apply", "crontab.yaml"))
	want := make([]string, len(objs))
	for i, o := range objs {
		want[i] = fmt.Sprint(render(s.Apply(o)))
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 20; n++ {
				for i, o := range objs {
					if got := fmt.Sprint(render(s.Apply(o))); got != want[i] {
						t.Errorf("object %d: %s, want %s", i, got, want[i])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

func TestLoadCRD(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "examples", "crds", "crontab-crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadCRD(data)
	if err != nil {
		t.Fatal(err)
	}
	if c.Name() != "crontabs.stable.example.com" || len(c.Errors()) != 0 {
		t.Errorf("name %q, errors %v", c.Name(), c.Errors())
	}
	if _, err := c.Version("v2"); err == nil {
		t.Error("v2 is not defined and must not compile")
	}
	if _, err := LoadCRD([]byte("a: b\n")); err == nil {
		t.Error("a document that is not a CRD must fail")
	}
	if _, err := LoadCRD(append(append(data, "\n---\n"...), data...)); err == nil {
		t.Error("two CRDs must fail")
	}
	data, err = os.ReadFile(filepath.Join("testdata", "examples", "crds", "nonstructural-crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if c, err = LoadCRD(data); err != nil {
		t.Fatal(err)
	}
	if len(c.Errors()) == 0 {
		t.Error("the NonStructural example must have errors")
	}
}

// TestConcurrentVersions compiles two versions sharing their rules (one
// CompileCache per CRD) from concurrent goroutines and applies objects to
// both (run with -race); each version reports its rule errors. It does
// so after Errors (the versions are built afresh) and with Version first
// (which runs the check and takes over what it built), beside OpenAPI.
func TestConcurrentVersions(t *testing.T) {
	const version = `
  - name: %s
    served: true
    storage: %t
    schema:
      openAPIV3Schema:
        type: object
        description: %s
        properties:
          spec:
            type: object
            properties:
              count: {type: integer}
              l: {type: array, maxItems: 4, items: {type: object, properties: {count: {type: integer}}, x-kubernetes-validations: [{rule: "self.count > 0", message: "count must be positive"}]}}
            x-kubernetes-validations: [{rule: "self.count > 0", message: "count must be positive"}]
`
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: things, singular: thing, kind: Thing, listKind: ThingList}
  versions:` + fmt.Sprintf(version, "v1", true, "one") + fmt.Sprintf(version, "v2", false, "two")
	for _, errorsFirst := range []bool{true, false} {
		c, err := LoadCRD([]byte(crd))
		if err != nil {
			t.Fatal(err)
		}
		if errorsFirst && len(c.Errors()) != 0 {
			t.Fatalf("CRD errors: %v", c.Errors())
		}
		applyConcurrently(t, c)
		if errs := c.Errors(); len(errs) != 0 {
			t.Fatalf("CRD errors: %v", errs)
		}
	}
}

// applyConcurrently compiles c's versions v1 and v2 and applies an object
// with two rule errors to each, from concurrent goroutines, beside calls of
// OpenAPI.
func applyConcurrently(t *testing.T, c *CRD) {
	t.Helper()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := []string{"v1", "v2"}[g%2]
			if g >= 6 {
				if _, _, err := c.OpenAPI(v); err != nil {
					t.Error(err)
				}
				return
			}
			s, err := c.Version(v)
			if err != nil {
				t.Error(err)
				return
			}
			for n := 0; n < 10; n++ {
				obj := map[string]any{"apiVersion": "example.com/" + v, "kind": "Thing", "metadata": map[string]any{"name": "a", "namespace": "d"},
					"spec": map[string]any{"count": int64(-1), "l": []any{map[string]any{"count": int64(1)}, map[string]any{"count": int64(0)}}}}
				got := fmt.Sprint(render(s.Apply(obj)).Errors)
				if !strings.Contains(got, "spec.l[1]") || strings.Count(got, "count must be positive") != 2 {
					t.Errorf("%s: %s", v, got)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestDeprecation pins the warning each version's requests get: the
// version's own deprecationWarning, else the apiserver's wording pointing at
// the highest-priority served, not deprecated version ranked above it (none
// for a version above them all), and nothing for versions that are not
// deprecated or not defined.
func TestDeprecation(t *testing.T) {
	crd, err := LoadCRD([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - {name: v1alpha1, served: true, storage: false, deprecated: true, schema: {openAPIV3Schema: {type: object}}}
  - {name: v1beta1, served: true, storage: false, deprecated: true, deprecationWarning: "v1beta1 goes away in 2027", schema: {openAPIV3Schema: {type: object}}}
  - {name: v1beta2, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
  - {name: v2, served: false, storage: false, schema: {openAPIV3Schema: {type: object}}}
  - {name: v3, served: true, storage: false, deprecated: true, schema: {openAPIV3Schema: {type: object}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if errs := crd.Errors(); len(errs) > 0 {
		t.Fatalf("CRD rejected: %v", errs)
	}
	for version, want := range map[string]string{
		"v1alpha1": "example.com/v1alpha1 Widget is deprecated; use example.com/v1 Widget",
		"v1beta1":  "v1beta1 goes away in 2027",
		"v1beta2":  "",
		"v1":       "",
		"v2":       "",
		"v3":       "example.com/v3 Widget is deprecated",
		"v9":       "",
	} {
		if got := crd.Deprecation(version); got != want {
			t.Errorf("Deprecation(%q) = %q, want %q", version, got, want)
		}
	}
}
