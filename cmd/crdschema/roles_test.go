package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/layout"
)

func TestWithoutPlaceholders(t *testing.T) {
	obj := map[string]any{
		"metadata": map[string]any{"name": "x", "namespace": "($namespace)"},
		"spec": map[string]any{
			"name":    "{{ .path.basename }}",
			"bundle":  "{{ .Files.Get \"b\" | b64enc }}",
			"count":   "(to_number('3'))",
			"list":    []any{map[string]any{"port": "{{ .port }}"}, "plain"},
			"replica": 0,
		},
	}
	rulesNotRun := &field.Error{Type: field.ErrorTypeInvalid, Field: "<nil>", Detail: "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"}
	errs := field.ErrorList{
		field.Invalid(field.NewPath("metadata", "namespace"), "($namespace)", "a lowercase RFC 1123 label"),
		field.Invalid(field.NewPath("spec", "bundle"), "{{", "must be of type byte"),
		field.TypeInvalid(field.NewPath("spec", "count"), "string", "must be of type integer"),
		field.Invalid(field.NewPath("spec", "list").Index(0).Child("port"), "", "bad"),
		rulesNotRun,
	}
	kept, dropped := withoutPlaceholders(errs, obj, true)
	if len(kept) != 0 || len(dropped) != 4 {
		t.Errorf("with bindings: kept %v, dropped %v; want none kept, 4 dropped and the rules' note", kept, dropped)
	}
	// Outside chainsaw, "(...)" is a value like any other.
	kept, dropped = withoutPlaceholders(errs, obj, false)
	if len(kept) != 3 || len(dropped) != 2 || kept[0].Field != "metadata.namespace" || kept[1].Field != "spec.count" || kept[2] != rulesNotRun {
		t.Errorf("without bindings: kept %v, dropped %v", kept, dropped)
	}
	// Errors about values that are no placeholders, missing fields and
	// the root stay.
	errs = field.ErrorList{
		field.Invalid(field.NewPath("spec", "replica"), 0, "too small"),
		field.Required(field.NewPath("spec", "image"), ""),
		field.Invalid(field.NewPath("spec", "list").Index(1), "plain", "bad"),
		field.Invalid(field.NewPath("spec", "list").Index(7), "", "bad"),
		field.NotFound(field.NewPath("spec", "name"), "{{ .path.basename }}"), // unknown whatever its value
		rulesNotRun,
	}
	if kept, dropped := withoutPlaceholders(errs, obj, true); len(kept) != 6 || len(dropped) != 0 {
		t.Errorf("kept %v, dropped %v; want all 6 kept", kept, dropped)
	}
}

// TestWithoutRequired is a kuttl step updating an object an earlier step
// made (layout.Update): the required fields it leaves out are the
// existing object's, and then the note that the CEL rules were not run
// goes too; what it writes is still checked.
func TestWithoutRequired(t *testing.T) {
	rulesNotRun := &field.Error{Type: field.ErrorTypeInvalid, Field: "<nil>", Detail: "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"}
	required := field.Required(field.NewPath("spec", "instances"), "")
	if got := withoutRequired(field.ErrorList{rulesNotRun, required, field.Required(field.NewPath("spec", "postgresVersion"), "")}); len(got) != 0 {
		t.Errorf("a partial update: %v, want no errors", got)
	}
	unknown := field.NotFound(field.NewPath("spec", "intervall"), "")
	if got := withoutRequired(field.ErrorList{rulesNotRun, required, unknown}); len(got) != 2 || got[0] != rulesNotRun || got[1] != unknown {
		t.Errorf("an update with a typo: %v, want the note and the unknown field", got)
	}
	// kuttl's merge patch replaces a list whole: what its item leaves out
	// the merged object lacks too.
	item := field.Required(field.NewPath("spec", "ports").Index(0).Child("port"), "")
	if got := withoutRequired(field.ErrorList{required, item}); len(got) != 1 || got[0] != item {
		t.Errorf("an update with a list item missing a required field: %v, want that error", got)
	}
	if got := withoutRequired(field.ErrorList{rulesNotRun}); len(got) != 1 {
		t.Errorf("the note alone (no required field dropped) went: %v", got)
	}
}

func TestUnparsableSkip(t *testing.T) {
	for _, c := range []struct {
		name  string
		place layout.Place
		text  string
		want  bool
	}{
		{"deploy/chart/templates/x.yaml", layout.Place{Chart: "deploy/chart"}, "{{ if }}", true},
		{"cmd/x/testdata/invalid.yaml", layout.Place{}, "a: [", true},
		{".devcontainer/devcontainer.json", layout.Place{}, "  // comment\n{}", true},
		{"config.json", layout.Place{}, "/* c */ {}", true},
		{"notes.yaml", layout.Place{}, "// not YAML", false},
		{".krew.yaml", layout.Place{}, "spec:\n  {{ addURIAndSha \"x\" .TagName }}\n", true},
		{"apps/broken.yaml", layout.Place{}, "a: \"", false},
		{"testdata.yaml", layout.Place{}, "a: [", false},
		// Go templates outside a chart: control structures on lines of
		// their own, actions among values, an action over two lines.
		{"loadtest/objects.yaml", layout.Place{}, "kind: X\nspec:\n{{- range .Items }}\n  - name: {{ .Name }}-{{ .Index }}\n    labels: {{ toYaml .Labels\n      | nindent 6 }}\n{{- end }}\n", true},
		// A document with actions that stays broken without them is
		// broken YAML: a CRD whose description shows a template, a
		// custom resource holding templates, with a syntax error.
		{"config/crd/x.yaml", layout.Place{}, "description: 'As {{ .name }} is ready.'\ngroup: x: y\n", false},
		{"config/samples/n.yaml", layout.Place{}, "metadata:\n  name: n\nspec:\n  t: \"{{ .a }}\n", false},
		// Under testdata, such a document is a Go test's input.
		{"x/testdata/t.yaml", layout.Place{}, "a: {{ .b }}\nc: [\n", true},
		// YAML 1.2's escape \/ (tekton's .pre-commit-config.yaml, which
		// pre-commit reads): no Kubernetes object, skipped; a Kubernetes
		// object written so stays an error (kubectl cannot read it), and
		// so does a document broken otherwise too.
		{".pre-commit-config.yaml", layout.Place{}, "exclude: \"(^examples\\/x.yaml$)\"\n", true},
		{"docs/es.yaml", layout.Place{}, "apiVersion: v1\nkind: X\nregexp: \"^app1\\/.+$\"\n", false},
		{"broken.yaml", layout.Place{}, "a: \"\\/\"\nb: [\n", false},
		// JSON with a comment below its start (cloudnative-pg's
		// devcontainer.json, whose feature "…/features/kind:1" is no
		// kind key): no Kubernetes object, skipped. A broken .json file
		// with a kind or apiVersion key stays an error, and so does a
		// YAML file without one.
		{".devcontainer/devcontainer.json", layout.Place{}, "{\n  \"features\": {\"ghcr.io/x/features/kind:1\": {}},\n  // c\n  \"a\": 1\n}", true},
		{"docs/gadget.json", layout.Place{}, "{\n  \"kind\": \"Gadget\",\n  // c\n}", false},
		{"docs/gadget.json", layout.Place{}, "{\"apiVersion\":\"v1\", \"a\": [}", false},
		{"docs/gadget.json", layout.Place{}, "{\n  'kind' : x,\n  // c\n}", false},
		{"docs/gadget.json", layout.Place{}, "kind: X\na: [\n", false},
		{"notes.yaml", layout.Place{}, "{\"a\": 1, // c\n}", false},
		// One rule for every .json file, whatever it starts with: a
		// comment above a Kubernetes object does not make it skipped; a
		// "kind" below the top level (VS Code's tasks.json: a task's
		// group), in a string or in a comment is no object's kind.
		{"docs/gadget.json", layout.Place{}, "// A Gadget\n{\"apiVersion\": \"toys.crdschema.dev/v1\", \"kind\": \"Gadget\"}", false},
		{"docs/gadget.json", layout.Place{}, "/* c */ {kind: Gadget}", false},
		{".vscode/tasks.json", layout.Place{}, "// See https://go.microsoft.com/fwlink/?LinkId=733558\n{\n  \"version\": \"2.0.0\",\n  \"tasks\": [{\"label\": \"build\", \"group\": {\"kind\": \"build\", \"isDefault\": true}}]\n}", true},
		{".vscode/settings.json", layout.Place{}, "{\n  // \"kind\": 1\n  /* apiVersion: 2 */\n  \"a\": \"kind: x\\\" kind: y\",\n  \"b\": \"x\", // \"kind\": 3\n}", true},
		{"open.json", layout.Place{}, "{\"a\": \"never closed", true},
		{"open.json", layout.Place{}, "{\"a\": 1 /* never closed", true},
		// A value whose closing quote is missing, above the kind: its
		// string ends with its line; the kind is found, an error.
		{"docs/gadget.json", layout.Place{}, "{\n  \"metadata\": {\n    \"name\": \"g1\n  },\n  \"apiVersion\": \"toys.crdschema.dev/v1beta1\",\n  \"kind\": \"Gadget\"\n}", false},
	} {
		class, _ := unparsableSkip(c.name, c.place, []byte(c.text))
		if got := class != ""; got != c.want {
			t.Errorf("%s: skipped %v, want %v", c.name, got, c.want)
		}
	}
}

func TestWithoutActions(t *testing.T) {
	in := "a: {{ .x }}\n  {{- if .y }}\nb: \"{{ .z }}-{{ .w }}\"\n{{ define \"t\" }}{{ end }}\nc: {{ .long\n  | quote }}\n"
	want := "a: x\n\nb: \"x-x\"\n\nc: x\n\n"
	if got := string(withoutActions([]byte(in))); got != want {
		t.Errorf("withoutActions:\n%q\nwant\n%q", got, want)
	}
	// Quoted strings inside an action, holding "}}" (krew's manifests);
	// an action that does not end is left as it is.
	in = "- a: 1\n  {{addURIAndSha \"https://x/{{ .Tag }}/\\\"k.tgz\" .Tag | indent 2 }}\n  b: {{ `}}` }}\nc: {{ .open\n"
	want = "- a: 1\n\n  b: x\nc: {{ .open\n"
	if got := string(withoutActions([]byte(in))); got != want {
		t.Errorf("withoutActions:\n%q\nwant\n%q", got, want)
	}
	// A line of actions followed by a comment holds no value either (rook
	// v1.20.6's pkg/daemon/multus/client-daemonset.yaml:45, a variable set
	// among a list's items); a comment after a value keeps the value.
	in = "containers:\n  {{ $img := .Image }} # note\n  - name: c\n    image: \"{{ $img }}\" # the image\n"
	want = "containers:\n\n  - name: c\n    image: \"x\" # the image\n"
	if got := string(withoutActions([]byte(in))); got != want {
		t.Errorf("withoutActions:\n%q\nwant\n%q", got, want)
	}
	if !goTemplate([]byte("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    {{ $img := .Image }} # note\n    - name: c\n      image: \"{{ $img }}\"\n")) {
		t.Error("a template setting a variable among a list's items, with a comment after it, is not taken as a Go template")
	}
}

func TestRoleSkip(t *testing.T) {
	for r, class := range map[layout.Role]string{layout.Manifest: "", layout.Patch: skipPatch, layout.Assertion: skipTest, layout.Negative: skipTest} {
		got, reason := roleSkip(layout.Place{Role: r, By: "x"})
		if got != class || (class != "") != (reason != "") {
			t.Errorf("%v: %q %q", r, got, reason)
		}
	}
}

// TestRenderedInput is `helm template ... | crdschema apply -`: each error
// names, and is annotated on, the template its object came from (helm's
// "# Source:" comment), since a line of the rendered stream means nothing
// in the repository.
func TestRenderedInput(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "cli", "ci", "rendered"))
	stream, err := os.ReadFile("helm-template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCmd(t, bytes.NewReader(stream), "apply", "--skip-unknown-kinds", "--strict", "--crd", "widget-crd.yaml", "-o", "github", "-")
	want := "::error file=widgets/templates/widget.yaml,title=crdschema apply::Widget/release-widgets (from widgets/templates/widget.yaml): spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1\n" +
		"::error file=widgets/templates/extra.yaml,title=crdschema apply::Widget/release-extra (from widgets/templates/extra.yaml): spec.replica: Not found: unknown field \"spec.replica\"; did you mean \"spec.replicas\"?\n" +
		"::notice title=crdschema apply::1 file, 3 documents: 2 checked, 2 with errors (2 errors); skipped 1: 1 kind without a CRD\n"
	if code != 1 || out != want || errOut != "" {
		t.Errorf("exit %d, stdout\n%s\nstderr %q\nwant exit 1 and\n%s", code, out, errOut, want)
	}
	out, _, _ = runCmd(t, bytes.NewReader(stream), "apply", "--skip-unknown-kinds", "--crd", "widget-crd.yaml", "-o", "json", "-")
	if n := strings.Count(out, `"source":"widgets/templates/`); n != 2 {
		t.Errorf("%d JSON lines name their template, want 2:\n%s", n, out)
	}
}

var summaryRE = regexp.MustCompile(`^crdschema: \d+ files?, (\d+) documents?: (\d+) checked, \d+ with errors \(\d+ errors?\)(?:, (\d+) unparsable)?(?:; skipped (\d+): .*)?$`)

// TestSummaryCountsEachDocumentOnce is issue 29's finding 7: the summary
// read "792 documents: 28 checked; skipped 881" (whole files skipped as
// templates were counted as skipped, never as documents). Every document
// is now counted once: checked, unparsable or skipped.
func TestSummaryCountsEachDocumentOnce(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "cli"))
	for _, dir := range []string{"ci/broken", "ci/templated", "ci/layouts", "ci/copies", "lintrepo", "repo-valid", "repo-invalid"} {
		for _, args := range [][]string{{"check", "--skip-non-crds"}, {"apply", "--skip-unknown-kinds", "--strict"}} {
			out, _, _ := runCmd(t, nil, append(args, "-o", "text", dir)...)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			m := summaryRE.FindStringSubmatch(lines[len(lines)-1])
			if m == nil {
				t.Errorf("%s %s: no summary in\n%s", args[0], dir, out)
				continue
			}
			n := func(s string) int { v, _ := strconv.Atoi(s); return v }
			if n(m[1]) != n(m[2])+n(m[3])+n(m[4]) {
				t.Errorf("%s %s: %s documents, but %s checked + %s unparsable + %s skipped", args[0], dir, m[1], m[2], m[3], m[4])
			}
		}
	}
}

// TestFieldSegmentsAsLibrary: the command's copy of the field-path parser
// (fieldSegments, for valueAt) splits every path as the library's does
// (pathNames reads it with the internal parser), ambiguous ones included,
// so that a placeholder is looked up at the field the error names.
func TestFieldSegmentsAsLibrary(t *testing.T) {
	for _, p := range []string{
		"spec", "spec.list[2].name", "spec.m[a.b]", "spec.m[a]b].c", "spec.m[a][0]",
		"spec.m[a].[b]", "spec.m[unterminated", "spec.m[]", "[0].x", "a..b", "spec.m[x]]",
	} {
		got, want := fieldSegments(p), pathNames(p)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Errorf("fieldSegments(%q) = %q, the library reads %q", p, got, want)
		}
	}
}

// inGadgetTree makes a repository of files (by path) beside crd.yaml, the
// Gadget CRD of the kuttl-olm miniature repository, and runs the rest of
// the test in it.
func inGadgetTree(t *testing.T, files map[string]string) {
	t.Helper()
	crd, err := os.ReadFile(filepath.Join("testdata", "repos", "kuttl-olm", "config", "crd", "bases", "toys.crdschema.dev_gadgets.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files["crd.yaml"] = string(crd)
	for name, text := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
}

// TestJinjaSnippets lints documentation snippets wrapped in Jinja's raw
// tags (external-secrets' docs/snippets, mkdocs-macros): each document is
// checked as Jinja renders it, every error at its line in the file, also
// in a file wrapped whole whose second document starts on line 10 and
// whose tags stand in its first and last documents; a rendered document
// that does not parse is an error at its line, saying so; a document of
// other Jinja markup ({% if %}) is no such snippet: it stays unparsable.
func TestJinjaSnippets(t *testing.T) {
	inGadgetTree(t, map[string]string{
		"docs/pair.yaml":   "{% raw %}\napiVersion: toys.crdschema.dev/v1beta1\nkind: Gadget\nmetadata:\n  name: first\nspec:\n  widgetRef: \"{{ .w }}\"\n---\n# second\napiVersion: toys.crdschema.dev/v1beta1\nkind: Gadget\nmetadata:\n  name: second\nspec:\n  widgetRef: x\n  intervall: 1m\n{% endraw %}\n",
		"docs/broken.yaml": "{%- raw %}\napiVersion: toys.crdschema.dev/v1beta1\nkind: Gadget\nmetadata:\n  name: b\nspec:\n  widgetRef: [x\n{% endraw %}\n",
		"docs/if.yaml":     "{% if x %}\napiVersion: toys.crdschema.dev/v1beta1\nkind: Gadget\n{% endif %}\n",
	})
	out, errOut, code := runCmd(t, nil, "apply", "--skip-unknown-kinds", "--strict", "-o", "text", ".")
	want := "docs/broken.yaml:8: document 0 does not parse: yaml: line 8: did not find expected ',' or ']' (as Jinja renders it)\n" +
		"docs/if.yaml:1: document 0 does not parse: yaml: found character that cannot start any token\n" +
		"docs/pair.yaml:16:3: Gadget/second: spec.intervall: Not found: unknown field \"spec.intervall\"; did you mean \"spec.interval\"?\n" +
		"crdschema: 4 files, 5 documents: 2 checked, 1 with errors (1 error), 2 unparsable; skipped 1: 1 CRD\n"
	if code != 1 || out != want || errOut != "" {
		t.Errorf("exit %d, stdout\n%s\nstderr %q\nwant exit 1 and\n%s", code, out, errOut, want)
	}
	out, _, _ = runCmd(t, nil, "apply", "--skip-unknown-kinds", "-o", "json", "docs")
	for _, want := range []string{`"file":"docs/pair.yaml","document":0,"line":1,"kind":"Gadget","name":"first"`, `"file":"docs/pair.yaml","document":1,"line":9,"kind":"Gadget","name":"second"`} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %s in\n%s", want, out)
		}
	}
}

// TestNamedJSONWithCommentIsRead: the rule skipping a walked .json file
// that does not parse and has no kind or apiVersion key (the dev
// container's JSON with a comment) is the walk's; the same file named on
// the command line is read as given, an input that cannot be read (exit 2),
// as before the rule.
func TestNamedJSONWithCommentIsRead(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "repos", "docs-kuttl"))
	const name = ".devcontainer/devcontainer.json"
	out, errOut, code := runCmd(t, nil, "check", "--skip-non-crds", "-o", "json", name)
	if code != 2 || strings.Contains(out, `"skipped"`) || !strings.Contains(errOut, name+":7:") {
		t.Errorf("named: exit %d, stdout\n%s\nstderr %q\nwant exit 2 and the parse error on stderr", code, out, errOut)
	}
	out, errOut, code = runCmd(t, nil, "check", "--skip-non-crds", "-o", "json", ".devcontainer")
	if code != 0 || !strings.Contains(out, `"skipped":"not a Kubernetes object: JSON that does not parse`) || errOut != "" {
		t.Errorf("walked: exit %d, stdout\n%s\nstderr %q\nwant exit 0 and the file skipped", code, out, errOut)
	}
}

// hasTopLevelKind reads any text, however its strings and comments are
// left open, without a panic.
func FuzzHasTopLevelKind(f *testing.F) {
	for _, s := range []string{"", "/", "/*", "//", "\"", "'\\", "{\"kind\"", "{\"kind\" :", "kind", "kind:", "}}kind:", "{/* */ 'apiVersion' : 1}", "\"a\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		hasTopLevelKind([]byte(s))
	})
}

// TestSubstitutedVariables: values holding "${NAME}" are filled in by
// Flux's post-build substitution or envsubst before they reach the
// cluster (flux2 v2.9.4's cmd/flux/testdata/envsubst/file.yaml names its
// GitRepository "${REPO_NAME}"): errors about them are not counted, and
// the fields are listed as templated. An escaped "$${NAME}" is no
// variable (the cluster gets the text "${NAME}") and stays an error, and
// a document that does not parse is not a template for holding one.
func TestSubstitutedVariables(t *testing.T) {
	inGadgetTree(t, map[string]string{
		"apps/gadget.yaml":  "apiVersion: toys.crdschema.dev/v1beta1\nkind: Gadget\nmetadata:\n  name: ${APP_NAME}\n  namespace: ${NAMESPACE:=flux-system}\nspec:\n  widgetRef: x\n",
		"apps/escaped.yaml": "apiVersion: toys.crdschema.dev/v1beta1\nkind: Gadget\nmetadata:\n  name: $${APP_NAME}\nspec:\n  widgetRef: x\n",
		"apps/broken.yaml":  "apiVersion: toys.crdschema.dev/v1beta1\nkind: Gadget\nmetadata:\n  name: ${APP_NAME}\nspec:\n  widgetRef: [x\n",
	})
	out, errOut, code := runCmd(t, nil, "apply", "--skip-unknown-kinds", "--strict", "-o", "text", ".")
	for _, want := range []string{
		"apps/broken.yaml:6: document 0 does not parse: yaml: line 6: did not find expected ',' or ']'\n",
		"apps/escaped.yaml:4:3: Gadget/$${APP_NAME}: metadata.name: Invalid value: \"$${APP_NAME}\": a lowercase RFC 1123 subdomain",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if code != 1 || strings.Contains(out, "apps/gadget.yaml") || errOut != "" {
		t.Errorf("exit %d, stdout\n%s\nstderr %q\nwant exit 1, no error in apps/gadget.yaml", code, out, errOut)
	}
	out, _, _ = runCmd(t, nil, "apply", "--skip-unknown-kinds", "--strict", "-o", "json", ".")
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, `{"file":"apps/gadget.yaml"`) {
			line = l
		}
	}
	if want := `"templated":["metadata.name","metadata.namespace"]`; !strings.Contains(line, want) || strings.Contains(line, `"errors":[{`) {
		t.Errorf("want %s and no errors in the line of apps/gadget.yaml:\n%s", want, out)
	}
	// Outside a lint the object is a request as given, answered as the
	// apiserver answers it.
	out, _, code = runCmd(t, nil, "apply", "--crd", "crd.yaml", "-o", "json", "apps/gadget.yaml")
	if code != 1 || strings.Contains(out, `"templated"`) || !strings.Contains(out, `"field":"metadata.name"`) || !strings.Contains(out, `"field":"metadata.namespace"`) {
		t.Errorf("apply without --skip-unknown-kinds: exit %d\n%s\nwant exit 1, the errors at metadata.name and metadata.namespace", code, out)
	}
}
