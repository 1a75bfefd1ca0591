package crdfake_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/crdfake"
)

// TestClusterScenarios replays the scenarios of testdata/cluster through
// the fake client and compares every answer with the .golden beside
// it: the apiserver's answers to the same requests, computed by the
// conformance module's oracle.Cluster (the apiserver's registry, storage
// codec and field managers; its TestClusterScenarios checks the goldens).
// Causes are compared as sets, and so is the message of an error with
// several causes.
func TestClusterScenarios(t *testing.T) {
	corpus := sharedDir(t, "corpus")
	files, _ := filepath.Glob(filepath.Join("testdata", "cluster", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no scenarios")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".yaml"), func(t *testing.T) {
			var want []stepResult
			data, err := os.ReadFile(strings.TrimSuffix(f, ".yaml") + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			got := replayScenario(t, corpus, f)
			if len(got) != len(want) {
				t.Fatalf("%d steps answered, want %d", len(got), len(want))
			}
			for i := range got {
				if g, w := normalResult(got[i]), normalResult(want[i]); !reflect.DeepEqual(g, w) {
					gj, _ := json.MarshalIndent(g, "", " ")
					wj, _ := json.MarshalIndent(w, "", " ")
					t.Errorf("step %d (%s):\ngot  %s\nwant %s", i, want[i].Op, gj, wj)
				}
			}
		})
	}
}

// scenario is a testdata/cluster file (see localqueue-versions.yaml).
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

// normalResult is a result as compared: numbers by value, the message of
// an error with several causes without its list (whose order is the
// apiserver's walk).
func normalResult(r stepResult) stepResult {
	r.Op = ""
	if r.Object != nil {
		data, _ := json.Marshal(r.Object)
		r.Object = nil
		_ = json.Unmarshal(data, &r.Object)
	}
	if r.Error != nil && len(r.Error.Causes) > 1 {
		e := *r.Error
		if i := strings.Index(e.Message, " is invalid: "); i >= 0 {
			e.Message = e.Message[:i]
		}
		r.Error = &e
	}
	return r
}

func replayScenario(t *testing.T, corpus, file string) []stepResult {
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
		paths = append(paths, filepath.Join(corpus, p))
	}
	crds, err := crdfake.ReadFiles(paths...)
	if err != nil {
		t.Fatal(err)
	}
	c := crds.NewClientBuilder().WithReturnManagedFields().Build()
	var out []stepResult
	responses := map[int]map[string]any{}
	for i, st := range sc.Steps {
		obj, err := doStep(t, c, st, responses)
		r := stepResult{Step: i, Op: st.Op}
		if err != nil {
			r.Error = statusOf(t, err)
		} else if obj != nil {
			responses[i] = obj
			r.Object = maskedObject(obj)
		}
		maskGenerated(&r, st.Body)
		out = append(out, r)
	}
	return out
}

// stepBody is a step's body: from its base response when it names one.
func stepBody(t *testing.T, st scenarioStep, responses map[int]map[string]any) map[string]any {
	t.Helper()
	var body map[string]any
	if len(st.Body) > 0 && st.Body[0] == '{' {
		if err := json.Unmarshal(st.Body, &body); err != nil {
			t.Fatal(err)
		}
	}
	if st.Base == nil {
		return body
	}
	base, ok := responses[*st.Base]
	if !ok {
		t.Fatalf("base %d has no response", *st.Base)
	}
	out := map[string]any{}
	data, _ := json.Marshal(base)
	_ = json.Unmarshal(data, &out)
	for k, v := range body {
		if k != "metadata" {
			out[k] = v
			continue
		}
		md, _ := out["metadata"].(map[string]any)
		if md == nil {
			md = map[string]any{}
		}
		for mk, mv := range v.(map[string]any) {
			md[mk] = mv
		}
		out["metadata"] = md
	}
	return out
}

// doStep sends a step's request as a controller does, through the
// client's methods.
func doStep(t *testing.T, c client.Client, st scenarioStep, responses map[int]map[string]any) (map[string]any, error) {
	t.Helper()
	ctx := context.Background()
	body := stepBody(t, st, responses)
	target := &unstructured.Unstructured{Object: map[string]any{}}
	md, _ := body["metadata"].(map[string]any)
	target.SetAPIVersion(first(st.APIVersion, body["apiVersion"]))
	target.SetKind(first(st.Kind, body["kind"]))
	target.SetNamespace(first(st.Namespace, md["namespace"]))
	target.SetName(first(st.Name, md["name"]))
	var opts []client.PatchOption
	if st.Manager != "" {
		opts = append(opts, client.FieldOwner(st.Manager))
	}
	if st.Force {
		opts = append(opts, client.ForceOwnership)
	}
	if st.Sub == "scale" {
		return scaleStep(ctx, c, st, target, body)
	}
	obj := &unstructured.Unstructured{Object: body}
	var err error
	switch st.Op {
	case "create":
		err = c.Create(ctx, obj, fieldOwner(st.Manager))
	case "update":
		if st.Sub == "status" {
			err = c.Status().Update(ctx, obj, fieldOwner(st.Manager))
		} else {
			err = c.Update(ctx, obj, fieldOwner(st.Manager))
		}
	case "patch":
		obj = target
		err = patchStep(ctx, c, st, obj, body, opts)
	case "get":
		obj = target
		err = c.Get(ctx, client.ObjectKeyFromObject(target), obj)
	case "delete":
		// A client's Delete returns no object: the goldens hold none.
		return nil, c.Delete(ctx, target, &client.DeleteOptions{Preconditions: st.Preconditions})
	default:
		t.Fatalf("unknown op %q", st.Op)
	}
	if err != nil {
		return nil, err
	}
	return obj.Object, nil
}

type fieldOwner string

func (f fieldOwner) ApplyToCreate(o *client.CreateOptions) {
	if f != "" {
		o.FieldManager = string(f)
	}
}

func (f fieldOwner) ApplyToUpdate(o *client.UpdateOptions) {
	if f != "" {
		o.FieldManager = string(f)
	}
}

func (f fieldOwner) ApplyToSubResourceUpdate(o *client.SubResourceUpdateOptions) {
	f.ApplyToUpdate(&o.UpdateOptions)
}

func patchStep(ctx context.Context, c client.Client, st scenarioStep, obj *unstructured.Unstructured, body map[string]any, opts []client.PatchOption) error {
	data, _ := json.Marshal(body)
	if body == nil {
		data = st.Body // a JSON patch
	}
	if st.Type == "apply" {
		ac := client.ApplyConfigurationFromUnstructured(&unstructured.Unstructured{Object: body})
		var aopts []client.ApplyOption
		var sopts []client.SubResourceApplyOption
		for _, o := range opts {
			switch o := o.(type) {
			case client.FieldOwner:
				aopts, sopts = append(aopts, o), append(sopts, o)
			default:
				aopts, sopts = append(aopts, client.ForceOwnership), append(sopts, client.ForceOwnership)
			}
		}
		var err error
		if st.Sub == "status" {
			err = c.Status().Apply(ctx, ac, sopts...)
		} else {
			err = c.Apply(ctx, ac, aopts...)
		}
		if err == nil {
			data, _ := json.Marshal(ac)
			obj.Object = nil
			_ = json.Unmarshal(data, &obj.Object)
		}
		return err
	}
	pt := types.MergePatchType
	if st.Type == "json" {
		pt = types.JSONPatchType
	}
	if st.Sub == "status" {
		var sopts []client.SubResourcePatchOption
		for _, o := range opts {
			if f, ok := o.(client.FieldOwner); ok {
				sopts = append(sopts, f)
			}
		}
		return c.Status().Patch(ctx, obj, client.RawPatch(pt, data), sopts...)
	}
	return c.Patch(ctx, obj, client.RawPatch(pt, data), opts...)
}

func scaleStep(ctx context.Context, c client.Client, st scenarioStep, target *unstructured.Unstructured, body map[string]any) (map[string]any, error) {
	scale := &unstructured.Unstructured{}
	scale.SetAPIVersion("autoscaling/v1")
	scale.SetKind("Scale")
	var err error
	switch st.Op {
	case "get":
		err = c.SubResource("scale").Get(ctx, target, scale)
	case "update":
		scale.Object = body
		err = c.SubResource("scale").Update(ctx, target, client.WithSubResourceBody(scale), fieldOwner(st.Manager))
	case "patch":
		data, _ := json.Marshal(body)
		pt := types.MergePatchType
		if st.Type == "json" {
			pt = types.JSONPatchType
		}
		err = c.SubResource("scale").Patch(ctx, target, client.RawPatch(pt, data), client.WithSubResourceBody(scale))
	}
	if err != nil {
		return nil, err
	}
	return scale.Object, nil
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

func first(s string, v any) string {
	if s != "" {
		return s
	}
	x, _ := v.(string)
	return x
}

func statusOf(t *testing.T, err error) *stepError {
	t.Helper()
	var se apierrors.APIStatus
	if !errors.As(err, &se) {
		return &stepError{Message: fmt.Sprintf("not an API status: %T %v", err, err)}
	}
	st := se.Status()
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

// maskedObject is a response without what differs between two runs:
// uids, times, and the name of the default manager (the program's: a
// request without fieldManager is recorded under the client's user agent).
func maskedObject(obj map[string]any) map[string]any {
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
		if m, ok := e.(map[string]any); ok && m["manager"] == filepath.Base(os.Args[0]) {
			m["manager"] = "<default>"
		}
	}
	return out
}

func entryKey(e any) string {
	m, _ := e.(map[string]any)
	return fmt.Sprint(m["operation"], "/", m["manager"], "/", m["apiVersion"], "/", m["subresource"])
}
