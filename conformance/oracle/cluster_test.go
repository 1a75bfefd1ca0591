package oracle_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/conformance/oracle"
)

// The scenarios of ../../crdfake/testdata/cluster: sequences of requests
// of custom resources (create, update, patch, apply, get, delete, the
// status and scale subresources). TestClusterScenarios answers them with
// the apiserver's pieces (Cluster) and checks the answers against the
// .golden files beside them, which crdfake's TestClusterScenarios
// replays through its fake client; -update-cluster rewrites them.
var updateCluster = flag.Bool("update-cluster", false, "rewrite ../../crdfake/testdata/cluster/*.golden")

const scenarioDir = "../../crdfake/testdata/cluster"

// scenario is one scenario file.
type scenario struct {
	CRDs  []string       `json:"crds"`
	Steps []scenarioStep `json:"steps"`
}

type scenarioStep struct {
	Op            string                `json:"op"`
	Sub           string                `json:"sub"`
	Type          string                `json:"type"`
	APIVersion    string                `json:"apiVersion"`
	Kind          string                `json:"kind"`
	Namespace     string                `json:"namespace"`
	Name          string                `json:"name"`
	Manager       string                `json:"manager"`
	Force         bool                  `json:"force"`
	Base          *int                  `json:"base"`
	Preconditions *metav1.Preconditions `json:"preconditions"`
	Body          json.RawMessage       `json:"body"`
}

// stepResult is a step's answer as the golden files hold it: the response
// object (uids and times masked) or the error status.
type stepResult struct {
	Step   int            `json:"step"`
	Op     string         `json:"op"`
	Object map[string]any `json:"object,omitempty"`
	Error  *stepError     `json:"error,omitempty"`
}

type stepError struct {
	Code    int32    `json:"code"`
	Reason  string   `json:"reason"`
	Message string   `json:"message"`
	Group   string   `json:"group,omitempty"`
	Kind    string   `json:"kind,omitempty"`
	Name    string   `json:"name,omitempty"`
	Causes  []string `json:"causes,omitempty"`
}

func TestClusterScenarios(t *testing.T) {
	shared := sharedDir(t)
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in %s: %v", scenarioDir, err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".yaml"), func(t *testing.T) {
			got := runScenario(t, shared, f)
			golden := strings.TrimSuffix(f, ".yaml") + ".golden"
			if *updateCluster {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update-cluster to write it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the apiserver's answers; run with -update-cluster and read the diff", golden)
			}
		})
	}
}

func runScenario(t *testing.T, shared, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var sc scenario
	if err := yaml.UnmarshalStrict(data, &sc); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range sc.CRDs {
		paths = append(paths, filepath.Join(shared, "corpus", p))
	}
	docs, _, err := oracle.ReadDocuments(".", paths, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := oracle.NewCluster(docs)
	if err != nil {
		t.Fatal(err)
	}
	var results []stepResult
	responses := map[int]map[string]any{}
	for i, st := range sc.Steps {
		req := clusterRequest(t, st, responses)
		obj, status := cl.Do(req)
		r := stepResult{Step: i, Op: stepName(st)}
		if status != nil {
			r.Error = errorOf(status)
		} else {
			responses[i] = obj
			if st.Op != "delete" { // a client's Delete returns no object
				r.Object = masked(obj)
			}
		}
		maskGenerated(&r, st.Body)
		results = append(results, r)
	}
	out, err := json.MarshalIndent(results, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

func stepName(st scenarioStep) string {
	name := st.Op
	if st.Sub != "" {
		name += " " + st.Sub
	}
	if st.Type != "" {
		name += " (" + st.Type + ")"
	}
	return name
}

// clusterRequest is a step as a request: the body from the step's base
// response when it names one, the URL's fields from the body when the
// step does not give them.
func clusterRequest(t *testing.T, st scenarioStep, responses map[int]map[string]any) oracle.ClusterRequest {
	t.Helper()
	var raw any
	if len(st.Body) > 0 {
		if err := json.Unmarshal(st.Body, &raw); err != nil {
			t.Fatal(err)
		}
	}
	body, _ := raw.(map[string]any)
	if st.Base != nil {
		base, ok := responses[*st.Base]
		if !ok {
			t.Fatalf("step %s: base %d has no response", st.Op, *st.Base)
		}
		body = overlay(base, body)
	}
	md, _ := body["metadata"].(map[string]any)
	req := oracle.ClusterRequest{Verb: st.Op, Subresource: st.Sub, Manager: st.Manager, Force: st.Force, Preconditions: st.Preconditions,
		APIVersion: or(st.APIVersion, body["apiVersion"]), Kind: or(st.Kind, body["kind"]),
		Namespace: or(st.Namespace, md["namespace"]), Name: or(st.Name, md["name"])}
	switch st.Type {
	case "merge":
		req.PatchType = types.MergePatchType
	case "json":
		req.PatchType = types.JSONPatchType
	case "apply":
		req.PatchType = types.ApplyPatchType
	}
	switch {
	case body != nil:
		req.Body, _ = json.Marshal(body)
	case raw != nil:
		req.Body, _ = json.Marshal(raw)
	}
	return req
}

func or(s string, v any) string {
	if s != "" {
		return s
	}
	x, _ := v.(string)
	return x
}

// overlay is base with body's top-level fields, metadata merged field by
// field.
func overlay(base, body map[string]any) map[string]any {
	out := map[string]any{}
	data, _ := json.Marshal(base)
	_ = json.Unmarshal(data, &out)
	for k, v := range body {
		if k == "metadata" {
			md, _ := out["metadata"].(map[string]any)
			if md == nil {
				md = map[string]any{}
			}
			for mk, mv := range v.(map[string]any) {
				md[mk] = mv
			}
			out[k] = md
			continue
		}
		out[k] = v
	}
	return out
}

// masked is a response without what differs between two runs: uids,
// times, and the name of the default manager (a request without
// fieldManager is recorded under the client's user agent).
func masked(obj map[string]any) map[string]any {
	out := map[string]any{}
	data, _ := json.Marshal(obj)
	_ = json.Unmarshal(data, &out)
	md, _ := out["metadata"].(map[string]any)
	for k, mask := range map[string]string{"uid": "<uid>", "creationTimestamp": "<time>", "deletionTimestamp": "<time>"} {
		if _, ok := md[k]; ok {
			md[k] = mask
		}
	}
	entries, _ := md["managedFields"].([]any)
	// The apiserver orders entries by operation, then time (seconds),
	// then manager: the order of two writes in two seconds is not the
	// order of two in one.
	sort.SliceStable(entries, func(i, j int) bool { return entryKey(entries[i]) < entryKey(entries[j]) })
	for _, e := range entries {
		if m, ok := e.(map[string]any); ok && m["time"] != nil {
			m["time"] = "<time>"
		}
		if m, ok := e.(map[string]any); ok && m["manager"] == oracle.DefaultManager {
			m["manager"] = "<default>"
		}
	}
	return out
}

// maskGenerated replaces, in a result, a name generated from the request's
// generateName (random) by <generated>.
func maskGenerated(r *stepResult, body json.RawMessage) {
	var obj struct {
		Metadata struct{ Name, GenerateName string }
	}
	if json.Unmarshal(body, &obj) != nil || obj.Metadata.Name != "" || obj.Metadata.GenerateName == "" {
		return
	}
	re := regexp.MustCompile(regexp.QuoteMeta(obj.Metadata.GenerateName) + "[a-z0-9]{5}")
	if md, ok := r.Object["metadata"].(map[string]any); ok {
		md["name"] = "<generated>"
	}
	if e := r.Error; e != nil {
		e.Message = re.ReplaceAllString(e.Message, "<generated>")
		e.Name = re.ReplaceAllString(e.Name, "<generated>")
		for i, c := range e.Causes {
			e.Causes[i] = re.ReplaceAllString(c, "<generated>")
		}
		sort.Strings(e.Causes)
	}
}

func errorOf(st *metav1.Status) *stepError {
	e := &stepError{Code: st.Code, Reason: string(st.Reason), Message: st.Message}
	if d := st.Details; d != nil {
		e.Group, e.Kind, e.Name = d.Group, d.Kind, d.Name
		for _, c := range d.Causes {
			e.Causes = append(e.Causes, string(c.Type)+" "+c.Field+": "+c.Message)
		}
		sort.Strings(e.Causes)
	}
	return e
}

func entryKey(e any) string {
	m, _ := e.(map[string]any)
	return fmt.Sprint(m["operation"], "/", m["manager"], "/", m["apiVersion"], "/", m["subresource"])
}
