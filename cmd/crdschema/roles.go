package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/layout"
	"github.com/crdschema/crdschema/prune"
)

// Issue 29: a lint reads a repository the way the tools that use it read
// it. Package layout says what each walked file is (a kustomize patch, a
// test assertion, a negative test, a file of a Helm chart); this file
// turns that into what the lint does with a document.

// Why a lint skips what the layout says is no create request: the classes
// of the summary.
const (
	skipPatch = "patches"
	skipTest  = "test assertions and negative tests"
	skipInput = "script inputs"
)

// layouts holds the layout of every directory the run walks, scanned when
// a file of it is first read.
type layouts struct {
	trees map[string]*layout.Tree
}

// place is what the layout of its walk says of f; the zero Place (a
// manifest) for a file named on the command line, which is read as given.
func (ls *layouts) place(f inputFile) layout.Place {
	if ls == nil || !f.walked || f.root == "" {
		return layout.Place{}
	}
	if ls.trees == nil {
		ls.trees = map[string]*layout.Tree{}
	}
	t, ok := ls.trees[f.root]
	if !ok {
		// A tree that cannot be scanned has no roles: its files are read
		// as manifests, and reading them reports what is wrong.
		t, _ = layout.Scan(os.DirFS(f.root))
		ls.trees[f.root] = t
	}
	if t == nil {
		return layout.Place{}
	}
	rel, err := filepath.Rel(f.root, f.name)
	if err != nil {
		return layout.Place{}
	}
	return t.Of(filepath.ToSlash(rel))
}

// roleSkip says why a lint skips the documents of a file with place p:
// they are partial (a patch, an assertion) or meant to be rejected (a
// negative test). "" for a manifest.
func roleSkip(p layout.Place) (class, reason string) {
	switch p.Role {
	case layout.Patch:
		return skipPatch, "patch (" + p.By + "): a partial document, merged into another"
	case layout.Assertion:
		return skipTest, "test assertion (" + p.By + "): a partial object compared with the cluster's"
	case layout.Negative:
		return skipTest, "negative test (" + p.By + "): applied expecting the request to fail"
	case layout.Input:
		return skipInput, "script input (" + p.By + "): what the test's scripts make of it is unknown"
	}
	return "", ""
}

// unparsableSkip says why a lint skips a document of a walked file that
// does not parse, when it is clearly no broken manifest, and the summary's
// class of the skip: a template of a Helm chart, a Go template of another
// tool (a krew manifest, a load test's object templates: goTemplate), an
// input of a Go test (under a testdata directory, which the go tool
// ignores and tests fill with broken files on purpose), or a .json file
// with no kind or apiVersion key at its top level (hasTopLevelKind): JSON
// with comments, the configuration of an editor or a dev container
// (cloudnative-pg's devcontainer.json, a comment below its start; VS
// Code's tasks.json, a comment above it and a "kind" in a task's group).
// A broken .json file with either key at its top level stays an error,
// whatever it starts with. doc is the text of the document. "" when the
// document is a broken manifest: an error.
func unparsableSkip(name string, p layout.Place, doc []byte) (class, reason string) {
	switch {
	case p.Chart != "":
		return skipTemplate, "Helm chart template (chart " + p.Chart + "): not YAML until rendered; check the output of helm template"
	case goTemplate(doc):
		return skipTemplate, "Go template (it has {{ ... }} actions): not YAML until rendered"
	case underTestdata(name):
		return skipTestInput, "Go test input (under testdata/): not parsed"
	case strings.EqualFold(filepath.Ext(name), ".json") && !hasTopLevelKind(doc):
		return skipNotObject, "not a Kubernetes object: JSON that does not parse (JSON with comments?) and has no kind or apiVersion key"
	case yaml12Other(doc):
		return skipNotObject, `not a Kubernetes object: YAML 1.2 (the escape \/, which kubectl's YAML 1.1 reader refuses)`
	}
	return "", ""
}

// hasTopLevelKind reports whether a text that does not parse has a kind or
// apiVersion key at its top level: quoted (JSON) or bare (YAML, JSON5),
// at a line's start or after "{", "," or a space, followed by ":", and
// outside strings, comments (// and /* */) and all but the outermost
// mapping. A key that ends a longer name ("features/kind:1", a dev
// container's feature) or names a nested field (a task's "group":
// {"kind": "build"}) is not one.
func hasTopLevelKind(text []byte) bool {
	depth := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '/' && i+1 < len(text) && (text[i+1] == '/' || text[i+1] == '*'):
			i = commentEnd(text, i) - 1
		case c == '"' || c == '\'':
			end := stringEnd(text, i)
			if depth <= 1 && keyName(string(text[i+1:max(i+1, end-1)])) && colonNext(text[end:]) {
				return true
			}
			i = end - 1
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case depth <= 1 && bareKey(text, i):
			return true
		}
	}
	return false
}

func keyName(s string) bool { return s == "kind" || s == "apiVersion" }

// bareKey reports whether text[i:] starts an unquoted kind or apiVersion
// key: at the text's or a line's start, or after "{", "," or a space.
func bareKey(text []byte, i int) bool {
	if i > 0 && bytes.IndexByte([]byte("{, \t\r\n"), text[i-1]) < 0 {
		return false
	}
	for _, k := range []string{"kind", "apiVersion"} {
		if bytes.HasPrefix(text[i:], []byte(k)) && colonNext(text[i+len(k):]) {
			return true
		}
	}
	return false
}

// colonNext reports whether the first character of text after spaces and
// tabs is ":".
func colonNext(text []byte) bool {
	t := bytes.TrimLeft(text, " \t")
	return len(t) > 0 && t[0] == ':'
}

// stringEnd is the index after the string that text[i], a quote, opens:
// after its closing quote (a backslash escapes the next character), or
// at its line's end or the text's when it does not close there (a JSON
// string holds no line break: a quote left open ends at the line's end,
// not at the next key's opening quote, which would turn the rest of the
// text inside out).
func stringEnd(text []byte, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '\n':
			return j
		case q:
			return j + 1
		}
	}
	return len(text)
}

// commentEnd is the index after the comment that text[i:] opens: // ends
// at its line's end, /* after */ (or at the text's end when it does not
// close).
func commentEnd(text []byte, i int) int {
	end := []byte("\n")
	if text[i+1] == '*' {
		end = []byte("*/")
	}
	k := bytes.Index(text[i+2:], end)
	if k < 0 {
		return len(text)
	}
	return i + 2 + k + len(end)
}

// yaml12Other reports whether a YAML document that does not parse is YAML
// 1.2 that is no Kubernetes object: it writes "\/" in a double-quoted
// string (an escape of YAML 1.2, which go-yaml, and so kubectl, refuses;
// pre-commit's PyYAML reads it), and with that escape read it parses and
// has no kind or apiVersion (tekton's .pre-commit-config.yaml). A
// Kubernetes object written so stays an error: kubectl cannot read it.
func yaml12Other(doc []byte) bool {
	if !bytes.Contains(doc, []byte(`\/`)) {
		return false
	}
	var obj map[string]any
	return yaml.Unmarshal(bytes.ReplaceAll(doc, []byte(`\/`), []byte("/")), &obj) == nil && notObjectReason(obj) != ""
}

// goTemplate reports whether a YAML document that does not parse is a Go
// template: it has template actions, and with them blanked out it parses.
// One that stays broken without its actions is broken YAML, whatever
// actions it also holds (a CRD whose descriptions show templates, a custom
// resource holding templates of its own), and reported as such.
func goTemplate(doc []byte) bool {
	if !hasActions(doc) {
		return false
	}
	var v any
	return yaml.Unmarshal(withoutActions(doc), &v) == nil
}

// hasActions reports whether a text holds a Go template action: "{{"
// and, after it, "}}". (A "${NAME}" is a placeholder in a value, but no
// document is unparsable for holding one.)
func hasActions(text []byte) bool {
	i := bytes.Index(text, []byte("{{"))
	return i >= 0 && bytes.Contains(text[i:], []byte("}}"))
}

// withoutActions is a text with its Go template actions ("{{ ... }}")
// blanked out: a line holding only actions (and perhaps a comment after
// them) becomes empty (a control structure, a variable set, an include
// that writes whole lines); an action among other text becomes "x" (a
// value). Lines keep their numbers.
func withoutActions(text []byte) []byte {
	const mark = "\x00" // no YAML text holds it: stands for an action
	var b strings.Builder
	rest := string(text)
	for {
		i := strings.Index(rest, "{{")
		if i < 0 {
			b.WriteString(rest)
			break
		}
		end := actionEnd(rest[i:])
		if end < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i])
		b.WriteString(mark)
		b.WriteString(strings.Repeat("\n", strings.Count(rest[i:i+end], "\n")))
		rest = rest[i+end:]
	}
	lines := strings.Split(b.String(), "\n")
	for k, l := range lines {
		if !strings.Contains(l, mark) {
			continue
		}
		if rest := strings.TrimSpace(strings.ReplaceAll(l, mark, "")); rest == "" || rest[0] == '#' {
			// Only actions, perhaps followed by a comment
			// ({{ $img := .Image }} # note): no value either.
			lines[k] = ""
		} else {
			lines[k] = strings.ReplaceAll(l, mark, "x")
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// actionEnd is the length of the action that s starts with ("{{"): up to
// the first "}}" outside the action's quoted strings (krew's manifests
// write {{addURIAndSha "https://.../{{ .TagName }}/x.tar.gz" .TagName }});
// -1 when the action does not end.
func actionEnd(s string) int {
	for i := 2; i < len(s); i++ {
		switch s[i] {
		case '"', '`':
			q := s[i]
			for i++; i < len(s) && s[i] != q; i++ {
				if q == '"' && s[i] == '\\' {
					i++
				}
			}
		case '}':
			if i+1 < len(s) && s[i+1] == '}' {
				return i + 2
			}
		}
	}
	return -1
}

// underTestdata reports whether a directory of name's path is a testdata
// directory.
func underTestdata(name string) bool {
	for _, part := range strings.Split(filepath.ToSlash(filepath.Dir(name)), "/") {
		if part == "testdata" {
			return true
		}
	}
	return false
}

// withoutPlaceholders drops the errors about values a tool fills in before
// they reach the cluster (layout.Placeholder: Go template actions,
// variables "${NAME}" Flux or envsubst fills in, chainsaw bindings where
// the file is read by chainsaw): such an error says nothing of the value
// the cluster will see. obj is the document as written. When
// errors were dropped, the apiserver's note that the CEL rules were not
// run because of them goes too. It returns the errors kept and the number
// dropped.
func withoutPlaceholders(errs field.ErrorList, obj map[string]any, bindings bool) (field.ErrorList, []string) {
	var kept field.ErrorList
	var dropped []string
	for _, e := range errs {
		if isValueError(e) {
			if v, ok := valueAt(obj, e.Field); ok {
				if s, isString := v.(string); isString && layout.Placeholder(s, bindings) {
					dropped = append(dropped, e.Field)
					continue
				}
			}
		}
		kept = append(kept, e)
	}
	if len(dropped) > 0 && len(kept) == 1 && isRulesNotRun(kept[0]) {
		kept = nil
	}
	return kept, dropped
}

// withoutRequired drops the errors about required fields that an object
// merged into an existing one leaves out (layout.Update: a kuttl step
// updating what an earlier step made), which the existing object has;
// and then the apiserver's note that the CEL rules were not run because
// of them, when nothing else is wrong. kuttl merges with a JSON merge
// patch, which replaces a list whole: a required field an item of a list
// leaves out (spec.ports[0].port) is missing in the merged object too,
// and stays an error.
func withoutRequired(errs field.ErrorList) field.ErrorList {
	var kept field.ErrorList
	dropped := false
	for _, e := range errs {
		if e.Type == field.ErrorTypeRequired && !listItem.MatchString(e.Field) {
			dropped = true
			continue
		}
		kept = append(kept, e)
	}
	if dropped && len(kept) == 1 && isRulesNotRun(kept[0]) {
		kept = nil
	}
	return kept
}

// listItem matches a field path through an item of a list.
var listItem = regexp.MustCompile(`\[\d+\]`)

// isValueError reports whether e is about a field's value (not a missing
// or unknown field).
func isValueError(e *field.Error) bool {
	switch e.Type {
	case field.ErrorTypeInvalid, field.ErrorTypeTypeInvalid, field.ErrorTypeNotSupported, field.ErrorTypeTooLong:
		return true
	}
	return false
}

// isRulesNotRun is the apiserver's error at the root saying that the CEL
// rules were skipped because of a blocking error.
func isRulesNotRun(e *field.Error) bool {
	return e.Field == "<nil>" && strings.HasPrefix(e.Detail, "some validation rules were not checked")
}

// valueAt is the value at a field path (the apiserver's syntax:
// spec.list[2].name) in a JSON value, and whether there is one.
func valueAt(v any, path string) (any, bool) {
	if path == "" || path == "<nil>" {
		return nil, false
	}
	for _, seg := range fieldSegments(path) {
		switch x := v.(type) {
		case map[string]any:
			c, ok := x[seg]
			if !ok {
				return nil, false
			}
			v = c
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// suggestions are "did you mean" for the unknown fields of an object
// checked with s: a hint for each --strict error about one, and for each
// pruned field (a warning without --strict) the declared field it is
// probably a misspelling of (prune.Suggest).
func suggestions(s *crdschema.Schema, errs field.ErrorList, pruned []string) (map[*field.Error]string, map[string]string) {
	var hints map[*field.Error]string
	var suggest map[string]string
	for _, p := range pruned {
		if got := prune.Suggest(s.Structural(), p, true); got != "" {
			if suggest == nil {
				suggest = map[string]string{}
			}
			suggest[p] = got
		}
	}
	for _, e := range errs {
		if e.Type == field.ErrorTypeNotFound && suggest[e.Field] != "" {
			if hints == nil {
				hints = map[*field.Error]string{}
			}
			hints[e] = didYouMean(suggest[e.Field])
		}
	}
	return hints, suggest
}

func didYouMean(path string) string {
	return "did you mean " + strconv.Quote(path) + "?"
}

// warnConflicts warns once for each CRD that the run's CRDs define more
// than once with differing specs (crdschema.Conflicts): it names the
// definition that checks the objects (Route's choice: the first the
// apiserver would accept) and the others, and records the names, so that
// the errors of those objects name their CRD.
func (run *objectRun) warnConflicts(p printer, stderr io.Writer) error {
	for _, group := range crdschema.Conflicts(run.crds) {
		used := group[0]
		for _, c := range group {
			if len(c.Errors()) == 0 {
				used = c
				break
			}
		}
		var others []string
		for _, c := range group {
			if c == used {
				continue
			}
			at := crdAt(c)
			if len(c.Errors()) > 0 {
				at += " (rejected)"
			}
			others = append(others, at)
		}
		if run.conflicted == nil {
			run.conflicted = map[string]bool{}
		}
		run.conflicted[used.Name()] = true
		msg := fmt.Sprintf("%d differing definitions of CustomResourceDefinition %s: objects are checked against %s; not against %s", len(group), used.Name(), crdAt(used), strings.Join(others, ", "))
		if err := runWarning(p, stderr, used.Position().File, used.Position().Line, msg); err != nil {
			return err
		}
	}
	return nil
}

// crdAt is "file:line" of a CRD.
func crdAt(c *crdschema.CRD) string {
	return fmt.Sprintf("%s:%d", c.Position().File, c.Position().Line)
}

// runWarning writes a warning about the run, not about one document: as
// an annotation (-o github), a line of the text output, or on stderr for
// the formats whose output is a contract (-o json, junit, yaml).
func runWarning(p printer, stderr io.Writer, file string, line int, msg string) error {
	var err error
	switch pr := p.(type) {
	case githubPrinter:
		_, err = fmt.Fprintf(pr.w, "::warning file=%s,line=%d,title=crdschema %s::%s\n", ghProperty(file), line, pr.verb, ghData(msg))
	case textPrinter:
		_, err = fmt.Fprintf(pr.w, "%s:%d: warning: %s\n", escapeControl(file), line, escapeControl(msg))
	default:
		_, err = fmt.Fprintf(stderr, "crdschema: warning: %s:%d: %s\n", escapeControl(file), line, escapeControl(msg))
	}
	return err
}

// fieldSegments splits an apiserver field path into its keys and indices:
// "spec.list[2].m[a.b]" is spec, list, 2, m, a.b (a bracket ends at the
// first "]" followed by the end, "." or "["). The library's parser is
// internal; this is what valueAt needs of it.
func fieldSegments(p string) []string {
	var out []string
	for p != "" {
		switch p[0] {
		case '.':
			p = p[1:]
		case '[':
			end := len(p)
			for i := 1; i < len(p); i++ {
				if p[i] == ']' && (i+1 == len(p) || p[i+1] == '.' || p[i+1] == '[') {
					end = i
					break
				}
			}
			out = append(out, p[1:end])
			p = p[min(end+1, len(p)):]
		default:
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			out = append(out, p[:end])
			p = p[end:]
		}
	}
	return out
}

// renderedSource is the file a rendered object came from: the path of
// helm template's "# Source: chart/templates/x.yaml" comment above the
// document, or of kustomize's config.kubernetes.io/origin annotation
// (written with buildMetadata: [originAnnotations]). "" when there is
// neither.
func renderedSource(d crdschema.Document) string {
	text := d.Text
	for len(text) > 0 {
		line, rest, _ := strings.Cut(string(text[:min(len(text), 4096)]), "\n")
		t := strings.TrimSpace(line)
		if src, ok := strings.CutPrefix(t, "# Source: "); ok {
			return strings.TrimSpace(src)
		}
		if t != "" && t != "---" && !strings.HasPrefix(t, "#") {
			break
		}
		text = text[len(line)+1:]
		if len(rest) == 0 {
			break
		}
	}
	meta, _ := d.Object["metadata"].(map[string]any)
	annotations, _ := meta["annotations"].(map[string]any)
	origin, _ := annotations["config.kubernetes.io/origin"].(string)
	for _, l := range strings.Split(origin, "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(l), "path: "); ok {
			return strings.TrimSpace(p)
		}
	}
	return ""
}
