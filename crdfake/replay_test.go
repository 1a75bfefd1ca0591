package crdfake_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crdschema/crdschema/crdfake"
)

// The shared test data (../shared beside the checkout) is found as the
// core module's internal/shareddata finds it, which another module cannot
// import: without it the replays skip with a message, or fail when
// CRDSCHEMA_REQUIRE_SHARED=1 (as in CI).
const requireShared = "CRDSCHEMA_REQUIRE_SHARED"

// The two replays (TestCorpusCreate, TestConformanceUpdates) build a fake
// client per object, about a minute of CPU together. By default each runs
// a deterministic sample: every replayEvery-th object of each project or
// batch, starting with its first, so that every CRD set is replayed.
// CRDFAKE_REPLAY=full replays every object (CI's long budget, .ci/long).
// Each test logs which it ran.
const (
	replayEnv   = "CRDFAKE_REPLAY"
	replayEvery = 4
)

// replaySample reports whether the i-th object (from 0) of a project or
// batch is replayed, and describes the choice for the test's log.
func replaySample() (keep func(i int) bool, what string) {
	if os.Getenv(replayEnv) == "full" {
		return func(int) bool { return true }, "every object"
	}
	return func(i int) bool { return i%replayEvery == 0 },
		fmt.Sprintf("a sample: every %dth object of each project or batch (%s=full for all)", replayEvery, replayEnv)
}

func sharedDir(t testing.TB, elem ...string) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	root := filepath.Join("..", "..", "shared")
	if ok {
		root = filepath.Join(filepath.Dir(file), "..", "..", "shared")
	}
	p := filepath.Join(append([]string{root}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv(requireShared) == "1" {
			t.Fatalf("shared test data missing at %s (%s=1: it must be present)", p, requireShared)
		}
		t.Skipf("shared test data not found at %s: skipping (it sits beside the checkout in CI)", p)
	}
	return p
}

// expectedLine is one JSON line of the command's -o json answers.
type expectedLine struct {
	File      string          `json:"file"`
	Document  int             `json:"document"`
	Object    json.RawMessage `json:"object"`
	Pruned    []string        `json:"pruned"`
	Errors    []expectedError `json:"errors"`
	Operation string          `json:"operation"`
}

type expectedError struct {
	Type  string `json:"type"`
	Field string `json:"field"`
}

func readExpected(t *testing.T, path string) []expectedLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []expectedLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l expectedLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// validCRDs loads every CRD file of dirs the apiserver accepts into one
// set, and every CRD (accepted or not) for routing.
func validCRDs(t *testing.T, dirs ...string) (*crdfake.CRDs, []*crdschema.CRD) {
	t.Helper()
	var valid []string
	var all []*crdschema.CRD
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		sort.Strings(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			crds, err := crdschema.LoadCRDs(f, data)
			if err != nil {
				t.Fatal(err)
			}
			if len(crds) == 0 {
				t.Fatalf("%s: no CustomResourceDefinition", f)
			}
			all = append(all, crds...)
			// crdfake.ReadFiles takes a file whose CRDs the apiserver
			// all accepts.
			if !slices.ContainsFunc(crds, func(c *crdschema.CRD) bool { return len(c.Errors()) > 0 }) {
				valid = append(valid, f)
			}
		}
	}
	if len(valid) == 0 {
		return nil, all
	}
	set, err := crdfake.ReadFiles(valid...)
	if err != nil {
		t.Fatal(err)
	}
	return set, all
}

// document reads document i of an example file.
func document(t *testing.T, path string, i int) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := crdschema.ReadDocuments(path, data)
	for _, d := range docs {
		if d.Index == i {
			return d.Object
		}
	}
	t.Fatalf("%s: no document %d", path, i)
	return nil
}

// normalJSON decodes JSON with every number a float64, so that values
// compare by value (1 = 1.0).
func normalJSON(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// serverFields are the metadata a server populates, which the expected
// answers leave out; the fake's are dropped before comparing unless the
// expected object has them. The expected answers never hold the server's
// resourceVersion and generation (a request's own are printed as sent), so
// those are compared nowhere here; the unit tests pin the generation.
var serverFields = []string{"uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds"}

func withoutServerFields(t *testing.T, got map[string]any, want any) any {
	t.Helper()
	wantMeta, _ := want.(map[string]any)["metadata"].(map[string]any)
	g := normalJSON(t, got).(map[string]any)
	if md, ok := g["metadata"].(map[string]any); ok {
		delete(md, "resourceVersion")
		delete(md, "generation")
		delete(wantMeta, "generation")
		delete(wantMeta, "resourceVersion")
		for _, k := range serverFields {
			if _, keep := wantMeta[k]; !keep {
				delete(md, k)
			}
		}
		if _, ok := wantMeta["name"]; !ok && wantMeta["generateName"] != nil {
			delete(md, "name")
		}
		if _, ok := wantMeta["namespace"]; !ok && md["namespace"] == "default" {
			delete(md, "namespace") // sent in "default", as kubectl sends it
		}
	}
	return g
}

// throughStorage is what a cluster returns for an object it accepted at
// its version, which the expected answers (computed at the request's
// version) do not show: the object written at the storage version and
// read back, losing the fields the storage version's schema lacks and
// gaining its defaults. The root library's Convert and Read, compared with
// the apiserver on the conversion batches, compute it.
func throughStorage(t *testing.T, crd *crdschema.CRD, want any) any {
	t.Helper()
	obj, _ := want.(map[string]any)
	av, _ := obj["apiVersion"].(string)
	_, v, _ := strings.Cut(av, "/")
	if crd == nil || obj == nil || v == crd.StorageVersion() {
		return want
	}
	stored := crd.Convert(context.Background(), obj, crd.StorageVersion())
	if stored.Object == nil {
		return want
	}
	r := crd.Read(context.Background(), stored.Object, v)
	if r.Object == nil {
		return want
	}
	return r.Object
}

// crdFor is the CRD of obj's group and kind among crds.
func crdFor(crds []*crdschema.CRD, obj map[string]any) *crdschema.CRD {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group, _, _ := strings.Cut(av, "/")
	if !strings.Contains(av, "/") {
		group = ""
	}
	for _, c := range crds {
		if gk := c.GroupKind(); gk.Group == group && gk.Kind == kind && len(c.Errors()) == 0 {
			return c
		}
	}
	return nil
}

// inDefaultNamespace sends a namespaced object without namespace in
// "default", as kubectl does (a client sending none is refused:
// metadata.namespace is required).
func inDefaultNamespace(s *crdschema.Schema, obj map[string]any) {
	if s == nil || !s.Namespaced() {
		return
	}
	md, ok := obj["metadata"].(map[string]any)
	if _, present := obj["metadata"]; !present {
		md, ok = map[string]any{}, true
		obj["metadata"] = md
	}
	if ns, _ := md["namespace"].(string); ok && ns == "" {
		md["namespace"] = "default"
	}
}

// causePairs are an error's causes as sorted (type, field) pairs; nil for
// an error that is not an Invalid one.
func causePairs(err error) []string {
	var st apierrors.APIStatus
	if !errors.As(err, &st) || st.Status().Details == nil {
		return nil
	}
	var out []string
	for _, c := range st.Status().Details.Causes {
		out = append(out, string(c.Type)+" "+c.Field)
	}
	sort.Strings(out)
	return out
}

func expectedPairs(errs []expectedError) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Type+" "+e.Field)
	}
	sort.Strings(out)
	return out
}

// tally counts a replay's outcomes.
type tally struct {
	match, skipped int
	// webhook counts the objects a conversion webhook would convert
	// (needsWebhook).
	webhook int
	// unsampled counts the objects left out of a sample (replaySample).
	unsampled  int
	mismatches []string
}

func (c *tally) report(t *testing.T, what string) {
	t.Helper()
	t.Logf("%s: %d/%d match (%d skipped: CRD rejected; %d: a conversion webhook needed; %d not in the sample)", what, c.match, c.match+len(c.mismatches), c.skipped, c.webhook, c.unsampled)
	for i, m := range c.mismatches {
		if i == 20 {
			t.Errorf("... and %d more", len(c.mismatches)-20)
			break
		}
		t.Error(m)
	}
}

// check compares one answer of the fake with the expected line.
func (c *tally) check(t *testing.T, where string, l expectedLine, crd *crdschema.CRD, got map[string]any, err error) {
	t.Helper()
	var want any
	if err := json.Unmarshal(l.Object, &want); err != nil {
		t.Fatal(err)
	}
	switch {
	case want == nil && err == nil:
		c.mismatches = append(c.mismatches, fmt.Sprintf("%s: stored, want an error %v", where, expectedPairs(l.Errors)))
	case want == nil:
		c.match++
	case len(l.Errors) > 0:
		if gotPairs, wantPairs := causePairs(err), expectedPairs(l.Errors); !reflect.DeepEqual(gotPairs, wantPairs) {
			c.mismatches = append(c.mismatches, fmt.Sprintf("%s: causes %v, want %v (err %v)", where, gotPairs, wantPairs, err))
			return
		}
		c.match++
	case err != nil:
		c.mismatches = append(c.mismatches, fmt.Sprintf("%s: %v", where, err))
	default:
		want = throughStorage(t, crd, want)
		if g := withoutServerFields(t, got, want); !reflect.DeepEqual(g, normalJSON(t, want)) {
			gj, _ := json.Marshal(g)
			wj, _ := json.Marshal(want)
			c.mismatches = append(c.mismatches, fmt.Sprintf("%s: stored\n%s\nwant\n%s", where, gj, wj))
			return
		}
		c.match++
	}
}

// TestCorpusCreate replays the real-world corpus through Create: for every
// example whose CRD the apiserver accepts, the fake stores exactly what
// `crdschema apply` prints (../shared/corpus/expected/apply.jsonl, the
// apiserver's answers) and rejections carry exactly the expected causes.
func TestCorpusCreate(t *testing.T) {
	corpus := sharedDir(t, "corpus")
	lines := readExpected(t, filepath.Join(corpus, "expected", "apply.jsonl"))
	byProject := map[string][]expectedLine{}
	var projects []string
	for _, l := range lines {
		p := strings.SplitN(l.File, "/", 2)[0]
		if byProject[p] == nil {
			projects = append(projects, p)
		}
		byProject[p] = append(byProject[p], l)
	}
	keep, what := replaySample()
	t.Logf("corpus create: %s", what)
	var c tally
	for _, p := range projects {
		crds, all := validCRDs(t, filepath.Join(corpus, p, "crds"))
		for i, l := range byProject[p] {
			if !keep(i) {
				c.unsampled++
				continue
			}
			obj := document(t, filepath.Join(corpus, l.File), l.Document)
			s, err := crdschema.Route(all, obj)
			if isRejected(err) || crds == nil {
				c.skipped++
				continue
			}
			if needsWebhook(crdFor(all, obj), obj) {
				c.webhook++
				continue
			}
			inDefaultNamespace(s, obj)
			cl := crds.NewClientBuilder().Build()
			u := &unstructured.Unstructured{Object: obj}
			// A create carrying a resourceVersion is refused by the
			// apiserver's storage and by the fake ("resourceVersion
			// should not be set on objects to be created"), which
			// `crdschema apply` does not model: it is sent without.
			unstructured.RemoveNestedField(obj, "metadata", "resourceVersion")
			sent := systemFields(obj)
			err = cl.Create(context.Background(), u)
			var got map[string]any
			if err == nil {
				got = readBack(t, cl, u)
				maskSystemFields(t, got, sent)
			}
			c.check(t, fmt.Sprintf("%s#%d", l.File, l.Document), l, crdFor(all, obj), got, err)
		}
	}
	c.report(t, "corpus create")
	if want := 1300 * (len(lines) - c.unsampled) / len(lines); c.match < want {
		t.Errorf("only %d objects replayed, want %d or more", c.match, want)
	}
}

// needsWebhook tells whether obj is at a version other than its CRD's
// storage version under conversion strategy Webhook, which the fake
// cannot convert (README: what still differs from a cluster).
func needsWebhook(crd *crdschema.CRD, obj map[string]any) bool {
	if crd == nil || crd.ConversionStrategy() != "Webhook" {
		return false
	}
	av, _ := obj["apiVersion"].(string)
	return av != crd.GroupKind().Group+"/"+crd.StorageVersion()
}

// systemFields are the uid and creationTimestamp an object is sent with.
func systemFields(obj map[string]any) map[string]any {
	out := map[string]any{}
	md, _ := obj["metadata"].(map[string]any)
	for _, k := range []string{"uid", "creationTimestamp"} {
		if v, ok := md[k]; ok {
			out[k] = v
		}
	}
	return out
}

// maskSystemFields puts back into a created object the uid and
// creationTimestamp it was sent with: the apiserver sets both anew on
// create (rest.FillObjectMetaSystemFields), as the fake does, and the
// expected answers (`crdschema apply`) echo the sent ones. The fake must
// have set them.
func maskSystemFields(t *testing.T, got, sent map[string]any) {
	t.Helper()
	md, _ := got["metadata"].(map[string]any)
	for k, v := range sent {
		if s, _ := md[k].(string); s == "" {
			t.Errorf("created %v: no %s", md["name"], k)
		}
		md[k] = v
	}
}

func isRejected(err error) bool {
	var r *crdschema.RejectedError
	return errors.As(err, &r)
}

// readBack is the stored object u names, read through the client.
func readBack(t *testing.T, c client.Client, u *unstructured.Unstructured) map[string]any {
	t.Helper()
	got := &unstructured.Unstructured{}
	got.SetGroupVersionKind(u.GroupVersionKind())
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(u), got); err != nil {
		t.Fatalf("%s %q: %v", u.GetKind(), u.GetName(), err)
	}
	return got.Object
}

// TestConformanceUpdates replays the update cases of
// ../shared/conformance/random-20261123/update-* through Update (and
// Status().Update for the --subresource status batches): the stored
// object is put into the fake as stored, the new object sent with its
// resourceVersion, and the fake stores exactly the expected object or
// rejects the update with the expected causes.
func TestConformanceUpdates(t *testing.T) {
	root := sharedDir(t, "conformance", "random-20261123")
	batches, _ := filepath.Glob(filepath.Join(root, "update-*"))
	if len(batches) == 0 {
		t.Fatal("no update batches")
	}
	keep, what := replaySample()
	t.Logf("conformance updates: %s", what)
	var c tally
	for _, dir := range batches {
		args, err := os.ReadFile(filepath.Join(dir, "args.txt"))
		if err != nil {
			t.Fatal(err)
		}
		status := strings.Contains(string(args), "--subresource\nstatus")
		crds, all := validCRDs(t, filepath.Join(dir, "crds"))
		old := storedObjects(t, all, filepath.Join(dir, "old.yaml"))
		for i, l := range readExpected(t, filepath.Join(dir, "expected.jsonl")) {
			if !keep(i) {
				c.unsampled++
				continue
			}
			where := fmt.Sprintf("%s/%s#%d", filepath.Base(dir), l.File, l.Document)
			obj := document(t, filepath.Join(dir, l.File), l.Document)
			s, err := crdschema.Route(all, obj)
			if isRejected(err) || crds == nil {
				c.skipped++
				continue
			}
			var stored map[string]any
			if err == nil {
				stored = old[keyOf(s, obj)]
				inDefaultNamespace(s, obj)
			}
			got, err := replayUpdate(t, crds, obj, stored, status)
			c.check(t, where, l, crdFor(all, obj), got, err)
		}
	}
	c.report(t, "conformance updates")
}

// replayUpdate stores old (when there is one) as stored, then sends obj as
// an update (a create without old).
func replayUpdate(t *testing.T, crds *crdfake.CRDs, obj, old map[string]any, status bool) (map[string]any, error) {
	t.Helper()
	ctx := context.Background()
	u := &unstructured.Unstructured{Object: obj}
	b := crds.NewClientBuilder()
	if old != nil {
		o := &unstructured.Unstructured{Object: old}
		// The stored object lives where the update is sent ("default"
		// for a namespaced one without namespace, as the expected answers
		// take it; the fake clears a cluster-scoped one's).
		o.SetNamespace(u.GetNamespace())
		b = b.WithObjects(o)
	}
	cl := b.Build()
	var err error
	switch {
	case old == nil && !status:
		err = cl.Create(ctx, u)
	case old == nil:
		err = cl.Status().Update(ctx, u)
	default:
		cur := &unstructured.Unstructured{}
		cur.SetGroupVersionKind(u.GroupVersionKind())
		if err := cl.Get(ctx, client.ObjectKeyFromObject(u), cur); err == nil {
			u.SetResourceVersion(cur.GetResourceVersion())
		}
		if status {
			err = cl.Status().Update(ctx, u)
		} else {
			err = cl.Update(ctx, u)
		}
	}
	if err != nil {
		return nil, err
	}
	return readBack(t, cl, u), nil
}

type objectKey struct{ apiVersion, kind, namespace, name string }

// keyOf is the key the command matches new and stored objects by.
func keyOf(s *crdschema.Schema, obj map[string]any) objectKey {
	md, _ := obj["metadata"].(map[string]any)
	k := objectKey{}
	k.apiVersion, _ = obj["apiVersion"].(string)
	k.kind, _ = obj["kind"].(string)
	k.name, _ = md["name"].(string)
	if s.Namespaced() {
		if k.namespace, _ = md["namespace"].(string); k.namespace == "" {
			k.namespace = "default"
		}
	}
	return k
}

// storedObjects reads the stored objects of a batch; of two with the same
// key the first is kept.
func storedObjects(t *testing.T, crds []*crdschema.CRD, path string) map[objectKey]map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := crdschema.ReadDocuments(path, data)
	out := map[objectKey]map[string]any{}
	for _, d := range docs {
		s, err := crdschema.Route(crds, d.Object)
		if err != nil {
			continue
		}
		if k := keyOf(s, d.Object); out[k] == nil {
			out[k] = d.Object
		}
	}
	return out
}
