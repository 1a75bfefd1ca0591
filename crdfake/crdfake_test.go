package crdfake_test

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crdfake"
)

// warnings records what a client's warning handler receives.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) HandleWarningHeaderWithContext(_ context.Context, code int, agent, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, fmt.Sprintf("%d %s %s", code, agent, text))
}

func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.msgs
	w.msgs = nil
	return out
}

func widgetCRDs(t testing.TB) *crdfake.CRDs {
	t.Helper()
	crds, err := crdfake.ReadFiles("testdata/widgets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return crds
}

// newClient builds b (nil: the widget CRDs' builder) with a warning
// handler.
func newClient(t testing.TB, b *crdfake.ClientBuilder) (client.Client, *warnings) {
	t.Helper()
	if b == nil {
		b = widgetCRDs(t).NewClientBuilder()
	}
	w := &warnings{}
	return b.WithWarningHandler(w).Build(), w
}

func widget(name string, spec map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": name, "namespace": "default"},
	}}
	if spec != nil {
		u.Object["spec"] = spec
	}
	return u
}

func get(t *testing.T, c client.Client, name string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kschema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"})
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "default", Name: name}, u); err != nil {
		t.Fatal(err)
	}
	return u
}

func nested(t *testing.T, u *unstructured.Unstructured, fields ...string) any {
	t.Helper()
	v, _, err := unstructured.NestedFieldNoCopy(u.Object, fields...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// causes lists an Invalid error's causes as "type field: message".
func causes(t *testing.T, err error) []string {
	t.Helper()
	if !apierrors.IsInvalid(err) {
		t.Fatalf("want an Invalid error, got %T %v", err, err)
	}
	var out []string
	for _, c := range err.(apierrors.APIStatus).Status().Details.Causes {
		out = append(out, fmt.Sprintf("%s %s: %s", c.Type, c.Field, c.Message))
	}
	return out
}

func TestCreateStoresWhatTheAPIServerStores(t *testing.T) {
	c, w := newClient(t, nil)
	obj := widget("a", map[string]any{"size": "small", "shape": "round"})
	obj.Object["status"] = map[string]any{"phase": "Ready"}
	if err := c.Create(context.Background(), obj); err != nil {
		t.Fatal(err)
	}
	got := get(t, c, "a")
	want := map[string]any{"size": "small", "replicas": int64(1), "maxReplicas": int64(10)}
	if spec := nested(t, got, "spec"); !reflect.DeepEqual(spec, want) {
		t.Errorf("stored spec %v, want %v", spec, want)
	}
	if st, ok := got.Object["status"]; ok {
		t.Errorf("status stored on create under the status subresource: %v", st)
	}
	if g := got.GetGeneration(); g != 1 {
		t.Errorf("generation %d, want 1", g)
	}
	if !reflect.DeepEqual(obj.Object["spec"], got.Object["spec"]) {
		t.Errorf("the caller's object is not the stored one: %v", obj.Object)
	}
	if ws := w.take(); !reflect.DeepEqual(ws, []string{`299 - unknown field "spec.shape"`}) {
		t.Errorf("warnings %q", ws)
	}
}

func TestCreateRejectedAsTheAPIServerRejects(t *testing.T) {
	c, _ := newClient(t, nil)
	// A blocking error (NotSupported) keeps the CEL rules from running, as
	// in the apiserver, which says so at the root.
	err := c.Create(context.Background(), widget("a", map[string]any{"size": "huge"}))
	want := []string{
		`FieldValueNotSupported spec.size: Unsupported value: "huge": supported values: "small", "medium", "large"`,
		`FieldValueInvalid <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`,
	}
	if got := causes(t, err); !sameSet(got, want) {
		t.Errorf("causes\n%q\nwant\n%q", got, want)
	}

	obj := widget("b", map[string]any{"size": "small", "replicas": int64(20)})
	err = c.Create(context.Background(), obj)
	want = []string{`FieldValueInvalid spec: Invalid value: replicas must not exceed maxReplicas`}
	if got := causes(t, err); !sameSet(got, want) {
		t.Errorf("causes\n%q\nwant\n%q", got, want)
	}
	st := err.(apierrors.APIStatus).Status()
	if st.Details.Kind != "Widget" || st.Details.Group != "example.com" || st.Details.Name != "b" || st.Code != 422 {
		t.Errorf("details %+v, code %d", st.Details, st.Code)
	}
	if st.Message != `Widget.example.com "b" is invalid: spec: Invalid value: replicas must not exceed maxReplicas` {
		t.Errorf("message %q", st.Message)
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(obj.GroupVersionKind())
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(obj), u); !apierrors.IsNotFound(err) {
		t.Errorf("a rejected object is stored: %v", err)
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return true
}

func TestUpdate(t *testing.T) {
	ctx := context.Background()
	c, _ := newClient(t, nil)
	obj := widget("c", map[string]any{"size": "small", "color": "red"})
	if err := c.Create(ctx, obj); err != nil {
		t.Fatal(err)
	}

	// A transition rule against the stored object.
	obj.Object["spec"].(map[string]any)["color"] = "blue"
	err := c.Update(ctx, obj.DeepCopy())
	if want := []string{`FieldValueInvalid spec.color: Invalid value: "blue": color is immutable`}; !reflect.DeepEqual(causes(t, err), want) {
		t.Errorf("causes %q, want %q", causes(t, err), want)
	}

	// Status is kept from the stored object; a spec change bumps the generation.
	obj = get(t, c, "c")
	obj.Object["spec"].(map[string]any)["size"] = "large"
	obj.Object["status"] = map[string]any{"phase": "Ready"}
	if err := c.Update(ctx, obj); err != nil {
		t.Fatal(err)
	}
	got := get(t, c, "c")
	if _, ok := got.Object["status"]; ok {
		t.Errorf("Update wrote status: %v", got.Object["status"])
	}
	if got.GetGeneration() != 2 || obj.GetGeneration() != 2 {
		t.Errorf("generation %d (returned %d), want 2", got.GetGeneration(), obj.GetGeneration())
	}

	// A metadata change does not.
	got.SetLabels(map[string]string{"a": "b"})
	if err := c.Update(ctx, got); err != nil {
		t.Fatal(err)
	}
	if g := get(t, c, "c").GetGeneration(); g != 2 {
		t.Errorf("generation %d after a metadata change, want 2", g)
	}

	// A stale resourceVersion is a conflict, as the fake has it.
	obj.Object["spec"].(map[string]any)["size"] = "medium"
	if err := c.Update(ctx, obj); !apierrors.IsConflict(err) {
		t.Errorf("stale update: %v", err)
	}
}

func TestStatusUpdate(t *testing.T) {
	ctx := context.Background()
	c, _ := newClient(t, nil)
	obj := widget("d", map[string]any{"size": "small"})
	if err := c.Create(ctx, obj); err != nil {
		t.Fatal(err)
	}
	obj.Object["spec"].(map[string]any)["size"] = "large"
	obj.Object["status"] = map[string]any{"phase": "Ready", "observedGeneration": int64(1), "extra": true}
	if err := c.Status().Update(ctx, obj); err != nil {
		t.Fatal(err)
	}
	got := get(t, c, "d")
	if size := nested(t, got, "spec", "size"); size != "small" {
		t.Errorf("a status update changed spec.size to %v", size)
	}
	if st := got.Object["status"]; !reflect.DeepEqual(st, map[string]any{"phase": "Ready", "observedGeneration": int64(1)}) {
		t.Errorf("status %v", st)
	}
	if got.GetGeneration() != 1 {
		t.Errorf("generation %d after a status update", got.GetGeneration())
	}

	got.Object["status"] = map[string]any{"phase": "Done"}
	err := c.Status().Update(ctx, got)
	want := []string{
		`FieldValueNotSupported status.phase: Unsupported value: "Done": supported values: "Pending", "Ready"`,
		`FieldValueInvalid <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`,
	}
	if !sameSet(causes(t, err), want) {
		t.Errorf("causes %q", causes(t, err))
	}
}

func TestPatch(t *testing.T) {
	ctx := context.Background()
	c, w := newClient(t, nil)
	obj := widget("e", map[string]any{"size": "small", "color": "red"})
	if err := c.Create(ctx, obj); err != nil {
		t.Fatal(err)
	}
	merge := client.RawPatch(types.MergePatchType, []byte(`{"spec":{"replicas":3,"bogus":1},"status":{"phase":"Ready"}}`))
	if err := c.Patch(ctx, obj, merge); err != nil {
		t.Fatal(err)
	}
	got := get(t, c, "e")
	if r := nested(t, got, "spec", "replicas"); r != int64(3) {
		t.Errorf("replicas %v", r)
	}
	if _, ok := got.Object["status"]; ok || got.GetGeneration() != 2 {
		t.Errorf("status %v, generation %d", got.Object["status"], got.GetGeneration())
	}
	if ws := w.take(); !reflect.DeepEqual(ws, []string{`299 - unknown field "spec.bogus"`}) {
		t.Errorf("warnings %q", ws)
	}

	jp := client.RawPatch(types.JSONPatchType, []byte(`[{"op":"replace","path":"/spec/color","value":"blue"}]`))
	if err := c.Patch(ctx, obj, jp); len(causes(t, err)) != 1 {
		t.Errorf("JSON patch of an immutable field: %v", err)
	}

	sp := client.RawPatch(types.MergePatchType, []byte(`{"status":{"phase":"Ready"}}`))
	if err := c.Status().Patch(ctx, obj, sp); err != nil {
		t.Fatal(err)
	}
	if p := nested(t, get(t, c, "e"), "status", "phase"); p != "Ready" {
		t.Errorf("status patch: phase %v", p)
	}

	smp := client.RawPatch(types.StrategicMergePatchType, []byte(`{"spec":{"replicas":4}}`))
	err := c.Patch(ctx, obj, smp)
	if !apierrors.IsUnsupportedMediaType(err) || apierrors.ReasonForError(err) != metav1.StatusReasonUnsupportedMediaType {
		t.Fatalf("strategic merge patch: %v", err)
	}
	if want := "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"; err.Error() != want {
		t.Errorf("message %q", err.Error())
	}
}

func TestKindsWithoutCRDPassThrough(t *testing.T) {
	c, _ := newClient(t, nil)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "default"}, Data: map[string]string{"k": "v"}}
	if err := c.Create(context.Background(), cm); err != nil {
		t.Fatal(err)
	}
	if cm.ResourceVersion == "" || cm.Generation != 0 {
		t.Errorf("resourceVersion %q generation %d", cm.ResourceVersion, cm.Generation)
	}
}

func TestUnservedVersion(t *testing.T) {
	c, _ := newClient(t, nil)
	obj := widget("f", nil)
	obj.SetAPIVersion("example.com/v2")
	if err := c.Create(context.Background(), obj); !meta.IsNoMatchError(err) {
		t.Errorf("create of an unserved version: %v", err)
	}
}

func TestDeprecatedVersionWarns(t *testing.T) {
	c, w := newClient(t, nil)
	obj := widget("g", map[string]any{"anything": "goes"})
	obj.SetAPIVersion("example.com/v1beta1")
	if err := c.Create(context.Background(), obj); err != nil {
		t.Fatal(err)
	}
	if ws := w.take(); !reflect.DeepEqual(ws, []string{"299 - example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget"}) {
		t.Errorf("warnings %q", ws)
	}
}

// A CRD the apiserver would reject is checked on the first request of its
// kind, which fails naming it and its first errors (so does Objects); the
// other kinds of the set are served.
func TestRejectedCRDFailsItsKind(t *testing.T) {
	bad := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: bads.example.com}
spec:
  group: example.com
  names: {kind: Bad, plural: bads}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {}
`
	good := strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(bad, "bads", "goods"), "Bad", "Good"), "spec: {}", "spec: {type: object}")
	crds, err := crdfake.Parse([]byte(bad), []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	c := crds.NewClientBuilder().Build()
	for range 2 { // every request, not only the first
		err = c.Create(context.Background(), objectAt("example.com/v1", "Bad", "x"))
		if err == nil || !strings.Contains(err.Error(), `document 0:1: CustomResourceDefinition "bads.example.com" would be rejected`) || !strings.Contains(err.Error(), "properties[spec].type: Required value") {
			t.Errorf("create of the rejected kind: got %v", err)
		}
	}
	if err := c.Create(context.Background(), objectAt("example.com/v1", "Good", "x")); err != nil {
		t.Errorf("create of the accepted kind: %v", err)
	}
	if _, err := crds.Objects(nil, objectAt("example.com/v1", "Bad", "x")); err == nil || !strings.Contains(err.Error(), "would be rejected") {
		t.Errorf("Objects of the rejected kind: got %v", err)
	}
	if _, err := crdfake.Parse([]byte("apiVersion: v1\nkind: ConfigMap\n")); err == nil {
		t.Error("no CRD: no error")
	}
}

func TestObjectsForWithObjects(t *testing.T) {
	crds := widgetCRDs(t)
	objs, err := crds.Objects(nil, widget("h", map[string]any{"size": "small"}))
	if err != nil {
		t.Fatal(err)
	}
	c := crds.NewClientBuilder().WithObjects(objs...).Build()
	if r := nested(t, get(t, c, "h"), "spec", "replicas"); r != int64(1) {
		t.Errorf("replicas %v", r)
	}
	_, err = crds.Objects(nil, widget("i", map[string]any{"size": "huge"}))
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), `object 0: Widget.example.com "i" is invalid`) {
		t.Errorf("got %v", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	c, _ := newClient(t, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 16 {
		wg.Go(func() {
			name := fmt.Sprintf("w%d", i)
			obj := widget(name, map[string]any{"size": "small"})
			if err := c.Create(ctx, obj); err != nil {
				errs <- err
				return
			}
			for j := range 4 {
				p := client.RawPatch(types.MergePatchType, fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, j))
				if err := c.Patch(ctx, obj, p); err != nil {
					errs <- err
				}
				st := client.RawPatch(types.MergePatchType, []byte(`{"status":{"phase":"Ready"}}`))
				if err := c.Status().Patch(ctx, obj, st); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Widget is a Go type for the Widget kind whose JSON tags lack omitempty,
// as hand-written types often do.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec"`
	Status            WidgetStatus `json:"status"`
}

type WidgetSpec struct {
	Size        string `json:"size"`
	Replicas    *int64 `json:"replicas"`
	MaxReplicas int64  `json:"maxReplicas"`
}

type WidgetStatus struct {
	Phase string `json:"phase,omitempty"`
}

func (w *Widget) DeepCopyObject() runtime.Object {
	c := *w
	w.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	if w.Spec.Replicas != nil {
		r := *w.Spec.Replicas
		c.Spec.Replicas = &r
	}
	return &c
}

type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

func (l *WidgetList) DeepCopyObject() runtime.Object {
	c := *l
	c.Items = nil
	for i := range l.Items {
		c.Items = append(c.Items, *l.Items[i].DeepCopyObject().(*Widget))
	}
	return &c
}

func widgetScheme(t testing.TB) *runtime.Scheme {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	gv := kschema.GroupVersion{Group: "example.com", Version: "v1"}
	s.AddKnownTypes(gv, &Widget{}, &WidgetList{})
	metav1.AddToGroupVersion(s, gv)
	return s
}

// TestTypedZeroValues: a typed object is sent as encoding/json writes it,
// as a real client sends it. A nil pointer without omitempty is a null,
// which the apiserver defaults; a zero int without omitempty is a 0 that
// is stored (and validated) like any value; nothing else is added, and
// what the response lacks (the status dropped on create) is not kept from
// the request.
func TestTypedZeroValues(t *testing.T) {
	ctx := context.Background()
	c, _ := newClient(t, widgetCRDs(t).NewClientBuilder().WithScheme(widgetScheme(t)))
	w := &Widget{ObjectMeta: metav1.ObjectMeta{Name: "t", Namespace: "default"}, Spec: WidgetSpec{Size: "small", MaxReplicas: 5}, Status: WidgetStatus{Phase: "Ready"}}
	if err := c.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	if w.Spec.Replicas == nil || *w.Spec.Replicas != 1 || w.Spec.MaxReplicas != 5 || w.Status.Phase != "" || w.Generation != 1 {
		t.Errorf("created %+v", w)
	}
	got := &Widget{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(w), got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Spec, w.Spec) {
		t.Errorf("stored %+v, returned %+v", got.Spec, w.Spec)
	}

	// MaxReplicas 0 is sent (no omitempty), so it is not defaulted and
	// the CEL rule sees it, as on a cluster.
	z := &Widget{ObjectMeta: metav1.ObjectMeta{Name: "z", Namespace: "default"}, Spec: WidgetSpec{Size: "small"}}
	err := c.Create(ctx, z)
	if want := []string{`FieldValueInvalid spec: Invalid value: replicas must not exceed maxReplicas`}; !reflect.DeepEqual(causes(t, err), want) {
		t.Errorf("causes %q", causes(t, err))
	}
	if z.Spec.Replicas != nil {
		t.Errorf("a rejected create changed the object: %+v", z.Spec)
	}

	w.Status.Phase = "Ready"
	if err := c.Status().Update(ctx, w); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(w), got); err != nil || got.Status.Phase != "Ready" {
		t.Errorf("status %+v, %v", got.Status, err)
	}

	// A merge patch computed from a typed object, as reconcilers send it.
	orig := got.DeepCopyObject().(*Widget)
	got.Spec.Size = "large"
	if err := c.Patch(ctx, got, client.MergeFrom(orig)); err != nil {
		t.Fatal(err)
	}
	if got.Spec.Size != "large" || got.Generation != 2 || got.Status.Phase != "Ready" {
		t.Errorf("patched %+v", got)
	}
}

func TestReadFS(t *testing.T) {
	if _, err := crdfake.ReadFS(os.DirFS("testdata"), "."); err != nil {
		t.Fatal(err)
	}
}

// Unencodable is a typed object whose JSON encoding fails, as a real
// client's would.
type Unencodable struct {
	Widget
}

func (u *Unencodable) MarshalJSON() ([]byte, error) { return nil, fmt.Errorf("no JSON form") }

func (u *Unencodable) DeepCopyObject() runtime.Object { c := *u; return &c }

func TestTypedObjectThatCannotBeEncoded(t *testing.T) {
	s := runtime.NewScheme()
	s.AddKnownTypeWithName(kschema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, &Unencodable{})
	c, _ := newClient(t, widgetCRDs(t).NewClientBuilder().WithScheme(s))
	err := c.Create(context.Background(), &Unencodable{Widget{ObjectMeta: metav1.ObjectMeta{Name: "u", Namespace: "default"}}})
	if err == nil || !strings.Contains(err.Error(), "cannot encode") || !strings.Contains(err.Error(), "no JSON form") {
		t.Errorf("got %v", err)
	}
}

func TestGenerateNameAndDryRun(t *testing.T) {
	ctx := context.Background()
	c, _ := newClient(t, nil)
	obj := widget("", map[string]any{"size": "small"})
	obj.SetGenerateName("w-")
	if err := c.Create(ctx, obj); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(obj.GetName(), "w-") || len(obj.GetName()) != 7 {
		t.Errorf("name %q", obj.GetName())
	}
	dry := widget("dry", map[string]any{"size": "small"})
	if err := c.Create(ctx, dry, client.DryRunAll); err != nil {
		t.Fatal(err)
	}
	if r := nested(t, dry, "spec", "replicas"); r != int64(1) {
		t.Errorf("a dry-run create is not defaulted: %v", dry.Object)
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(dry.GroupVersionKind())
	if err := c.Get(ctx, client.ObjectKeyFromObject(dry), u); !apierrors.IsNotFound(err) {
		t.Errorf("a dry-run create is stored: %v", err)
	}
}

func TestFinalizerWarnings(t *testing.T) {
	ctx := context.Background()
	c, w := newClient(t, nil)
	obj := widget("fin", map[string]any{"size": "small"})
	obj.SetFinalizers([]string{"example.com/cleanup", "cleanup", "kubernetes"})
	if err := c.Create(ctx, obj); err != nil {
		t.Fatal(err)
	}
	want := []string{`299 - metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`}
	if ws := w.take(); !reflect.DeepEqual(ws, want) {
		t.Errorf("warnings %q", ws)
	}
	obj.SetFinalizers([]string{"cleanup", "example.com"})
	if err := c.Update(ctx, obj); err != nil {
		t.Fatal(err)
	}
	want = []string{`299 - metadata.finalizers: "example.com": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`}
	if ws := w.take(); !reflect.DeepEqual(ws, want) {
		t.Errorf("warnings on update %q", ws)
	}
}

// TestWebhookConversion: without a converter, an object of a CRD with
// conversion strategy Webhook is served at the version it is stored at
// only; another version is the internal error of a failed conversion.
func TestWebhookConversion(t *testing.T) {
	c := clientOf(t, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {url: "https://example.com/convert"}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`)
	ctx := context.Background()
	g := objectAt("example.com/v1", "Gadget", "g")
	if err := c.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(g), objectAt("example.com/v2", "Gadget", "")); !apierrors.IsInternalError(err) {
		t.Errorf("read at another version: %v", err)
	}
	g2 := g.DeepCopy()
	g2.SetAPIVersion("example.com/v2")
	g2.SetName("g2")
	g2.SetResourceVersion("")
	if err := c.Create(ctx, g2); !apierrors.IsInternalError(err) {
		t.Errorf("write at another version: %v", err)
	}
}

// A CRD read ahead (its names only) is decoded on the first request of
// its kind: one that cannot be decoded fails every request of its kind,
// naming the file's line, and the other kinds of the set are served.
func TestUndecodableCRDFailsItsKind(t *testing.T) {
	crd := func(kind, schema string) string {
		return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ` + strings.ToLower(kind) + `s.example.com
spec:
  group: example.com
  names:
    kind: ` + kind + `
    plural: ` + strings.ToLower(kind) + `s
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
` + schema
	}
	set := crd("Good", "            type: object\n") + "---\n" + crd("Bad", "            type: [object\n            x-kubernetes-preserve-unknown-fields: true\n")
	crds, err := crdfake.Parse([]byte(set))
	if err != nil {
		t.Fatal(err)
	}
	// The error reading the whole set gives, which Parse gave before it
	// read CRDs ahead.
	_, want := crdschema.ReadDocuments("document 0", []byte(set))
	if want == nil || !strings.Contains(want.Error(), "document 0:41: document 1: yaml: line 20:") {
		t.Fatalf("reading the set: got %v", want)
	}
	c := crds.NewClientBuilder().Build()
	for range 2 { // every request, not only the first
		if err := c.Create(context.Background(), objectAt("example.com/v1", "Bad", "x")); err == nil || err.Error() != want.Error() {
			t.Errorf("create of the undecodable kind: got %v, want %v", err, want)
		}
	}
	if err := c.Create(context.Background(), objectAt("example.com/v1", "Good", "x")); err != nil {
		t.Errorf("create of the decodable kind: %v", err)
	}
}
