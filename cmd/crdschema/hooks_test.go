package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// ciCommands are the ways the documentation runs the command in CI: the
// entries of .pre-commit-hooks.yaml and the run: steps of the README's
// GitHub Actions workflow that call crdschema. Each is returned as its
// arguments, the program name left out.
func ciCommands(t *testing.T) map[string][]string {
	t.Helper()
	root := filepath.Join("..", "..")
	out := map[string][]string{}
	data, err := os.ReadFile(filepath.Join(root, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID            string `json:"id"`
		Name          string `json:"name"`
		Description   string `json:"description"`
		Entry         string `json:"entry"`
		Language      string `json:"language"`
		Files         string `json:"files"`
		PassFilenames *bool  `json:"pass_filenames"`
	}
	if err := yaml.UnmarshalStrict(data, &hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	for _, h := range hooks {
		if h.Language != "golang" || h.PassFilenames == nil || *h.PassFilenames || !regexp.MustCompile(h.Files).MatchString("config/crd/x.yaml") {
			t.Errorf("hook %s: language %q, pass_filenames %v, files %q: want golang, false, matching YAML files", h.ID, h.Language, h.PassFilenames, h.Files)
		}
		out["pre-commit "+h.ID] = commandArgs(t, h.Entry)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?m)^\s*- run: (crdschema [^#\n]*)`).FindAllStringSubmatch(string(readme), -1) {
		out["README step "+strings.TrimSpace(m[1])] = commandArgs(t, m[1])
	}
	return out
}

func commandArgs(t *testing.T, line string) []string {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "crdschema" {
		t.Fatalf("%q does not run crdschema", line)
	}
	return f[1:]
}

// TestCICommands runs every documented CI command (the pre-commit hooks and
// the README's workflow steps) on a clean repository, where it must pass,
// and on one with an invalid CRD and invalid custom resources, where it
// must fail with the errors on their files.
func TestCICommands(t *testing.T) {
	cmds := ciCommands(t)
	for _, want := range []string{"pre-commit crdschema-check", "pre-commit crdschema-apply"} {
		if cmds[want] == nil {
			t.Errorf("no %s", want)
		}
	}
	steps := 0
	for name := range cmds {
		if strings.HasPrefix(name, "README step") {
			steps++
		}
	}
	if steps != 2 {
		t.Errorf("%d crdschema steps in the README's workflow, want 2 (check and apply)", steps)
	}
	for name, args := range cmds {
		t.Run(name, func(t *testing.T) {
			if args[len(args)-1] != "." {
				t.Fatalf("%v: the command checks the whole repository, want . last", args)
			}
			t.Chdir(filepath.Join("testdata", "cli", "repo-valid"))
			if out, errOut, code := runCmd(t, nil, args...); code != 0 {
				t.Errorf("clean repository: exit %d\n%s%s", code, out, errOut)
			}
			t.Chdir(filepath.Join("..", "repo-broken"))
			out, errOut, code := runCmd(t, nil, args...)
			// Where the errors must be, in -o text or -o github.
			want := []string{"crds/crds.yaml:23:", "properties[spec].properties[size].type"}
			if args[0] == "apply" {
				want = []string{"apps/widgets.yaml:6:", "spec.teeth: Invalid value: 2", "apps/widgets.yaml:14:", "spec.teth"}
			}
			text := strings.NewReplacer("::error file=", "", ",line=", ":", ",col=", ":").Replace(out)
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("broken repository: no %q in the output", w)
				}
			}
			if code != 1 || errOut != "" {
				t.Errorf("broken repository: exit %d, stderr %q; want 1 and nothing\n%s", code, errOut, out)
			}
		})
	}
}
