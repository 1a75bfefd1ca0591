package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/internal/golden"
)

// TestCLIGolden runs the command line of every testdata/cli/cases/*.yaml
// ({args: [...]}) inside testdata/cli and compares its exit status, stdout
// and stderr with the case's .golden file (go test -update rewrites them).
func TestCLIGolden(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "cli"))
	if err != nil {
		t.Fatal(err)
	}
	golden.Run(t, filepath.Join(dir, "cases"), func(t *testing.T, path string, data []byte) string {
		return runCase(t, dir, data, nil)
	})
}

// runCase runs the command line of a golden case ({args: [...]}) inside
// dir and renders its exit status, stdout and stderr. vars replaces each
// "$NAME" in the arguments by its value, and the value back by "$NAME" in
// the rendering, so a golden file does not depend on where that data is.
func runCase(t *testing.T, dir string, data []byte, vars map[string]string) string {
	var c struct {
		Args []string `json:"args"`
	}
	if err := yaml.UnmarshalStrict(data, &c); err != nil {
		t.Fatal(err)
	}
	var expand, unexpand []string
	for name, value := range vars {
		expand = append(expand, "$"+name, value)
		unexpand = append(unexpand, value, "$"+name)
	}
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = strings.NewReplacer(expand...).Replace(a)
	}
	t.Chdir(dir)
	var out, errb bytes.Buffer
	status := run(args, strings.NewReader(""), &out, &errb)
	got := fmt.Sprintf("$ crdschema %s\nexit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(c.Args, " "), status, out.String(), errb.String())
	if len(unexpand) > 0 {
		got = strings.NewReplacer(unexpand...).Replace(got)
	}
	return got
}

// summaryOnly is the output of a clean run in -o text and github.
var summaryOnly = regexp.MustCompile(`^(crdschema: |::notice title=crdschema apply::)\d+ files, \d+ documents: \d+ checked, 0 with errors \(0 errors\)[^\n]*\n$`)

// TestCILint is the CI use of the command: one call over a directory mixing
// a Deployment, a Service, a ConfigMap, CRDs and their custom resources
// exits 0 when every custom resource is valid and 1 with file:line errors
// otherwise, in every output format.
func TestCILint(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "cli"))
	// Where each output format must name the file and line of a bad document.
	wantLocation := map[string]*regexp.Regexp{
		"json":   regexp.MustCompile(`"file":"repo-invalid/crontabs.yaml","document":1,"line":9,`),
		"text":   regexp.MustCompile(`(?m)^repo-invalid/crontabs.yaml:17:3: CronTab/broken: spec.replicas: Invalid value: 15: `),
		"github": regexp.MustCompile(`(?m)^::error file=repo-invalid/crontabs.yaml,line=17,col=3,title=crdschema apply::CronTab/broken: spec.replicas: `),
		"junit":  regexp.MustCompile(`file="repo-invalid/crontabs.yaml" line="15">\s*<failure `),
		"yaml":   regexp.MustCompile(`(?m)^repo-invalid/crontabs.yaml:17:3: CronTab/broken: spec.replicas: `),
	}
	for format, re := range wantLocation {
		for _, strict := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/strict=%v", format, strict), func(t *testing.T) {
				args := []string{"apply", "--skip-unknown-kinds", "-o", format}
				if strict {
					args = append(args, "--strict")
				}
				lintValid(t, format, args)
				want := re
				if strict {
					// Strict rejects the object for its unknown field instead.
					// spec.colour is on line 18, column 3.
					s := strings.Replace(re.String(), `spec.replicas: Invalid value: 15: `, `spec.colour: `, 1)
					s = strings.NewReplacer(`:17:3:`, `:18:3:`, `line=17,col=3`, `line=18,col=3`, `line="15"`, `line="18"`).Replace(s)
					want = regexp.MustCompile(strings.Replace(s, `spec.replicas: `, `spec.colour: `, 1))
				}
				lintInvalid(t, format, args, want)
			})
		}
	}
}

// lintValid: the valid repository exits 0 and, in text and github, prints
// only the summary.
func lintValid(t *testing.T, format string, args []string) {
	var out, errb bytes.Buffer
	if status := run(append(args, "repo-valid"), strings.NewReader(""), &out, &errb); status != 0 {
		t.Errorf("valid repository: exit %d, want 0\n%s%s", status, out.String(), errb.String())
	}
	if (format == "text" || format == "github") && !summaryOnly.MatchString(out.String()) {
		t.Errorf("valid repository printed %q, want only the summary", out.String())
	}
	if format == "junit" {
		checkJUnit(t, out.Bytes(), 0)
	}
}

// lintInvalid: the invalid repository exits 1 and the output (stderr for
// yaml) matches want.
func lintInvalid(t *testing.T, format string, args []string, want *regexp.Regexp) {
	var out, errb bytes.Buffer
	status := run(append(args, "repo-invalid"), strings.NewReader(""), &out, &errb)
	if status != 1 {
		t.Errorf("invalid repository: exit %d, want 1\n%s%s", status, out.String(), errb.String())
	}
	got := out.String()
	if format == "yaml" {
		got = errb.String()
	}
	if !want.MatchString(got) {
		t.Errorf("output does not match %s:\n%s", want, got)
	}
	if format == "junit" {
		checkJUnit(t, out.Bytes(), 4)
	}
}

// checkJUnit parses a JUnit report and checks its failure count.
func checkJUnit(t *testing.T, data []byte, failures int) {
	t.Helper()
	var r junitReport
	if err := xml.Unmarshal(data, &r); err != nil {
		t.Fatalf("JUnit report does not parse: %v\n%s", err, data)
	}
	n := 0
	for _, s := range r.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				n++
			}
		}
	}
	if n != failures || r.Failures != failures {
		t.Errorf("JUnit report has %d failed testcases (failures=%d), want %d", n, r.Failures, failures)
	}
}

func TestModuleVersion(t *testing.T) {
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"installed", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v1.2.3"}}, "v1.2.3"},
		{"dependency", &debug.BuildInfo{Main: debug.Module{Path: "example.com/tool"}, Deps: []*debug.Module{{Path: modulePath, Version: "v0.4.0"}}}, "v0.4.0"},
		{"source tree", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}}}, "(devel) 0123456789ab+dirty"},
		{"replaced", &debug.BuildInfo{Main: debug.Module{Path: "example.com/tool"}, Deps: []*debug.Module{{Path: modulePath, Version: "v0.4.0", Replace: &debug.Module{Path: "../crdschema", Version: ""}}}}, "v0.4.0"},
	} {
		got := moduleVersion(func() (*debug.BuildInfo, bool) { return tc.bi, true })
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := moduleVersion(func() (*debug.BuildInfo, bool) { return nil, false }); got != "(unknown)" {
		t.Errorf("no build info: %q", got)
	}
}

func TestVersionCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if status := run([]string{"version"}, nil, &out, &errb); status != 0 {
		t.Fatalf("exit %d: %s", status, errb.String())
	}
	if !regexp.MustCompile(`^crdschema \S.*\nreproduces Kubernetes 1\.37 \(k8s\.io/apiextensions-apiserver v0\.37\.2\)\n$`).MatchString(out.String()) {
		t.Errorf("version printed %q", out.String())
	}
}
