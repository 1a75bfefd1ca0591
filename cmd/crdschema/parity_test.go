package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	crdschema "github.com/crdschema/crdschema"
)

// TestLibraryAnswersAsTheCommand runs every golden case of the CLI that
// answers documents (apply, prune, default, convert, scale, columns, and
// check without --old) twice: the command with -o json, and the library
// on its own — LoadCRDs for the CRDs, Documents for the documents, Route,
// the verb's call on Document.Object, Document.Duplicates and
// Result.Strict for apply — and requires for every document the
// command's errors and, where the verb prints one, its object (scale,
// cells). Only routing and the apiserver's error wording for it are the
// command's (routingError, routeStored): what is compared is how each
// reads and answers a document.
func TestLibraryAnswersAsTheCommand(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "cli"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := filepath.Glob(filepath.Join(dir, "cases", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	compared := 0
	for _, c := range cases {
		data, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		var tc struct {
			Args []string `json:"args"`
		}
		if err := yaml.UnmarshalStrict(data, &tc); err != nil {
			t.Fatal(err)
		}
		o, ok := parityOptions(tc.Args)
		if !ok {
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(c), ".yaml"), func(t *testing.T) {
			compared += compareCase(t, o)
		})
	}
	t.Logf("%d documents compared", compared)
	if compared < 120 {
		t.Errorf("only %d documents compared", compared)
	}
}

// compareCase compares the command's lines for one case with the
// library's answers and returns how many it compared.
func compareCase(t *testing.T, o parityOpts) int {
	lib := newLibraryRun(t, o)
	n := 0
	for _, line := range commandLines(t, o.jsonArgs) {
		if _, skipped := line["skipped"]; skipped {
			continue
		}
		var at struct {
			File     string `json:"file"`
			Document int    `json:"document"`
		}
		if err := json.Unmarshal(mustJSON(t, line), &at); err != nil {
			t.Fatal(err)
		}
		d, ok := lib.document(t, at.File, at.Document)
		if !ok {
			t.Errorf("%s#%d: the library reads no such document", at.File, at.Document)
			continue
		}
		for key, w := range lib.answer(t, d) {
			if !sameJSON(t, line[key], w) {
				t.Errorf("%s#%d %s: command %s, library %s", at.File, at.Document, key, line[key], mustJSON(t, w))
			}
		}
		n++
	}
	return n
}

// parityOpts are the arguments of a case the library path can answer.
type parityOpts struct {
	verb                 string
	crds, olds, operands []string
	schema, to, now      string
	strict, status       bool
	jsonArgs             []string
}

// parityOptions reads a case's arguments; ok is false for the cases this
// test leaves out (other verbs, -h, --exclude, check --old).
func parityOptions(args []string) (o parityOpts, ok bool) {
	if len(args) == 0 || !slices.Contains([]string{"apply", "prune", "default", "convert", "scale", "columns", "check"}, args[0]) {
		return o, false
	}
	o.verb = args[0]
	o.jsonArgs = []string{o.verb}
	for i := 1; i < len(args); i++ {
		a := args[i]
		value := func() string {
			i++
			if i >= len(args) {
				return ""
			}
			if a != "-o" && a != "--output" {
				o.jsonArgs = append(o.jsonArgs, a, args[i])
			}
			return args[i]
		}
		switch a {
		case "-h", "--help", "--exclude", "--review", "--timeout":
			return o, false
		case "-o", "--output":
			value()
		case "--crd":
			o.crds = append(o.crds, value())
		case "--old":
			o.olds = append(o.olds, value())
		case "--schema":
			o.schema = value()
		case "--to":
			o.to = value()
		case "--now":
			o.now = value()
		case "--subresource":
			o.status = value() == "status"
		case "--strict":
			o.strict = true
			o.jsonArgs = append(o.jsonArgs, a)
		case "--skip-unknown-kinds", "--skip-non-crds":
			o.jsonArgs = append(o.jsonArgs, a)
		default:
			if strings.HasPrefix(a, "-") {
				return o, false
			}
			o.operands = append(o.operands, a)
			o.jsonArgs = append(o.jsonArgs, a)
		}
	}
	if o.verb == "check" && len(o.olds) > 0 {
		return o, false
	}
	o.jsonArgs = append(o.jsonArgs, "-o", "json")
	return o, true
}

// commandLines runs the command and returns its JSON lines by field.
func commandLines(t *testing.T, args []string) []map[string]json.RawMessage {
	var out, errb bytes.Buffer
	if status := run(args, strings.NewReader(""), &out, &errb); status > 2 {
		t.Fatalf("%v: exit %d", args, status)
	}
	var lines []map[string]json.RawMessage
	for _, l := range bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("%v: bad line %s: %v", args, l, err)
		}
		lines = append(lines, m)
	}
	return lines
}

// libraryRun is what the library reads a case's inputs into.
type libraryRun struct {
	o      parityOpts
	crds   []*crdschema.CRD
	bare   *crdschema.Schema
	stored []map[string]any
	docs   map[string][]crdschema.Document
}

func newLibraryRun(t *testing.T, o parityOpts) *libraryRun {
	r := &libraryRun{o: o, docs: map[string][]crdschema.Document{}}
	crdPaths := o.crds
	if len(crdPaths) == 0 && o.schema == "" {
		crdPaths = o.operands // CRDs among the objects
	}
	for _, f := range walk(t, crdPaths) {
		crds, _ := crdschema.LoadCRDs(f, readBytes(t, f))
		r.crds = append(r.crds, crds...)
	}
	if o.schema != "" {
		docs, err := crdschema.ReadDocuments(o.schema, readBytes(t, o.schema))
		if err != nil || len(docs) != 1 {
			t.Fatalf("--schema: %v", err)
		}
		s, err := docs[0].Schema()
		if err == nil && len(s.Errors()) == 0 {
			r.bare = s
		}
	}
	for _, f := range walk(t, o.olds) {
		for _, d := range r.read(t, f) {
			r.stored = append(r.stored, d.Object)
		}
	}
	return r
}

// read reads a file through crdschema.Documents, as a stream.
func (r *libraryRun) read(t *testing.T, name string) []crdschema.Document {
	if docs, ok := r.docs[name]; ok {
		return docs
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var docs []crdschema.Document
	for d, err := range crdschema.Documents(name, f) {
		if err == nil {
			docs = append(docs, d)
		}
	}
	r.docs[name] = docs
	return docs
}

// document is document index of file, as crdschema.Documents reads it.
func (r *libraryRun) document(t *testing.T, file string, index int) (crdschema.Document, bool) {
	for _, d := range r.read(t, file) {
		if d.Index == index {
			return d, true
		}
	}
	return crdschema.Document{}, false
}

// answer is the library's answer for d, by the command's JSON field.
func (r *libraryRun) answer(t *testing.T, d crdschema.Document) map[string]any {
	switch r.o.verb {
	case "check":
		return r.check(d)
	case "convert", "scale", "columns":
		return r.served(t, d)
	}
	s, routeErr := r.bare, error(nil)
	if s == nil {
		s, routeErr = crdschema.Route(r.crds, d.Object)
	}
	if routeErr != nil {
		return map[string]any{"errors": plainErrors(toJSONErrors(field.ErrorList{routingError(routeErr)})), "object": nil, "pruned": []string{}}
	}
	var res crdschema.Result
	switch {
	case r.o.verb == "prune":
		res = s.Prune(d.Object)
	case r.o.verb == "default":
		res = s.Default(d.Object)
	default:
		res = r.apply(s, d)
	}
	pruned := res.Pruned
	if pruned == nil {
		pruned = []string{}
	}
	out := map[string]any{"errors": plainErrors(toJSONErrors(res.Errors)), "pruned": pruned}
	if res.Object != nil {
		out["object"] = res.Object
	} else {
		out["object"] = nil
	}
	return out
}

// apply is a create, or with --old an update of the stored object with the
// same apiVersion, kind, namespace and name; the document's repeated keys
// are the request's, and --strict is fieldValidation=Strict.
func (r *libraryRun) apply(s *crdschema.Schema, d crdschema.Document) crdschema.Result {
	var res crdschema.Result
	old := r.storedFor(s, d.Object)
	switch {
	case old != nil && r.o.status:
		res = s.ApplyStatusUpdate(d.Object, old)
	case old != nil:
		res = s.ApplyUpdate(d.Object, old)
	case r.o.status && !s.HasStatusSubresource():
		return crdschema.Result{Errors: s.ApplyStatusUpdate(d.Object, nil).Errors}
	case r.o.status:
		return crdschema.Result{Errors: field.ErrorList{&field.Error{Type: field.ErrorTypeNotFound, Field: "metadata.name", BadValue: field.OmitValueType{}, Detail: "no stored object to update"}}}
	default:
		res = s.Apply(d.Object)
	}
	res.Duplicates = d.Duplicates
	if r.o.strict {
		res = res.Strict()
	}
	return res
}

// storedFor finds the stored object d.Object updates.
func (r *libraryRun) storedFor(s *crdschema.Schema, obj map[string]any) map[string]any {
	for _, old := range r.stored {
		if _, err := crdschema.Route(r.crds, old); err == nil && keyOf(s, old) == keyOf(s, obj) {
			return old
		}
	}
	return nil
}

// served reads a stored object: convert --to, scale or columns.
func (r *libraryRun) served(t *testing.T, d crdschema.Document) map[string]any {
	crd, routeErr := routeStored(r.crds, d.Object)
	if routeErr != nil {
		return map[string]any{"errors": plainErrors(toJSONErrors(field.ErrorList{routeErr}))}
	}
	switch r.o.verb {
	case "convert":
		res := crd.Read(context.Background(), d.Object, r.o.to)
		var obj any
		if res.Object != nil {
			obj = res.Object
		}
		pruned := res.Pruned
		if pruned == nil {
			pruned = []string{}
		}
		return map[string]any{"object": obj, "pruned": pruned, "errors": plainErrors(toJSONErrors(res.Errors))}
	case "scale":
		scale, errs := crd.Scale(d.Object)
		return map[string]any{"scale": scale, "errors": plainErrors(toJSONErrors(errs))}
	}
	now, err := time.Parse(time.RFC3339, r.o.now)
	if err != nil {
		t.Fatal(err)
	}
	_, cells, errs := crd.Columns(d.Object, now)
	return map[string]any{"cells": cells, "errors": plainErrors(toJSONErrors(errs))}
}

// check is a CRD's or a bare schema's errors.
func (r *libraryRun) check(d crdschema.Document) map[string]any {
	var errs field.ErrorList
	if d.IsCRD() {
		c, err := d.CRD()
		if err != nil {
			return nil // an input error, not a line
		}
		errs = c.Errors()
	} else {
		s, err := d.Schema()
		var rejected *crdschema.RejectedError
		switch {
		case errors.As(err, &rejected):
			errs = rejected.Errors
		case err == nil:
			errs = s.Errors()
		}
	}
	return map[string]any{"errors": plainErrors(toJSONErrors(errs))}
}

// plainErrors drops what the command adds to the library's errors: where
// each is in the file.
func plainErrors(errs []jsonError) []jsonError {
	for i := range errs {
		errs[i].Line, errs[i].Column, errs[i].UserField = 0, 0, ""
	}
	return errs
}

// sameJSON compares a command's field with the library's value as JSON;
// errors without their positions.
func sameJSON(t *testing.T, got json.RawMessage, want any) bool {
	var g any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if errs, ok := g.([]any); ok {
		for _, e := range errs {
			if m, ok := e.(map[string]any); ok {
				delete(m, "line")
				delete(m, "column")
				delete(m, "userField")
			}
		}
	}
	var w any
	if err := json.Unmarshal(mustJSON(t, want), &w); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(g, w)
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readBytes(t *testing.T, name string) []byte {
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// walk lists the files of paths, directories walked in lexical order.
func walk(t *testing.T, paths []string) []string {
	var out []string
	for _, p := range paths {
		var found []string
		err := filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			switch strings.ToLower(filepath.Ext(path)) {
			case ".yaml", ".yml", ".json":
				if !d.IsDir() {
					found = append(found, path)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out
}
