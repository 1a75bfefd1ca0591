package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Hostile and malformed inputs to the command, each built from a
// reproducer of ../shared/findings/hostile/ (generated here to keep
// testdata small), with what the apiserver code's reader (the conformance
// oracle) answers.

var crontabCRD = filepath.Join("..", "..", "testdata", "examples", "crds", "crontab-crd.yaml")

// runCmd runs the command with args and stdin; it returns stdout, stderr
// and the exit status.
func runCmd(t *testing.T, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	code := run(args, stdin, &out, &errOut)
	return out.String(), errOut.String(), code
}

// writeFile writes content to name in a new temporary directory and
// returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func cronTab(name string) string {
	return "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: " + name + "\n"
}

// documents returns the file#document of every JSON line.
func documents(t *testing.T, stdout string) []string {
	t.Helper()
	var out []string
	for _, l := range parseLines(t, []byte(stdout)) {
		out = append(out, filepath.Base(l.File)+"#"+strconv.Itoa(l.Document))
	}
	return out
}

// TestBadDocumentKeepsTheOthers: one unparsable document is reported
// (document N, exit 2) and the file's other documents are processed
// (04-bad-document-drops-whole-file.yaml).
func TestBadDocumentKeepsTheOthers(t *testing.T) {
	f := writeFile(t, "04.yaml", cronTab("a")+"---\n"+cronTab("b")+"  bad: [\n---\n"+cronTab("c"))
	out, errOut, code := runCmd(t, nil, "prune", "--crd", crontabCRD, "-o", "json", f)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if want := f + ":10: document 1: yaml: line 5: did not find expected node content\n"; errOut != "crdschema: "+want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	if got := strings.Join(documents(t, out), " "); got != "04.yaml#0 04.yaml#2" {
		t.Errorf("documents %s, want 04.yaml#0 04.yaml#2", got)
	}
}

// TestBadCRDDocumentKeepsTheOthers: a bad document among the --crd inputs
// is reported, and the other CRDs still route objects
// (04b-bad-crd-document-drops-whole-file.yaml).
func TestBadCRDDocumentKeepsTheOthers(t *testing.T) {
	crd, err := os.ReadFile(crontabCRD)
	if err != nil {
		t.Fatal(err)
	}
	f := writeFile(t, "04b.yaml", string(crd)+"---\nkind: CustomResourceDefinition\napiVersion: apiextensions.k8s.io/v1\nspec: [\n")
	objs := writeFile(t, "objs.yaml", cronTab("a"))
	out, errOut, code := runCmd(t, nil, "apply", "--crd", f, "-o", "json", objs)
	if code != 2 || !strings.Contains(errOut, "document 1: yaml: line 3: did not find expected node content") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if l := parseLines(t, []byte(out)); len(l) != 1 || len(l[0].Errors) != 0 || string(l[0].Object) == "null" {
		t.Errorf("object not processed: %s", out)
	}
}

// TestNonMappingDocuments: scalars, sequences, non-mapping List items and
// JSON followed by junk are unreadable input (exit 2, file:line, "expected
// a mapping, got ..."), for every verb (05*).
func TestNonMappingDocuments(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		stderr        []string
		docs          string
	}{
		{"05.yaml", cronTab("a") + "---\n- 1\n---\n" + cronTab("c"), []string{":6: document 1: expected a mapping, got an array"}, "05.yaml#0 05.yaml#2"},
		{"05b.json", `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"m"}} trailing`, []string{":1: document 1: expected a mapping, got a string"}, "05b.json#0"},
		{"05c.yaml", "kind: List\napiVersion: v1\nitems:\n- apiVersion: stable.example.com/v1\n  kind: CronTab\n  metadata:\n    name: m\n- 42\n- null\n", []string{
			":1: document 1: items[1]: expected a mapping, got a number",
			":1: document 2: items[2]: expected a mapping, got null",
		}, "05c.yaml#0"},
	} {
		f := writeFile(t, tc.name, tc.content)
		var want []string
		for _, s := range tc.stderr {
			want = append(want, "crdschema: "+f+s)
		}
		for _, args := range [][]string{{"prune", "--crd", crontabCRD, "-o", "json", f}, {"check", "-o", "json", f}} {
			out, errOut, code := runCmd(t, nil, args...)
			if code != 2 {
				t.Errorf("%s %s: exit %d, want 2", args[0], tc.name, code)
			}
			if got := strings.TrimSuffix(errOut, "\n"); got != strings.Join(want, "\n") {
				t.Errorf("%s %s: stderr\n%s\nwant\n%s", args[0], tc.name, got, strings.Join(want, "\n"))
			}
			if got := strings.Join(documents(t, out), " "); got != tc.docs {
				t.Errorf("%s %s: documents %s, want %s", args[0], tc.name, got, tc.docs)
			}
		}
	}
}
