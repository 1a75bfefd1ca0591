package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONSchemaWritesTheCatalogLayout: the sample CronTab CRD gives
// stable.example.com/crontab_v1.json and its -strict variant, draft-04,
// listed on stdout.
func TestJSONSchemaWritesTheCatalogLayout(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCmd(t, nil, "jsonschema", "--crd", crontabCRD, "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := "crdschema: 1 file, 1 document: 1 checked, 0 with errors (0 errors)\n"; errOut != want {
		t.Errorf("stderr %q, want the summary line %q", errOut, want)
	}
	for _, name := range []string{"crontab_v1.json", "crontab_v1-strict.json"} {
		path := filepath.Join(dir, "stable.example.com", name)
		if !strings.Contains(out, path) {
			t.Errorf("stdout %q does not list %s", out, path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		spec, _ := s["properties"].(map[string]any)["spec"].(map[string]any)
		_, closed := spec["additionalProperties"]
		if s["$schema"] != "http://json-schema.org/draft-04/schema#" || closed != strings.Contains(name, "strict") {
			t.Errorf("%s: $schema %v, spec closed %v", name, s["$schema"], closed)
		}
	}
}

// TestJSONSchemaBadInput: a CRD the apiserver rejects is reported and
// nothing is written (exit 1), not even the good CRD's schemas; an
// unwritable --out and bad arguments exit 2.
func TestJSONSchemaBadInput(t *testing.T) {
	good, err := os.ReadFile(crontabCRD)
	if err != nil {
		t.Fatal(err)
	}
	bad := writeFile(t, "bad.yaml", strings.Replace(string(good), "scope: Namespaced", "scope: Nowhere", 1))
	dir := filepath.Join(t.TempDir(), "out")
	_, errOut, code := runCmd(t, nil, "jsonschema", "--crd", crontabCRD, "--crd", bad, "--out", dir)
	if code != 1 || !strings.Contains(errOut, "would be rejected") {
		t.Errorf("rejected CRD: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("rejected CRD: %s was written (%v)", dir, err)
	}
	file := writeFile(t, "file", "")
	for _, args := range [][]string{
		{"jsonschema", "--crd", crontabCRD, "--out", filepath.Join(file, "sub")},
		{"jsonschema", "--crd", crontabCRD},
		{"jsonschema", "--out", dir},
		{"jsonschema", "--crd", "/no/such/file", "--out", dir},
	} {
		out, errOut, code := runCmd(t, nil, args...)
		if code != 2 || out != "" || errOut == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and a message", args, code, out, errOut)
		}
	}
}
