package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestKubeconformDocumented runs kubeconform as docs/cli.md tells to, with
// the schemas `crdschema jsonschema` writes, on a valid and an invalid
// custom resource, without the network (issue 29, finding 8: with the
// download location first, kubeconform fails offline for CRD kinds).
func TestKubeconformDocumented(t *testing.T) {
	bin, err := exec.LookPath("kubeconform")
	if err != nil {
		msg := "kubeconform not on PATH (go install github.com/yannh/kubeconform/cmd/kubeconform@v0.8.0)"
		if os.Getenv(requireKubeconformEnv) == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```sh\n(kubeconform .*?)\n```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("no kubeconform command in docs/cli.md")
	}
	schemas := t.TempDir()
	if _, errOut, code := runCmd(t, nil, "jsonschema", "--crd", filepath.Join("testdata", "cli", "ci", "broken", "crds", "widget.yaml"), "--out", schemas); code != 0 {
		t.Fatalf("jsonschema: exit %d: %s", code, errOut)
	}
	objects := filepath.Join(t.TempDir(), "widgets.yaml")
	if err := os.WriteFile(objects, []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: good}\nspec: {image: nginx}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: bad}\nspec: {image: nginx, replicas: 0}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The documented command, DIR and manifests/ replaced, -strict taken.
	line := strings.NewReplacer("\\\n", " ", "[-strict]", "-strict", "DIR/", schemas+"/", "manifests/", objects).Replace(string(m[1]))
	var args []string
	for _, f := range strings.Fields(line)[1:] {
		args = append(args, strings.Trim(f, "'"))
	}
	cmd := exec.Command(bin, append([]string{"-output", "json", "-verbose"}, args...)...)
	cmd.Env = append(os.Environ(), "HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9") // no network, whatever the machine has
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	_ = cmd.Run()
	var res struct {
		Resources []struct{ Name, Status, Msg string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("kubeconform %v: %v\n%s", args, err, stdout.String())
	}
	got := map[string]string{}
	for _, r := range res.Resources {
		got[r.Name] = r.Status
	}
	if got["good"] != "statusValid" || got["bad"] != "statusInvalid" {
		t.Errorf("kubeconform %v: %v, want good valid and bad invalid\n%s", args, got, stdout.String())
	}
}
