package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestLintRepository is issue 20's acceptance: a repository mixing CRDs,
// valid and invalid custom resources, Deployments, a Helm chart (Chart.yaml,
// values.yaml, templates), a GitHub workflow, a kustomization, JSON data
// files and an unparsable YAML file, linted as CI would lint it. Both verbs
// exit 1 with exactly the errors of the invalid objects (CRDs for check),
// each on the line and column of its field, and a summary of what was
// skipped.
func TestLintRepository(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "cli", "lintrepo"))
	for _, c := range []struct {
		args   []string
		errors []string // file:line:col and the message's start
		notice string
	}{{
		args: []string{"apply", "--skip-unknown-kinds", "-o", "github", "."},
		errors: []string{
			"manifests/crontab.json:7:5 CronTab/from-json: spec.replicas: Invalid value: 0:",
			"manifests/crontabs.yaml:17:3 CronTab/broken: spec.cronSpec: Invalid value:",
			"manifests/crontabs.yaml:18:3 CronTab/broken: spec.replicas: Invalid value: 15:",
		},
		notice: "15 files, 14 documents: 3 checked, 2 with errors (3 errors); skipped 14: 6 not Kubernetes objects, 3 Helm templates, 1 unparsable (docs/notes.yaml), 2 CRDs, 2 kinds without a CRD",
	}, {
		args: []string{"check", "--skip-non-crds", "-o", "github", "."},
		errors: []string{
			"crds/gadget.yaml:25:15 CustomResourceDefinition/gadgets.example.com: spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[colour].type (apiserver: spec.validation.openAPIV3Schema.properties[spec].properties[colour].type): Required value",
		},
		notice: "15 files, 14 documents: 2 checked, 1 with errors (1 error); skipped 15: 6 not Kubernetes objects, 3 Helm templates, 1 unparsable (docs/notes.yaml), 5 not CRDs",
	}} {
		t.Run(c.args[0], func(t *testing.T) {
			out, errOut, code := runCmd(t, nil, c.args...)
			if code != 1 || errOut != "" {
				t.Fatalf("exit %d, stderr %q; want 1 and nothing", code, errOut)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) != len(c.errors)+1 {
				t.Fatalf("%d lines, want %d errors and the notice:\n%s", len(lines), len(c.errors), out)
			}
			for i, want := range c.errors {
				checkAnnotation(t, lines[i], want, c.args[0])
			}
			if want := "::notice title=crdschema " + c.args[0] + "::" + c.notice; lines[len(lines)-1] != want {
				t.Errorf("notice\n%s\nwant\n%s", lines[len(lines)-1], want)
			}
		})
	}
}

var annotationRE = regexp.MustCompile(`^::error file=([^,]+),line=(\d+),col=(\d+),title=crdschema \w+::(.*)$`)

// checkAnnotation checks one ::error line against want ("file:line:col
// message start") and that the file's text at that place is the name of
// the field the error names (its last key).
func checkAnnotation(t *testing.T, got, want, verb string) {
	t.Helper()
	m := annotationRE.FindStringSubmatch(got)
	where, msg, _ := strings.Cut(want, " ")
	if m == nil || m[1]+":"+m[2]+":"+m[3] != where || !strings.HasPrefix(m[4], msg) {
		t.Errorf("annotation\n%s\nwant %s", got, want)
		return
	}
	data, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	text := bytes.Split(data, []byte("\n"))[line-1][col-1:]
	// The field: the path's last key, unquoted in YAML, quoted in JSON.
	// Its key holds it when it is present, the parent's when it is missing.
	_, rest, _ := strings.Cut(m[4], ": ")
	path, _, _ := strings.Cut(rest, ": ")
	path, _, _ = strings.Cut(path, " (apiserver")
	segs := pathNames(path)
	last := segs[len(segs)-1]
	if strings.Contains(m[4], ": Required value") {
		last = segs[len(segs)-2] // a missing field is placed on its parent
	}
	if !bytes.HasPrefix(bytes.TrimLeft(text, `"`), []byte(last)) {
		t.Errorf("%s:%d:%d holds %q, not the field %s", m[1], line, col, text, last)
	}
}
