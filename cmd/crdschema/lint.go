package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/crdschema/crdschema/schema"
)

// inputFile is one file to read: named on the command line, or found by
// walking a directory named there.
type inputFile struct {
	name   string
	walked bool
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
				out = append(out, inputFile{name: f, walked: true})
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
	skipTemplate   = "Helm templates"
	skipNotObject  = "not Kubernetes objects"
	skipUnparsable = "unparsable"
	skipCRD        = "CRDs"
	skipUnknown    = "kinds without a CRD"
	skipNotCRD     = "not CRDs"
)

// skipOrder is the order of the classes in the summary.
var skipOrder = []string{skipNotObject, skipTemplate, skipUnparsable, skipCRD, skipNotCRD, skipUnknown}

// templateFile says why a lint skips file as a Helm chart template: it is
// under the templates/ directory of a chart (beside a Chart.yaml), or its
// text has Go template actions ({{ .Values.x }}, {{- if ... }}). "" when
// it is read.
func templateFile(file string) string {
	if underChartTemplates(file) {
		return "Helm chart template: under the templates/ directory of a chart"
	}
	if file == "-" {
		return ""
	}
	f, err := os.Open(file)
	if err != nil {
		return "" // reading it reports the error
	}
	defer f.Close()
	if hasTemplateAction(f) {
		return "Helm chart template: the file has Go template actions ({{ ... }})"
	}
	return ""
}

func underChartTemplates(file string) bool {
	for dir := filepath.Dir(file); ; {
		parent := filepath.Dir(dir)
		if filepath.Base(dir) == "templates" {
			if _, err := os.Stat(filepath.Join(parent, "Chart.yaml")); err == nil {
				return true
			}
		}
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// templateActionRE matches the start of a Go template action as Helm
// charts write them: {{ .Values.x }}, {{- if }}, {{ include "x" . }},
// {{ $v := ... }}, {{/* comment */}}; not the {{workflow.name}} of an
// Argo Workflow's parameters.
var templateActionRE = regexp.MustCompile(`\{\{-?\s*(?:[.$/]|(?:if|else|end|range|with|define|template|include|block|toYaml|tpl|printf|default|quote|required|fail|lookup|not|and|or|eq|ne)\b)`)

// hasTemplateAction scans r for a template action, one block at a time.
func hasTemplateAction(r io.Reader) bool {
	br := bufio.NewReaderSize(r, 64<<10)
	var carry []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := br.Read(buf)
		block := append(carry, buf[:n]...)
		if bytes.Contains(block, []byte("{{")) && templateActionRE.Match(block) {
			return true
		}
		if err != nil {
			return false
		}
		// Keep the tail: an action may span two blocks.
		keep := min(len(block), 256)
		carry = append(carry[:0], block[len(block)-keep:]...)
	}
}

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

// unreadableReason says why a lint skips a document that cannot be read:
// it is not a mapping (a JSON array, a scalar), or it cannot be parsed and
// its file was found by walking a directory. "" when the error stands.
func unreadableReason(e *schema.InputError, walked bool) (class, reason string) {
	msg := e.Err.Error()
	if i := strings.Index(msg, ": expected a mapping, got "); i >= 0 && !strings.Contains(msg[:i], "items[") {
		return skipNotObject, "not a Kubernetes object: " + msg[i+2:]
	}
	if walked {
		return skipUnparsable, "unparsable: " + msg
	}
	return "", ""
}

// counts is what one run read, found and skipped, for the summary line
// that ends the human outputs.
type counts struct {
	files, documents, objects, failed, errors int
	skipped                                   map[string]int
	// unparsable are the files with documents skipped as unparsable.
	unparsable []string
}

func (t *counts) skip(class, file string) {
	if t.skipped == nil {
		t.skipped = map[string]int{}
	}
	t.skipped[class]++
	if class == skipUnparsable && (len(t.unparsable) == 0 || t.unparsable[len(t.unparsable)-1] != file) {
		t.unparsable = append(t.unparsable, file)
	}
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
// (2 errors); skipped 5: 3 not Kubernetes objects, 2 kinds without a CRD".
func (t *counts) String() string {
	s := fmt.Sprintf("%s, %s: %d checked, %d with errors (%s)", plural(t.files, "file"), plural(t.documents, "document"), t.objects, t.failed, plural(t.errors, "error"))
	total := 0
	var parts []string
	for _, c := range skipOrder {
		if n := t.skipped[c]; n > 0 {
			total += n
			part := fmt.Sprintf("%d %s", n, c)
			if c == skipUnparsable {
				files := append([]string(nil), t.unparsable...)
				sort.Strings(files)
				part += " (" + escapeControl(strings.Join(files, ", ")) + ")"
			}
			parts = append(parts, part)
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
