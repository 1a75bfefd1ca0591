package check

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/golden"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/schema"
)

// TestSchemaGolden checks every document of testdata/check/<case>.yaml and
// compares the sorted errors with <case>.golden: bare schemas with Schema,
// CRDs with CRD (keeping only the errors under openAPIV3Schema, the part
// this file answers for). Run with -update to rewrite the golden files
// after checking the differences by hand.
func TestSchemaGolden(t *testing.T) {
	golden.Run(t, filepath.Join("..", "..", "testdata", "check"), func(t *testing.T, file string, data []byte) string {
		return checkSchemaFile(t, filepath.Base(file), data)
	})
}

// checkSchemaFile renders the errors of every document in the file name
// holding data: a header line per document (with its leading comment, the
// case's description), then one line per error.
func checkSchemaFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	docs, err := schema.ReadDocuments(name, data)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range docs {
		errs, what := checkTestDocument(t, d)
		errorsort.Sort(errs)
		fmt.Fprintf(&b, "# %d %s: %d errors\n", d.Index, what, len(errs))
		for _, e := range errs {
			fmt.Fprintf(&b, "%s %q: %s\n", e.Type, e.Field, stableDetail(e.Detail))
		}
	}
	return b.String()
}

func checkTestDocument(t *testing.T, d model.Document) (field.ErrorList, string) {
	t.Helper()
	if model.IsCRD(d.Object) {
		crd, err := model.DecodeCRD(d.JSON())
		if err != nil {
			t.Fatalf("document %d: %v", d.Index, err)
		}
		var errs field.ErrorList
		all, _ := CRD(crd)
		for _, e := range all {
			if strings.Contains(e.Field, "openAPIV3Schema") {
				errs = append(errs, e)
			}
		}
		return errs, "CRD " + crd.Metadata.Name
	}
	var p model.Props
	if err := model.DecodeProps(d.JSON(), &p); err != nil {
		t.Fatalf("document %d: %v", d.Index, err)
	}
	title := p.Title
	if title == "" {
		title = "(untitled)"
	}
	return BareSchema(&p), "Schema " + title
}

// TestNonStructuralDocsExample is the example of the Kubernetes
// documentation: exactly six violations, and none once rewritten.
func TestNonStructuralDocsExample(t *testing.T) {
	const bad = `{
  "properties": {
    "foo": {"pattern": "abc"},
    "metadata": {"type": "object", "properties": {
      "name": {"type": "string", "pattern": "^a"},
      "finalizers": {"type": "array", "items": {"type": "string", "pattern": "my-finalizer"}}}}},
  "anyOf": [{
    "properties": {"bar": {"type": "integer", "minimum": 42}},
    "required": ["bar"],
    "description": "foo bar object"}]}`
	want := map[string]field.ErrorType{
		"type":                          field.ErrorTypeRequired,
		"properties[foo].type":          field.ErrorTypeRequired,
		"properties[bar]":               field.ErrorTypeRequired,
		"anyOf[0].properties[bar].type": field.ErrorTypeForbidden,
		"anyOf[0].description":          field.ErrorTypeForbidden,
		"properties[metadata]":          field.ErrorTypeForbidden,
	}
	errs := mustSchema(t, bad)
	got := map[string]field.ErrorType{}
	for _, e := range errs {
		got[e.Field] = e.Type
	}
	if len(errs) != len(want) || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %d errors:\n%v\nwant the six violations %v", len(errs), errs, want)
	}

	const good = `{
  "type": "object",
  "description": "foo bar object",
  "properties": {
    "foo": {"type": "string", "pattern": "abc"},
    "metadata": {"type": "object", "properties": {
      "name": {"type": "string", "pattern": "^a"}}},
    "bar": {"type": "integer"}},
  "anyOf": [{
    "properties": {"bar": {"minimum": 42}},
    "required": ["bar"]}]}`
	if errs := mustSchema(t, good); len(errs) != 0 {
		t.Errorf("structural rewrite: got %v, want no errors", errs)
	}
}

func mustSchema(t *testing.T, doc string) field.ErrorList {
	t.Helper()
	var p model.Props
	if err := model.DecodeProps([]byte(doc), &p); err != nil {
		t.Fatal(err)
	}
	return BareSchema(&p)
}

// TestSchemaRelativePaths: paths inside messages are made relative like the
// fields, and the root is "".
func TestSchemaRelativePaths(t *testing.T) {
	errs := mustSchema(t, `{"type": "object", "nullable": true,
		"properties": {"spec": {"type": "object"}},
		"anyOf": [{"properties": {"spec": {"properties": {"x": {"minimum": 1}}}}}]}`)
	var fields, details []string
	for _, e := range errs {
		fields = append(fields, e.Field)
		details = append(details, e.Detail)
	}
	joined := strings.Join(details, "\n")
	if strings.Contains(joined, "openAPIV3Schema") || strings.Contains(strings.Join(fields, " "), "openAPIV3Schema") {
		t.Errorf("absolute schema path left in %v / %q", fields, joined)
	}
	if !strings.Contains(joined, "because it is defined in anyOf[0].properties[spec].properties[x]") {
		t.Errorf("relative path missing from details: %q", joined)
	}
	found := false
	for _, e := range errs {
		found = found || (e.Field == "nullable" && e.Type == field.ErrorTypeForbidden)
	}
	if !found {
		t.Errorf("nullable root not reported at %q: %v", "nullable", errs)
	}
}

func TestRelativeField(t *testing.T) {
	const prefix = "spec.validation.openAPIV3Schema"
	for in, want := range map[string]string{
		prefix:                     "",
		prefix + ".type":           "type",
		prefix + ".properties[a]":  "properties[a]",
		"spec.validation":          "",
		prefix + "Other":           prefix + "Other",
		"spec.versions[0].schema":  "spec.versions[0].schema",
		prefix + ".x-kubernetes-x": "x-kubernetes-x",
	} {
		if got := relativeField(in, prefix); got != want {
			t.Errorf("relativeField(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFieldPathValid(t *testing.T) {
	var p model.Props
	const doc = `{"type": "object", "properties": {
		"spec": {"type": "object", "properties": {"a.b": {"type": "string"}, "n": {"type": "integer"}}},
		"labels": {"type": "object", "additionalProperties": {"type": "object", "properties": {"v": {"type": "string"}}}},
		"flags": {"type": "object", "additionalProperties": true},
		"list": {"type": "array", "items": {"type": "string"}}}}`
	if err := model.DecodeProps([]byte(doc), &p); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		".spec":              true,
		".spec.n":            true,
		".spec['a.b']":       true,
		".spec['n']":         true,
		"['spec']['n']":      true,
		".spec.a.b":          false,
		".spec.nope":         false,
		"spec":               false,
		".":                  false,
		".spec.":             false,
		".spec[n]":           false,
		".spec['n'":          false,
		".spec['n'x":         false,
		`.spec['\q']`:        false,
		".labels.anything":   true,
		".labels['x.y'].v":   true,
		".labels.x.nope":     false,
		".flags.anything":    true,
		".flags.anything.b":  false,
		".list":              true,
		".list[0]":           false,
		".list.x":            false,
		"[":                  false,
		".spec.n.deeper":     false,
		".spec['a.b'].deep":  false,
		".labels.k.v.deeper": false,
	} {
		if got := fieldPathValid(&p, path); got != want {
			t.Errorf("fieldPathValid(%q) = %v, want %v", path, got, want)
		}
	}
}

// FuzzSchema: no panic on any schema document, and a stable answer.
func FuzzSchema(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"type":"object"}`, `{"type":"null","nullable":true}`,
		`{"items":[{"type":"string"}],"x-kubernetes-list-type":"map"}`,
		`{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a","a"],"items":{"type":"object","properties":{"a":{"type":"object","nullable":true}}}}`,
		`{"x-kubernetes-validations":[{"rule":"self > 1","fieldPath":".a['b'].c","reason":"Nope","message":" "}]}`,
		`{"properties":{"metadata":{"additionalProperties":{"default":1}}},"$schema":"x","$ref":""}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p model.Props
		if model.DecodeProps(data, &p) != nil {
			return
		}
		a := BareSchema(&p)
		b := BareSchema(&p)
		errorsort.Sort(a)
		errorsort.Sort(b)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("unstable: %v vs %v", a, b)
		}
	})
}

// selfTypeName is the type name generated for a rule's self, different on
// every compilation (as in the apiserver).
var selfTypeName = regexp.MustCompile(`selfType[0-9]+`)

// stableDetail is an error detail with the generated type names made
// stable for golden files.
func stableDetail(d string) string { return selfTypeName.ReplaceAllString(d, "selfTypeN") }

// TestRulesCompiledPerType checks that equal rules on nodes of different
// types are compiled for each type (the rules compile cache of a CRD must
// not hand one node's results to another), while an identical node at a
// second place gets the same errors as the first, with its own path and
// cost.
func TestRulesCompiledPerType(t *testing.T) {
	const rule = `"x-kubernetes-validations":[{"rule":"self.x == 1"},{"rule":"self.x + self.x + self.x + self.x + self.x + self.x + self.x + self.x + self.x + self.x > 0"}]`
	intObj := `{"type":"object","properties":{"x":{"type":"integer"}},` + rule + `}`
	strObj := `{"type":"object","properties":{"x":{"type":"string"}},` + rule + `}`
	// d and e differ from a and b only in descriptions, which leave the
	// rules' results alone: e reports b's errors at its own path.
	described := func(obj string) string {
		return strings.Replace(strings.Replace(obj, `{"type":"object",`, `{"type":"object","description":"d",`, 1), `{"type":"integer"}`, `{"type":"integer","description":"x"}`, 1)
	}
	doc := `{"type":"object","properties":{"a":` + intObj + `,"b":` + strObj + `,"c":` + intObj +
		`,"d":` + described(intObj) + `,"e":` + described(strObj) +
		`,"l":{"type":"array","maxItems":1000000,"items":` + intObj + `}}}`
	var p model.Props
	if err := model.DecodeProps([]byte(doc), &p); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range BareSchema(&p) {
		got = append(got, string(e.Type)+" "+e.Field+": "+stableDetail(e.Detail))
	}
	want := []string{
		"FieldValueInvalid properties[b].x-kubernetes-validations[0].rule: compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(string, int)'\n | self.x == 1\n | .......^",
		"FieldValueInvalid properties[b].x-kubernetes-validations[1].rule: compilation failed: ERROR: <input>:1:89: found no matching overload for '_>_' applied to '(string, int)'\n | self.x + self.x + self.x + self.x + self.x + self.x + self.x + self.x + self.x + self.x > 0\n | ........................................................................................^",
		"FieldValueInvalid properties[e].x-kubernetes-validations[0].rule: compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(string, int)'\n | self.x == 1\n | .......^",
		"FieldValueInvalid properties[e].x-kubernetes-validations[1].rule: compilation failed: ERROR: <input>:1:89: found no matching overload for '_>_' applied to '(string, int)'\n | self.x + self.x + self.x + self.x + self.x + self.x + self.x + self.x + self.x + self.x > 0\n | ........................................................................................^",
		"FieldValueForbidden properties[l].items.x-kubernetes-validations[1].rule: estimated rule cost exceeds budget by factor of 3.0x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
