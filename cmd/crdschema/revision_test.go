package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/internal/golden"
	"github.com/crdschema/crdschema/revision"
)

// TestRevisionGolden runs every testdata/revision/cases/*.yaml
// ({args: [...]}) in revisionDir, whose old/ and new/ hold real corpus
// CRDs (cert-manager's Certificate, cluster-api's IPAddress) and new
// revisions made by editing them (see testdata/revision/README.md), and
// compares exit status, stdout and stderr with the .golden file.
func TestRevisionGolden(t *testing.T) {
	dir := revisionDir(t)
	cases, err := filepath.Abs(filepath.Join("testdata", "revision", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	golden.Run(t, cases, func(t *testing.T, path string, data []byte) string {
		var c struct {
			Args []string `json:"args"`
		}
		if err := yaml.UnmarshalStrict(data, &c); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		var out, errb bytes.Buffer
		status := run(c.Args, strings.NewReader(""), &out, &errb)
		return fmt.Sprintf("$ crdschema %s\nexit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(c.Args, " "), status, out.String(), errb.String())
	})
}

// A dump read from standard input, as `kubectl get -o yaml` writes it (a
// List) and as a stream of many documents: every object is replayed, the
// findings of the 1,000th are on its own line.
func TestRevisionStdin(t *testing.T) {
	t.Chdir(revisionDir(t))
	var stream strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&stream, "---\napiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: c%d, namespace: web, resourceVersion: \"%d\"}\nspec:\n  commonName: c%d.example.com\n  issuerRef: {name: letsencrypt}\n  secretName: tls\n", i, i+1, i)
	}
	var out, errb bytes.Buffer
	status := run([]string{"revision", "--old", "old/certificates.cert-manager.io.yaml", "--crd", "new/certificates.cert-manager.io.yaml", "-"}, strings.NewReader(stream.String()), &out, &errb)
	if status != 1 || errb.Len() > 0 {
		t.Fatalf("exit %d, stderr %s", status, errb.String())
	}
	for _, want := range []string{
		"-:7994: Certificate/c999: data loss: spec.commonName lost on read at v1\n",
		"crdschema: CustomResourceDefinition/certificates.cert-manager.io: 1000 objects replayed: 1000 losing data, 0 failing update (0 new), 0 failing create (0 new)\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in\n%s", want, tail(out.String(), 600))
		}
	}

	list := "apiVersion: v1\nkind: List\nitems:\n" + strings.ReplaceAll(strings.ReplaceAll(stream.String()[4:], "\n---\n", "\n"), "apiVersion: cert-manager.io/v1\n", "- apiVersion: cert-manager.io/v1\n")
	list = strings.NewReplacer("\nkind: Certificate", "\n  kind: Certificate", "\nmetadata:", "\n  metadata:", "\nspec:", "\n  spec:", "\n  commonName", "\n    commonName", "\n  issuerRef", "\n    issuerRef", "\n  secretName", "\n    secretName").Replace(list)
	out.Reset()
	status = run([]string{"revision", "-o", "json", "--old", "old/certificates.cert-manager.io.yaml", "--crd", "new/certificates.cert-manager.io.yaml", "-"}, strings.NewReader(list), &out, &errb)
	if status != 1 || errb.Len() > 0 {
		t.Fatalf("List: exit %d, stderr %s", status, errb.String())
	}
	if n := strings.Count(out.String(), `"crd":"certificates.cert-manager.io"`); n != 1000 {
		t.Errorf("List: %d objects replayed, want 1000:\n%s", n, tail(out.String(), 600))
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// The changes revision.Changes returns are printed with their class and
// make the run unsafe when they are rejected, data-loss or breaking (the
// changes are set by hand here, to pin how the verb shows each class).
func TestRevisionChanges(t *testing.T) {
	t.Chdir(revisionDir(t))
	var errb bytes.Buffer
	olds, _, err := storedCRDs([]string{"old/certificates.cert-manager.io.yaml"}, &inputs{}, &errb)
	if err != nil {
		t.Fatal(err)
	}
	news, _, err := loadCRDs([]string{"new/certificates.cert-manager.io.yaml"}, &inputs{}, &errb)
	if err != nil {
		t.Fatal(err)
	}
	run, err := pairRevisions(olds, news)
	if err != nil {
		t.Fatal(err)
	}
	p := run.pairs[0]
	p.changes = []revision.Change{
		{Kind: "field-removed", Version: "v1", Path: "spec.commonName", Class: "data-loss", Detail: "stored objects lose it when read"},
		{Kind: "bounds-tightened", Version: "v1", Path: "spec.secretName", Class: "ratcheted", Detail: "maxLength 4", Static: true},
	}
	var got strings.Builder
	for _, f := range crdFindings(p, run.fail.fails) {
		fmt.Fprintf(&got, "%s %s\n", f.level, f.text)
	}
	want := "notice the apiserver accepts the update\n" +
		"error data-loss: field-removed in v1 at spec.commonName: stored objects lose it when read\n" +
		"warning ratcheted: bounds-tightened in v1 at spec.secretName: maxLength 4 (static: inferred from the schemas)\n"
	if got.String() != want {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want)
	}
	if !run.unsafe() {
		t.Error("a data-loss change does not make the run unsafe")
	}
	p.changes = p.changes[1:]
	if run.unsafe() {
		t.Error("a ratcheted change makes the run unsafe")
	}
	if run.fail = []string{"ratcheted"}; !run.unsafe() {
		t.Error("--fail-on ratcheted: a ratcheted change does not make the run unsafe")
	}
	run.fail = nil
	line := newCRDLine(p)
	if len(line.Changes) != 1 || line.Changes[0].Field != "spec.secretName" || !line.Changes[0].Static {
		t.Errorf("JSON changes %+v", line.Changes)
	}
}

// convertAPIVersion is a conversion webhook (ConversionReview v1) that
// only rewrites apiVersion, as strategy None would.
func convertAPIVersion(w http.ResponseWriter, r *http.Request) {
	var review map[string]any
	if err := json.NewDecoder(r.Body).Decode(&review); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req, _ := review["request"].(map[string]any)
	objs, _ := req["objects"].([]any)
	for _, o := range objs {
		if m, ok := o.(map[string]any); ok {
			m["apiVersion"] = req["desiredAPIVersion"]
		}
	}
	review["response"] = map[string]any{"uid": req["uid"], "result": map[string]any{"status": "Success"}, "convertedObjects": objs}
	delete(review, "request")
	_ = json.NewEncoder(w).Encode(review)
}

// --converter URL: the webhook CRD's steps go through the webhook, and
// nothing is "not checked" any more.
func TestRevisionConverter(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(convertAPIVersion))
	defer srv.Close()
	t.Chdir(filepath.Join("testdata", "revision"))
	var out, errb bytes.Buffer
	status := run([]string{"revision", "--converter", srv.URL, "--old", "webhook/old.yaml", "--crd", "webhook/new.yaml", "webhook/objects.yaml"}, strings.NewReader(""), &out, &errb)
	if strings.Contains(out.String(), "not checked") || errb.Len() > 0 {
		t.Errorf("exit %d\n%s%s", status, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "3 objects replayed: 0 losing data") {
		t.Errorf("the replay through the webhook:\n%s", out.String())
	}
}

// A manifest the old revision refuses is replayed as stored, and the
// output says so: the JSON line's refusedManifest and the summary's
// count, a notice and a summary clause in text. The accepted manifest
// beside it is a manifest, not refused.
func TestRevisionRefusedManifest(t *testing.T) {
	objects := filepath.Join(t.TempDir(), "objects.yaml")
	manifests := "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: big}\nspec: {replicas: big}\n---\n" +
		"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: small}\nspec: {replicas: 2}\n"
	if err := os.WriteFile(objects, []byte(manifests), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"revision", "--old", crontabCRD, "--crd", crontabCRD, objects}
	var out, errb bytes.Buffer
	run(append(args, "-o", "json"), strings.NewReader(""), &out, &errb)
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var l struct {
			Name            string
			Manifest        bool
			RefusedManifest bool
			Summary         *replayCounts
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		got = append(got, fmt.Sprintf("%s %t %t", l.Name, l.Manifest, l.RefusedManifest))
		if l.Summary != nil {
			got = append(got, fmt.Sprintf("manifests %d refused %d", l.Summary.Manifests, l.Summary.RefusedManifests))
		}
	}
	if want := "big false true|small true false|crontabs.stable.example.com false false|manifests 1 refused 1"; strings.Join(got, "|") != want {
		t.Errorf("JSON lines\n%s\nwant\n%s\n%s", strings.Join(got, "|"), want, errb.String())
	}
	out.Reset()
	run(args, strings.NewReader(""), &out, &errb)
	for _, want := range []string{
		"CronTab/big: manifest the old revision refuses (1 error, first: spec.replicas: Invalid value: ",
		"): replayed as stored, as a dump is\n",
		"; 1 manifest without server-set metadata created under the old revision first; 1 manifest the old revision refuses, replayed as stored\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "CronTab/small: manifest") {
		t.Errorf("an accepted manifest is said refused:\n%s", out.String())
	}
}

// A refused manifest's notice names a field's error as the first, not
// the root's "some validation rules were not checked" the apiserver
// lists first whenever a blocking error kept CEL rules from running
// (cluster-api v1.13.0's cluster.yaml examples: 7 errors, the first of
// them that one).
func TestRefusedManifestNotice(t *testing.T) {
	rulesNotRun := field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
	r := revision.Effect{RefusedManifest: true, OldCreate: field.ErrorList{rulesNotRun,
		field.Invalid(field.NewPath("spec", "replicas"), "x", "must be of type integer")}}
	fs := objectFindings(&replayLine{Kind: "CronTab", Name: "a"}, r)
	if len(fs) != 1 || !strings.Contains(fs[0].text, "(2 errors, first: spec.replicas: Invalid value: ") {
		t.Errorf("refused manifest's notice: %+v", fs)
	}
}
