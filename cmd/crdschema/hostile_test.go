package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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

// TestDirectoryWalkSkipsFIFOs: a FIFO named *.yaml inside a walked
// directory is skipped instead of blocking forever (06-fifo-hang.sh).
func TestDirectoryWalkSkipsFIFOs(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	crd, err := os.ReadFile(crontabCRD)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "crd.yaml"), crd, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var out string
	var code int
	go func() {
		out, _, code = runCmd(t, nil, "check", "-o", "json", dir)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("check of a directory holding a FIFO hangs")
	}
	if got := strings.Join(documents(t, out), " "); code != 0 || got != "crd.yaml#0" {
		t.Errorf("exit %d, documents %s; want 0 and crd.yaml#0", code, got)
	}
}

// TestInputSizeLimit: an input larger than --max-input-bytes (default
// 64 MiB) is refused with a clear error, also when it never ends (here an
// endless reader on stdin, as /dev/zero).
func TestInputSizeLimit(t *testing.T) {
	_, errOut, code := runCmd(t, endless{}, "check", "-")
	if code != 2 || errOut != "crdschema: -: larger than 64MiB, the input size limit (--max-input-bytes)\n" {
		t.Errorf("endless stdin: exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = runCmd(t, nil, "check", "--max-input-bytes", "512", crontabCRD)
	if code != 2 || !strings.HasSuffix(errOut, "crontab-crd.yaml: larger than 512 bytes, the input size limit (--max-input-bytes)\n") {
		t.Errorf("512: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code = runCmd(t, nil, "check", "--max-input-bytes", "0", crontabCRD); code != 0 {
		t.Errorf("no limit: exit %d, stderr %q", code, errOut)
	}
	if _, _, code = runCmd(t, nil, "check", "--max-input-bytes", "lots", crontabCRD); code != 2 {
		t.Errorf("bad size: exit %d, want 2", code)
	}
}

// endless is a reader that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestStdinTwice: "-" can be read once; giving it twice, or for both --crd
// and the objects, is refused instead of silently reading nothing the
// second time (07-stdin-twice.sh).
func TestStdinTwice(t *testing.T) {
	for _, args := range [][]string{
		{"apply", "--crd", "-", "-o", "json", "-"},
		{"apply", "--crd", crontabCRD, "-o", "json", "-", "-"},
		{"prune", "--schema", "-", "-"},
		{"check", "-", "-"},
		{"migrate", "--crd", "-", "-"},
		{"migrate", "--old", "-", "--crd", crontabCRD, "-"},
	} {
		out, errOut, code := runCmd(t, strings.NewReader(cronTab("a")), args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "- (standard input) given more than once") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// TestNoObjects: inputs without a single document say so, as kubectl
// does, and exit 2 (08-empty-inputs.sh).
func TestNoObjects(t *testing.T) {
	empty := writeFile(t, "empty.yaml", "")
	comments := writeFile(t, "comments.yaml", "# nothing\n---\n# here\n")
	for _, args := range [][]string{
		{"check", empty},
		{"check", comments, os.DevNull},
		{"check", t.TempDir()},
		{"apply", "--crd", crontabCRD, empty},
		{"prune", "--crd", crontabCRD, "-"},
	} {
		out, errOut, code := runCmd(t, nil, args...)
		if code != 2 || out != "" || errOut != "crdschema: no objects passed to "+args[0]+"\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// TestTimeout: --timeout stops a slow run with exit 2 and a message. The
// slow input is 03-regex-crd.json's kind, scaled down: an unanchored
// 10,000-character literal pattern costs ~0.6 s to match (pattern length
// squared), here as in the apiserver.
func TestTimeout(t *testing.T) {
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"things.h.io"},` +
		`"spec":{"group":"h.io","scope":"Namespaced","names":{"plural":"things","singular":"thing","kind":"Thing","listKind":"ThingList"},` +
		`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",` +
		`"properties":{"s":{"type":"string","pattern":"` + strings.Repeat("a", 10000) + `"}}}}}}}]}}`
	obj := `{"apiVersion":"h.io/v1","kind":"Thing","metadata":{"name":"x"},"spec":{"s":"` + strings.Repeat("a", 20000) + `!"}}`
	crdFile, objFile := writeFile(t, "crd.json", crd), writeFile(t, "obj.json", obj)
	start := time.Now()
	out, errOut, code := runCmd(t, nil, "apply", "--crd", crdFile, "-o", "json", "--timeout", "50ms", objFile, objFile)
	if code != 2 || errOut != "crdschema: stopped after 50ms, the time budget (--timeout); the output above is complete for the documents it covers\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v despite --timeout 50ms", d)
	}
	// Whatever was printed is whole lines.
	parseLines(t, []byte(out))
	if _, _, code := runCmd(t, nil, "check", "--timeout", "soon", crdFile); code != 2 {
		t.Errorf("bad duration: exit %d, want 2", code)
	}
	// A budget that suffices changes nothing.
	if out, _, code := runCmd(t, nil, "check", "-o", "json", "--timeout", "1m", crontabCRD); code != 0 || len(parseLines(t, []byte(out))) != 1 {
		t.Errorf("ample budget: exit %d, output %q", code, out)
	}
}

// TestTextEscapesControlCharacters: a field name holding a newline or a
// terminal escape is printed escaped, one line per error, in -o text (and
// the formats built on it).
func TestTextEscapesControlCharacters(t *testing.T) {
	f := writeFile(t, "nl.json", `{"type":"object","properties":{"a\nb":{},"c\u001b[31mred":{}}}`)
	out, _, code := runCmd(t, nil, "check", f)
	want := f + ":1:32: Schema: properties[a\\nb].type: Required value: must not be empty for specified object fields\n" +
		f + ":1:42: Schema: properties[c\\x1b[31mred].type: Required value: must not be empty for specified object fields\n" +
		"crdschema: 1 file, 1 document: 1 checked, 1 with errors (2 errors)\n"
	if code != 1 || out != want {
		t.Errorf("exit %d, output\n%s\nwant\n%s", code, out, want)
	}
	// The JSON contract keeps the field as it is.
	out, _, _ = runCmd(t, nil, "check", "-o", "json", f)
	if !strings.Contains(out, `"field":"properties[a\nb].type"`) {
		t.Errorf("json: %s", out)
	}
}

// TestInputSizeLimitKeepsTheOthers: an input over --max-input-bytes is
// refused (exit 2) and the other inputs are still checked (docs/cli.md,
// "Input size").
func TestInputSizeLimitKeepsTheOthers(t *testing.T) {
	big := writeFile(t, "big.yaml", strings.Repeat("# padding\n", 200)+cronTab("a"))
	out, errOut, code := runCmd(t, nil, "check", "-o", "json", "--max-input-bytes", "1Ki", crontabCRD, big)
	if code != 2 || !strings.HasSuffix(errOut, "big.yaml: larger than 1KiB, the input size limit (--max-input-bytes)\n") {
		t.Errorf("exit %d, stderr %q; want 2 and big.yaml refused", code, errOut)
	}
	if got := strings.Join(documents(t, out), " "); got != "crontab-crd.yaml#0" {
		t.Errorf("documents %q, want crontab-crd.yaml#0", got)
	}
}

// TestParseSize: the --max-input-bytes values docs/cli.md names.
func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"0": 0, "3000000": 3000000, "2k": 2000, "2K": 2000, "3M": 3e6, "1G": 1e9,
		"1Ki": 1 << 10, "64Mi": 64 << 20, "2Gi": 2 << 30,
	} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "1.5Mi", "Mi", "lots", "1Ti", "9999999999Gi"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}

// TestNamedFIFOIsRead: a non-regular file named on the command line is
// read, as <(kubectl get crd -o yaml) is (only directory walks skip them).
func TestNamedFIFOIsRead(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "crds")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	crd, err := os.ReadFile(crontabCRD)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		// Opening blocks until the command opens the FIFO to read.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Write(crd)
			f.Close()
		}
	}()
	done := make(chan struct{})
	var out string
	var code int
	go func() {
		out, _, code = runCmd(t, nil, "check", "-o", "json", fifo)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("check of a named FIFO hangs")
	}
	if got := strings.Join(documents(t, out), " "); code != 0 || got != "crds#0" {
		t.Errorf("exit %d, documents %q; want 0 and crds#0", code, got)
	}
}
