package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/shareddata"
)

// requireKubeconformEnv turns a missing kubeconform into a failure (CI
// installs it: .ci/run).
const requireKubeconformEnv = "CRDSCHEMA_REQUIRE_KUBECONFORM"

// knownFalseAccepts are the corpus objects the apiserver rejects and
// kubeconform accepts with the exported schemas, each for a reason JSON
// Schema cannot state: CEL rules (x-kubernetes-validations), and under
// strict the unknown fields of a .status the apiserver drops on create.
var knownFalseAccepts = map[bool]int{false: 4, true: 2}

// TestKubeconformCorpus exports the schemas of every corpus CRD with
// `crdschema jsonschema`, runs the real kubeconform over every corpus
// object with them (plain and -strict) and compares its verdicts with the
// apiserver's (expected/apply.jsonl: rejected when it has errors; under
// strict also when it has unknown fields): no false reject, and no more
// false accepts than the known ones.
func TestKubeconformCorpus(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs kubeconform over the whole corpus")
	}
	bin, err := exec.LookPath("kubeconform")
	if err != nil {
		msg := "kubeconform not on PATH (go install github.com/yannh/kubeconform/cmd/kubeconform@v0.8.0)"
		if os.Getenv(requireKubeconformEnv) == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	corpus := shareddata.Dir(t, "corpus")
	want := apiserverVerdicts(t, filepath.Join(corpus, "expected", "apply.jsonl"))
	tmp := t.TempDir()
	objects := splitExamples(t, corpus, filepath.Join(tmp, "objects"))
	if len(objects) != len(want) {
		t.Fatalf("%d example objects, %d expected answers", len(objects), len(want))
	}
	exportCorpusSchemas(t, corpus, filepath.Join(tmp, "schemas"))
	// The plain and the strict pass run at the same time.
	var got [2]map[string]string
	var errs [2]error
	var wg sync.WaitGroup
	for i, strict := range []bool{false, true} {
		wg.Go(func() {
			got[i], errs[i] = runKubeconform(bin, filepath.Join(tmp, "schemas"), filepath.Join(tmp, "objects"), strict)
		})
	}
	wg.Wait()
	for i, strict := range []bool{false, true} {
		if errs[i] != nil {
			t.Fatalf("strict=%v: %v", strict, errs[i])
		}
		got := got[i]
		var falseRejects, falseAccepts []string
		for path, key := range objects {
			v := want[key]
			rejected := v.rejected || strict && v.unknown
			switch status := got[path]; {
			case !rejected && status != "" && status != "statusValid":
				falseRejects = append(falseRejects, key+": "+status)
			case rejected && (status == "" || status == "statusValid"):
				falseAccepts = append(falseAccepts, key)
			}
		}
		sort.Strings(falseRejects)
		sort.Strings(falseAccepts)
		t.Logf("strict=%v: %d objects, %d false rejects, %d false accepts %v", strict, len(objects), len(falseRejects), len(falseAccepts), falseAccepts)
		if len(falseRejects) > 0 {
			t.Errorf("strict=%v: kubeconform rejects %d objects the apiserver accepts:\n%s", strict, len(falseRejects), strings.Join(falseRejects, "\n"))
		}
		if len(falseAccepts) > knownFalseAccepts[strict] {
			t.Errorf("strict=%v: %d false accepts, %d known", strict, len(falseAccepts), knownFalseAccepts[strict])
		}
	}
}

type verdict struct{ rejected, unknown bool }

// apiserverVerdicts reads apply.jsonl: FILE#DOCUMENT → verdict.
func apiserverVerdicts(t *testing.T, path string) map[string]verdict {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]verdict{}
	for _, l := range parseLines(t, data) {
		out[fmt.Sprintf("%s#%d", l.File, l.Document)] = verdict{rejected: len(l.Errors) > 0, unknown: len(l.Pruned) > 0}
	}
	return out
}

// splitExamples writes every example document as its own JSON file under
// dir/PROJECT, returning file → FILE#DOCUMENT (FILE relative to corpus).
func splitExamples(t *testing.T, corpus, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range corpusProjects(t, corpus) {
		files, _ := filepath.Glob(filepath.Join(corpus, p, "examples", "*"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(corpus, f)
			docs, err := crdschema.ReadDocuments(rel, data)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range docs {
				path := filepath.Join(dir, p, fmt.Sprintf("%05d.json", len(out)))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, d.JSON(), 0o644); err != nil {
					t.Fatal(err)
				}
				out[path] = fmt.Sprintf("%s#%d", rel, d.Index)
			}
		}
	}
	return out
}

// exportCorpusSchemas runs `crdschema jsonschema` on every corpus CRD,
// one CRD at a time (a rejected CRD writes nothing and exits 1) into
// dir/PROJECT.
func exportCorpusSchemas(t *testing.T, corpus, dir string) {
	t.Helper()
	for _, p := range corpusProjects(t, corpus) {
		crds, _ := filepath.Glob(filepath.Join(corpus, p, "crds", "*"))
		for _, c := range crds {
			var stderr bytes.Buffer
			if code := run([]string{"jsonschema", "--crd", c, "--out", filepath.Join(dir, p)}, nil, io.Discard, &stderr); code == 2 {
				t.Fatalf("jsonschema %s: exit 2: %s", c, stderr.String())
			}
		}
	}
}

// runKubeconform validates every project's objects with its schemas and
// returns object file → kubeconform's status (kubeconform leaves valid
// resources out of its JSON output unless -verbose).
func runKubeconform(bin, schemas, objects string, strict bool) (map[string]string, error) {
	out := map[string]string{}
	projects, _ := os.ReadDir(objects)
	for _, p := range projects {
		args := []string{"-output", "json", "-verbose", "-schema-location",
			filepath.Join(schemas, p.Name()) + "/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}{{.StrictSuffix}}.json"}
		if strict {
			args = append(args, "-strict")
		}
		cmd := exec.Command(bin, append(args, filepath.Join(objects, p.Name()))...)
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		if err := cmd.Run(); err != nil && stdout.Len() == 0 {
			return nil, fmt.Errorf("kubeconform: %v", err)
		}
		var res struct {
			Resources []struct{ Filename, Status string }
		}
		if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
			return nil, fmt.Errorf("kubeconform output: %v\n%.500s", err, stdout.String())
		}
		for _, r := range res.Resources {
			out[r.Filename] = r.Status
		}
	}
	return out, nil
}
