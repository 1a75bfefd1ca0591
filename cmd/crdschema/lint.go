package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/crdschema/crdschema/schema"
)

// inputFile is one file to read: named on the command line, or found by
// walking a directory named there.
type inputFile struct {
	name   string
	walked bool
	// root is the directory named on the command line whose walk found
	// the file ("" for a file named there).
	root string
	// first is what the first pass over the objects' files read of a file
	// of CRDs, replayed by the second (nil: the file is read again).
	first *firstPass
}

// expandInputs is expandPaths for the documents a verb lints: the walk of
// a directory leaves out the files and directories an exclude pattern
// matches (path.Match syntax, against the path relative to the walked
// directory or against the name alone). Files named on the command line
// are always read. .gitignore is not read.
func expandInputs(paths, excludes []string) ([]inputFile, error) {
	var out []inputFile
	for _, p := range paths {
		st, err := os.Stat(p)
		if p == "-" || (err == nil && !st.IsDir()) {
			out = append(out, inputFile{name: p})
			continue
		}
		found, err := expandPaths([]string{p})
		if err != nil {
			return nil, err
		}
		for _, f := range found {
			if !excluded(p, f, excludes) {
				out = append(out, inputFile{name: f, walked: true, root: p})
			}
		}
	}
	return out, nil
}

// excluded reports whether an exclude pattern matches file (found under
// root) or one of the directories between them.
func excluded(root, file string, excludes []string) bool {
	if len(excludes) == 0 {
		return false
	}
	rel, err := filepath.Rel(root, file)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, pat := range excludes {
		pat = strings.TrimSuffix(filepath.ToSlash(pat), "/")
		for p := rel; p != "." && p != "/" && p != ""; p = path.Dir(p) {
			if ok, _ := path.Match(pat, p); ok {
				return true
			}
			if ok, _ := path.Match(pat, path.Base(p)); ok {
				return true
			}
		}
	}
	return false
}

// Why a lint (--skip-unknown-kinds, --skip-non-crds) skips what it skips:
// the classes the summary counts.
const (
	skipTemplate  = "templates"
	skipTestInput = "Go test inputs"
	skipNotObject = "not Kubernetes objects"
	skipCRD       = "CRDs"
	skipUnknown   = "kinds without a CRD"
	skipNotCRD    = "not CRDs"
)

// skipSingular is each class for one document.
var skipSingular = map[string]string{
	skipNotObject: "not a Kubernetes object",
	skipTemplate:  "template",
	skipTestInput: "Go test input",
	skipPatch:     "patch",
	skipTest:      "test assertion or negative test",
	skipInput:     "script input",
	skipCRD:       "CRD",
	skipNotCRD:    "not a CRD",
	skipUnknown:   "kind without a CRD",
}

// skipOrder is the order of the classes in the summary.
var skipOrder = []string{skipNotObject, skipTemplate, skipTestInput, skipPatch, skipTest, skipInput, skipCRD, skipNotCRD, skipUnknown}

// notObjectReason says why a lint skips a document that is not a
// Kubernetes object: it has no apiVersion or no kind (a workflow, a
// values.yaml, a kustomization, a bare schema). "" for an object.
func notObjectReason(obj map[string]any) string {
	apiVersion, ok1 := obj["apiVersion"].(string)
	kind, ok2 := obj["kind"].(string)
	switch {
	case !ok2 || kind == "":
		return "not a Kubernetes object: no kind"
	case !ok1 || apiVersion == "":
		return "not a Kubernetes object: no apiVersion"
	}
	return ""
}

// notMappingReason says why a lint skips a document that cannot be read
// because it is not a mapping (a JSON array, a scalar): it is no Kubernetes
// object. "" when the error is another.
func notMappingReason(e *schema.InputError) string {
	msg := e.Err.Error()
	if i := strings.Index(msg, ": expected a mapping, got "); i >= 0 && !strings.Contains(msg[:i], "items[") {
		return "not a Kubernetes object: " + msg[i+2:]
	}
	return ""
}

// counts is what one run read, found and skipped, for the summary line
// that ends the human outputs.
type counts struct {
	files, documents, objects, failed, errors int
	// unparsable counts the documents of walked files that do not parse
	// (and are no templates): errors.
	unparsable int
	skipped    map[string]int
}

func (t *counts) skip(class, _ string) {
	if t.skipped == nil {
		t.skipped = map[string]int{}
	}
	t.skipped[class]++
}

// checked counts a document that was checked, with its errors.
func (t *counts) checked(errs int) {
	t.objects++
	if errs > 0 {
		t.failed++
		t.errors += errs
	}
}

// String is the summary: "3 files, 9 documents: 4 checked, 1 with errors
// (2 errors), 1 unparsable; skipped 4: 2 not Kubernetes objects, 2 kinds
// without a CRD". Every document is counted once: checked, unparsable or
// skipped.
func (t *counts) String() string {
	s := fmt.Sprintf("%s, %s: %d checked, %d with errors (%s)", plural(t.files, "file"), plural(t.documents, "document"), t.objects, t.failed, plural(t.errors, "error"))
	if t.unparsable > 0 {
		s += fmt.Sprintf(", %d unparsable", t.unparsable)
	}
	total := 0
	var parts []string
	for _, c := range skipOrder {
		if n := t.skipped[c]; n > 0 {
			total += n
			what := c
			if n == 1 {
				what = skipSingular[c]
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	if total > 0 {
		s += fmt.Sprintf("; skipped %d: %s", total, strings.Join(parts, ", "))
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// skippedOutcome is the outcome of a document (or, for a template, of a
// whole file) that a lint skips.
func skippedOutcome(file string, index, line int, obj map[string]any, reason string) outcome {
	kind, name := documentKindName(obj)
	return outcome{file: file, document: index, line: line, kind: kind, name: name, skipped: reason}
}
