package crdfake_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crdschema/crdschema/crdfake"
)

// A controller author's suite: kueue's LocalQueue as a typed kind (a Go
// type for v1beta2, as kueue's API package has it) and karpenter's
// NodePool as an unstructured one, from the corpus' CRDs, with
// reconcilers written as controllers write them.

// LocalQueue is kueue's v1beta2 LocalQueue, the fields a controller uses.
type LocalQueue struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              LocalQueueSpec   `json:"spec,omitempty"`
	Status            LocalQueueStatus `json:"status,omitempty"`
}

type LocalQueueSpec struct {
	ClusterQueue string       `json:"clusterQueue,omitempty"`
	StopPolicy   *string      `json:"stopPolicy,omitempty"`
	FairSharing  *FairSharing `json:"fairSharing,omitempty"`
}

type FairSharing struct {
	Weight *resource.Quantity `json:"weight,omitempty"`
}

type LocalQueueStatus struct {
	PendingWorkloads int32              `json:"pendingWorkloads,omitempty"`
	Conditions       []metav1.Condition `json:"conditions,omitempty"`
}

func (q *LocalQueue) DeepCopyObject() runtime.Object {
	c := *q
	q.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	if q.Spec.StopPolicy != nil {
		c.Spec.StopPolicy = new(*q.Spec.StopPolicy)
	}
	if q.Spec.FairSharing != nil {
		fs := *q.Spec.FairSharing
		if fs.Weight != nil {
			w := fs.Weight.DeepCopy()
			fs.Weight = &w
		}
		c.Spec.FairSharing = &fs
	}
	c.Status.Conditions = slices.Clone(q.Status.Conditions)
	return &c
}

type LocalQueueList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []LocalQueue `json:"items"`
}

func (l *LocalQueueList) DeepCopyObject() runtime.Object {
	c := *l
	c.Items = nil
	for i := range l.Items {
		c.Items = append(c.Items, *l.Items[i].DeepCopyObject().(*LocalQueue))
	}
	return &c
}

var (
	kueueV1beta2 = kschema.GroupVersion{Group: "kueue.x-k8s.io", Version: "v1beta2"}
	nodePoolGVK  = kschema.GroupVersionKind{Group: "karpenter.sh", Version: "v1", Kind: "NodePool"}
)

func kueueScheme(t testing.TB) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	s.AddKnownTypes(kueueV1beta2, &LocalQueue{}, &LocalQueueList{})
	metav1.AddToGroupVersion(s, kueueV1beta2)
	return s
}

// corpusCRDs reads the CRDs of the controller suite, once per test.
func corpusCRDs(t testing.TB) *crdfake.CRDs {
	t.Helper()
	corpus := sharedDir(t, "corpus")
	crds, err := crdfake.ReadFiles(
		filepath.Join(corpus, "kueue", "crds", "localqueues.kueue.x-k8s.io.yaml"),
		filepath.Join(corpus, "kueue", "crds", "clusterqueues.kueue.x-k8s.io.yaml"),
		filepath.Join(corpus, "karpenter", "crds", "nodepools.karpenter.sh.yaml"),
	)
	if err != nil {
		t.Fatal(err)
	}
	return crds
}

// suiteClient builds b (nil: the CRDs' builder with kueue's scheme) with
// a warning handler.
func suiteClient(t testing.TB, b *crdfake.ClientBuilder) (client.WithWatch, *warnings) {
	t.Helper()
	if b == nil {
		b = corpusCRDs(t).NewClientBuilder().WithScheme(kueueScheme(t))
	}
	w := &warnings{}
	return b.WithWarningHandler(w).Build(), w
}

const queueFinalizer = "kueue.x-k8s.io/resource-in-use"

// queueReconciler is a LocalQueue controller as kueue writes one: a
// finalizer, the spec kept as desired with CreateOrUpdate, a status
// condition, the finalizer released on deletion.
type queueReconciler struct{ c client.Client }

func (r *queueReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	q := &LocalQueue{}
	if err := r.c.Get(ctx, req.NamespacedName, q); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if !q.DeletionTimestamp.IsZero() {
		if controllerutil.RemoveFinalizer(q, queueFinalizer) {
			return reconcile.Result{}, r.c.Update(ctx, q)
		}
		return reconcile.Result{}, nil
	}
	if controllerutil.AddFinalizer(q, queueFinalizer) {
		if err := r.c.Update(ctx, q); err != nil {
			return reconcile.Result{}, err
		}
	}
	desired := &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: q.Name, Namespace: q.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.c, desired, func() error {
		// The desired state rebuilt, as mutate functions do.
		desired.Spec.FairSharing = &FairSharing{}
		return nil
	}); err != nil {
		return reconcile.Result{}, err
	}
	cond := metav1.Condition{Type: "Active", Status: metav1.ConditionTrue, Reason: "Ready", Message: "Can submit new workloads", ObservedGeneration: desired.Generation, LastTransitionTime: metav1.NewTime(time.Unix(0, 0))}
	if meta.SetStatusCondition(&desired.Status.Conditions, cond) {
		return reconcile.Result{}, r.c.Status().Update(ctx, desired)
	}
	return reconcile.Result{}, nil
}

func reconcileQueue(t *testing.T, r reconcile.Reconciler, name string) {
	t.Helper()
	if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: name}}); err != nil {
		t.Fatalf("reconcile %s: %v", name, err)
	}
}

func getQueue(t *testing.T, c client.Client, name string) *LocalQueue {
	t.Helper()
	q := &LocalQueue{}
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "team-a", Name: name}, q); err != nil {
		t.Fatal(err)
	}
	return q
}

func TestQueueReconciler(t *testing.T) {
	ctx := context.Background()
	c, w := suiteClient(t, nil)
	if err := c.Create(ctx, &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "team-a"}, Spec: LocalQueueSpec{ClusterQueue: "cq", FairSharing: &FairSharing{}}}); err != nil {
		t.Fatal(err)
	}
	r := &queueReconciler{c: c}
	reconcileQueue(t, r, "lq")
	q := getQueue(t, c, "lq")
	// As on a cluster: the finalizer's Update sends the weight read back as
	// the quantity "1" where the integer 1 is stored (generation 2), then
	// CreateOrUpdate's fairSharing {} is defaulted to the integer 1 again
	// (generation 3).
	if q.Generation != 3 || q.Spec.StopPolicy == nil || *q.Spec.StopPolicy != "None" || q.Spec.FairSharing == nil || q.Spec.FairSharing.Weight.String() != "1" {
		t.Errorf("after reconciling: generation %d, spec %+v", q.Generation, q.Spec)
	}
	if len(q.Status.Conditions) != 1 || q.Status.Conditions[0].ObservedGeneration != 3 {
		t.Errorf("status %+v", q.Status)
	}
	// Steady state: CreateOrUpdate still sends an update (its Go values
	// differ), which the cluster stores as no change: same generation,
	// same resourceVersion.
	rv := q.ResourceVersion
	reconcileQueue(t, r, "lq")
	if got := getQueue(t, c, "lq"); got.ResourceVersion != rv || got.Generation != 3 {
		t.Errorf("a reconcile changing nothing wrote: resourceVersion %s -> %s, generation %d", rv, got.ResourceVersion, got.Generation)
	}

	if err := c.Delete(ctx, q); err != nil {
		t.Fatal(err)
	}
	q = getQueue(t, c, "lq")
	if q.DeletionTimestamp.IsZero() || q.DeletionGracePeriodSeconds == nil || *q.DeletionGracePeriodSeconds != 0 || q.Generation != 4 {
		t.Errorf("deleted with a finalizer: deletionTimestamp %v, grace %v, generation %d", q.DeletionTimestamp, q.DeletionGracePeriodSeconds, q.Generation)
	}
	reconcileQueue(t, r, "lq")
	if err := c.Get(ctx, client.ObjectKeyFromObject(q), q); !apierrors.IsNotFound(err) {
		t.Errorf("the last finalizer removed, the object stays: %v", err)
	}
	if ws := w.take(); len(ws) != 0 {
		t.Errorf("warnings %q", ws)
	}
}

// TestGenerationOnStoredJSON: the generation is decided on the JSON the
// cluster stores (finding 2). The weight stored as the integer 1 comes
// back to a Go client as the quantity "1", and sending the object back
// changes the stored JSON: a new generation, as on a cluster.
func TestGenerationOnStoredJSON(t *testing.T) {
	ctx := context.Background()
	c, _ := suiteClient(t, nil)
	if err := c.Create(ctx, &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "team-a"}, Spec: LocalQueueSpec{ClusterQueue: "cq", FairSharing: &FairSharing{}}}); err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kueueV1beta2.WithKind("LocalQueue"))
	if err := c.Get(ctx, types.NamespacedName{Namespace: "team-a", Name: "lq"}, u); err != nil {
		t.Fatal(err)
	}
	if w := nested(t, u, "spec", "fairSharing", "weight"); w != int64(1) {
		t.Fatalf("stored weight %#v, want the integer 1", w)
	}
	q := getQueue(t, c, "lq")
	if err := c.Update(ctx, q); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(u), u); err != nil {
		t.Fatal(err)
	}
	if w := nested(t, u, "spec", "fairSharing", "weight"); w != "1" || u.GetGeneration() != 2 {
		t.Errorf("sent back as read: weight %#v, generation %d; want \"1\" and 2", w, u.GetGeneration())
	}
}

func TestOneObjectAcrossVersions(t *testing.T) {
	ctx := context.Background()
	c, w := suiteClient(t, nil)
	old := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "LocalQueue",
		"metadata": map[string]any{"name": "lq", "namespace": "team-a"},
		"spec":     map[string]any{"clusterQueue": "cq"},
	}}
	if err := c.Create(ctx, old); err != nil {
		t.Fatal(err)
	}
	q := getQueue(t, c, "lq") // typed, v1beta2
	if q.Spec.ClusterQueue != "cq" || q.UID == "" || q.UID != old.GetUID() {
		t.Errorf("v1beta2 read of a v1beta1 write: %+v", q)
	}
	again := &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "team-a"}, Spec: LocalQueueSpec{ClusterQueue: "other"}}
	if err := c.Create(ctx, again); !apierrors.IsAlreadyExists(err) {
		t.Errorf("a second create of the name at another version: %v", err)
	}
	list := &LocalQueueList{}
	if err := c.List(ctx, list, client.InNamespace("team-a")); err != nil || len(list.Items) != 1 {
		t.Errorf("list at v1beta2: %d items, %v", len(list.Items), err)
	}
	ul := &unstructured.UnstructuredList{}
	ul.SetGroupVersionKind(kschema.GroupVersionKind{Group: "kueue.x-k8s.io", Version: "v1beta1", Kind: "LocalQueueList"})
	if err := c.List(ctx, ul); err != nil || len(ul.Items) != 1 || ul.Items[0].GetAPIVersion() != "kueue.x-k8s.io/v1beta1" {
		t.Errorf("list at v1beta1: %v, %v", ul.Items, err)
	}
	// Every request of the deprecated v1beta1 gets its warning, as from
	// the apiserver; controller-runtime's client hands each to its
	// handler (KubeAPIWarningLogger without deduplication by default).
	if ws := w.take(); len(ws) != 2 || !strings.Contains(ws[0], "deprecated") {
		t.Errorf("warnings %q", ws)
	}
}

func TestClusterScopedAndMetadataErrors(t *testing.T) {
	ctx := context.Background()
	c, _ := suiteClient(t, nil)
	cq := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
		"metadata": map[string]any{"name": "cq", "namespace": "default"},
	}}
	if err := c.Create(ctx, cq); err != nil {
		t.Fatal(err)
	}
	if cq.GetNamespace() != "" {
		t.Errorf("a cluster-scoped object kept namespace %q", cq.GetNamespace())
	}
	got := cq.DeepCopy()
	if err := c.Get(ctx, types.NamespacedName{Name: "cq"}, got); err != nil {
		t.Errorf("get by name: %v", err)
	}

	bad := &LocalQueue{ObjectMeta: metav1.ObjectMeta{GenerateName: "Queue-", Namespace: "team-a"}, Spec: LocalQueueSpec{ClusterQueue: "cq"}}
	err := c.Create(ctx, bad)
	var st apierrors.APIStatus
	if !errors.As(err, &st) || !strings.HasPrefix(st.Status().Details.Name, "Queue-") || len(st.Status().Details.Name) != len("Queue-")+5 {
		t.Errorf("an invalid generateName: %v", err)
	}
	if bad.Name != "" {
		t.Errorf("a rejected create named the caller's object %q", bad.Name)
	}

	q := &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "team-a"}, Spec: LocalQueueSpec{ClusterQueue: "cq"}}
	if err := c.Create(ctx, q); err != nil {
		t.Fatal(err)
	}
	q.ResourceVersion = ""
	err = c.Update(ctx, q)
	want := `localqueues.kueue.x-k8s.io "lq" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`
	if !apierrors.IsInvalid(err) || err.Error() != want {
		t.Errorf("update without resourceVersion: %v\nwant %s", err, want)
	}
}

// TestStatusSubresourceOption: WithStatusSubresource, added out of habit,
// changes nothing for a kind with a CRD.
func TestStatusSubresourceOption(t *testing.T) {
	ctx := context.Background()
	c, _ := suiteClient(t, corpusCRDs(t).NewClientBuilder().WithScheme(kueueScheme(t)).WithStatusSubresource(&LocalQueue{}))
	q := &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "team-a"}, Spec: LocalQueueSpec{ClusterQueue: "cq"}}
	if err := c.Create(ctx, q); err != nil {
		t.Fatal(err)
	}
	q.Status.PendingWorkloads = 3
	if err := c.Status().Update(ctx, q); err != nil {
		t.Fatal(err)
	}
	if got := getQueue(t, c, "lq"); got.Status.PendingWorkloads != 3 {
		t.Errorf("status not stored: %+v", got.Status)
	}
}

// TestInterceptorsKept: interceptor funcs set before Builder see every
// request first and reach the CRDs' semantics through the client they
// get.
func TestInterceptorsKept(t *testing.T) {
	ctx := context.Background()
	injected := errors.New("injected")
	calls := 0
	b := corpusCRDs(t).NewClientBuilder().WithScheme(kueueScheme(t)).WithInterceptorFuncs(interceptor.Funcs{
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			calls++
			if calls == 1 {
				return injected
			}
			return c.Update(ctx, obj, opts...)
		},
	})
	c, _ := suiteClient(t, b)
	q := &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "team-a"}, Spec: LocalQueueSpec{ClusterQueue: "cq"}}
	if err := c.Create(ctx, q); err != nil {
		t.Fatal(err)
	}
	if err := c.Update(ctx, q); !errors.Is(err, injected) {
		t.Errorf("first update: %v, want the injected error", err)
	}
	q.Spec.ClusterQueue = "other"
	if err := c.Update(ctx, q); !apierrors.IsInvalid(err) {
		t.Errorf("second update, through the CRD's transition rule: %v", err)
	}
}

func TestRESTMapper(t *testing.T) {
	c, _ := suiteClient(t, nil)
	for _, tc := range []struct {
		obj        runtime.Object
		namespaced bool
	}{
		{&LocalQueue{}, true},
		{&unstructured.Unstructured{Object: map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue"}}, false},
		{&unstructured.Unstructured{Object: map[string]any{"apiVersion": "karpenter.sh/v1", "kind": "NodePool"}}, false},
		{&corev1.ConfigMap{}, true},
		{&corev1.Namespace{}, false},
	} {
		got, err := c.IsObjectNamespaced(tc.obj)
		if err != nil || got != tc.namespaced {
			t.Errorf("%T %v: namespaced %v, %v", tc.obj, tc.obj.GetObjectKind().GroupVersionKind(), got, err)
		}
	}
	m, err := c.RESTMapper().RESTMapping(kschema.GroupKind{Group: "kueue.x-k8s.io", Kind: "LocalQueue"})
	if err != nil || m.Resource.Resource != "localqueues" || m.Resource.Version != "v1beta2" {
		t.Errorf("mapping %+v, %v", m, err)
	}
	gvk, err := c.RESTMapper().KindFor(kschema.GroupVersionResource{Resource: "nodepools"})
	if err != nil || gvk != nodePoolGVK {
		t.Errorf("kind for nodepools: %v, %v", gvk, err)
	}

	owner := &unstructured.Unstructured{}
	owner.SetGroupVersionKind(kschema.GroupVersionKind{Group: "kueue.x-k8s.io", Version: "v1beta2", Kind: "ClusterQueue"})
	if err := c.Get(context.Background(), types.NamespacedName{Name: "missing"}, owner); !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	ctx := context.Background()
	cq := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": map[string]any{"name": "cq"}}}
	if err := c.Create(ctx, cq); err != nil {
		t.Fatal(err)
	}
	q := &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "team-a"}, Spec: LocalQueueSpec{ClusterQueue: "cq"}}
	if err := controllerutil.SetOwnerReference(cq, q, c.Scheme()); err != nil {
		t.Fatal(err)
	}
	if err := c.Create(ctx, q); err != nil {
		t.Errorf("an object owned by a created one: %v", err)
	}
}

// TestSeededObjects: objects given to WithObjects are taken in as stored
// objects, read through the storage read path (defaulted), with a uid.
func TestSeededObjects(t *testing.T) {
	seed := &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "team-a"}, Spec: LocalQueueSpec{ClusterQueue: "cq", FairSharing: &FairSharing{}}}
	c, _ := suiteClient(t, corpusCRDs(t).NewClientBuilder().WithScheme(kueueScheme(t)).WithObjects(seed))
	q := getQueue(t, c, "lq")
	if q.UID == "" || q.Spec.StopPolicy == nil || q.Spec.FairSharing.Weight == nil {
		t.Errorf("seeded object read back %+v", q)
	}

	dup := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "LocalQueue", "metadata": map[string]any{"name": "lq", "namespace": "team-a"}}}
	c, _ = suiteClient(t, corpusCRDs(t).NewClientBuilder().WithScheme(kueueScheme(t)).WithObjects(seed.DeepCopyObject().(client.Object), dup))
	err := c.Get(context.Background(), types.NamespacedName{Namespace: "team-a", Name: "lq"}, &LocalQueue{})
	if err == nil || !strings.Contains(err.Error(), "given to WithObjects twice") {
		t.Errorf("one name seeded at two versions: %v", err)
	}
}

func TestWatchAtAVersion(t *testing.T) {
	ctx := context.Background()
	c, _ := suiteClient(t, nil)
	ul := &unstructured.UnstructuredList{}
	ul.SetGroupVersionKind(kschema.GroupVersionKind{Group: "kueue.x-k8s.io", Version: "v1beta1", Kind: "LocalQueueList"})
	w, err := c.Watch(ctx, ul, client.InNamespace("team-a"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	q := &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "team-a"}, Spec: LocalQueueSpec{ClusterQueue: "cq"}}
	if err := c.Create(ctx, q); err != nil {
		t.Fatal(err)
	}
	other := q.DeepCopyObject().(*LocalQueue)
	other.Namespace, other.ResourceVersion = "team-b", ""
	if err := c.Create(ctx, other); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, q); err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 2 {
		select {
		case ev := <-w.ResultChan():
			u := ev.Object.(*unstructured.Unstructured)
			got = append(got, string(ev.Type)+" "+u.GetAPIVersion()+" "+u.GetNamespace())
		case <-time.After(5 * time.Second):
			t.Fatal("no event")
		}
	}
	if want := []string{string(watch.Added) + " kueue.x-k8s.io/v1beta1 team-a", string(watch.Deleted) + " kueue.x-k8s.io/v1beta1 team-a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}

func TestListSelectors(t *testing.T) {
	ctx := context.Background()
	c, _ := suiteClient(t, nil)
	for _, name := range []string{"a", "b"} {
		q := &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "team-a", Labels: map[string]string{"name": name}}, Spec: LocalQueueSpec{ClusterQueue: "cq"}}
		if err := c.Create(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	list := &LocalQueueList{}
	if err := c.List(ctx, list, client.MatchingLabels{"name": "b"}); err != nil || len(list.Items) != 1 || list.Items[0].Name != "b" {
		t.Errorf("label selector: %v, %v", list.Items, err)
	}
	if err := c.List(ctx, list, client.MatchingFields{"metadata.name": "a"}); err != nil || len(list.Items) != 1 || list.Items[0].Name != "a" {
		t.Errorf("field selector: %v, %v", list.Items, err)
	}
	err := c.List(ctx, list, client.MatchingFields{"spec.clusterQueue": "cq"})
	if !apierrors.IsBadRequest(err) || err.Error() != "field label not supported: spec.clusterQueue" {
		t.Errorf("a field the CRD does not make selectable: %v", err)
	}
}

// nodePoolScaler is an unstructured controller of karpenter's NodePool:
// it scales static pools through the scale subresource and reports the
// nodes in the status.
func TestNodePoolScaleAndStatus(t *testing.T) {
	ctx := context.Background()
	c, _ := suiteClient(t, nil)
	np := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
		"metadata": map[string]any{"name": "static"},
		"spec": map[string]any{"replicas": int64(1), "template": map[string]any{"spec": map[string]any{
			"nodeClassRef": map[string]any{"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "default"},
			"requirements": []any{map[string]any{"key": "kubernetes.io/arch", "operator": "In", "values": []any{"amd64"}}},
		}}},
	}}
	if err := c.Create(ctx, np); err != nil {
		t.Fatal(err)
	}
	scale := &unstructured.Unstructured{}
	scale.SetGroupVersionKind(kschema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"})
	if err := c.SubResource("scale").Get(ctx, np, scale); err != nil {
		t.Fatal(err)
	}
	_ = unstructured.SetNestedField(scale.Object, int64(4), "spec", "replicas")
	if err := c.SubResource("scale").Update(ctx, np, client.WithSubResourceBody(scale)); err != nil {
		t.Fatal(err)
	}
	patch := client.RawPatch(types.MergePatchType, []byte(`{"status":{"nodes":4}}`))
	if err := c.Status().Patch(ctx, np, patch); err != nil {
		t.Fatal(err)
	}
	if r, _, _ := unstructured.NestedInt64(np.Object, "spec", "replicas"); r != 4 || np.GetGeneration() != 2 {
		t.Errorf("after scaling: replicas %d, generation %d", r, np.GetGeneration())
	}
	if err := c.SubResource("scale").Get(ctx, np, scale); err != nil {
		t.Fatal(err)
	}
	if r, _, _ := unstructured.NestedInt64(scale.Object, "status", "replicas"); r != 4 {
		t.Errorf("scale status replicas %d", r)
	}
	_ = unstructured.SetNestedField(scale.Object, int64(-1), "spec", "replicas")
	if err := c.SubResource("scale").Update(ctx, np, client.WithSubResourceBody(scale)); !apierrors.IsInvalid(err) {
		t.Errorf("scaled below the schema's minimum: %v", err)
	}
}

// TestMetadataOnly: metadata-only reads (builder.OnlyMetadata
// controllers) of a kind with a CRD.
func TestMetadataOnly(t *testing.T) {
	ctx := context.Background()
	c, _ := suiteClient(t, nil)
	q := &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "lq", Namespace: "team-a", Labels: map[string]string{"a": "b"}}, Spec: LocalQueueSpec{ClusterQueue: "cq"}}
	if err := c.Create(ctx, q); err != nil {
		t.Fatal(err)
	}
	p := &metav1.PartialObjectMetadata{}
	p.SetGroupVersionKind(kschema.GroupVersionKind{Group: "kueue.x-k8s.io", Version: "v1beta1", Kind: "LocalQueue"})
	if err := c.Get(ctx, client.ObjectKeyFromObject(q), p); err != nil || p.UID != q.UID || p.Labels["a"] != "b" || p.APIVersion != "kueue.x-k8s.io/v1beta1" {
		t.Errorf("partial metadata %+v, %v", p, err)
	}
	l := &metav1.PartialObjectMetadataList{}
	l.SetGroupVersionKind(kschema.GroupVersionKind{Group: "kueue.x-k8s.io", Version: "v1beta2", Kind: "LocalQueueList"})
	if err := c.List(ctx, l); err != nil || len(l.Items) != 1 || l.Items[0].Name != "lq" {
		t.Errorf("partial metadata list %+v, %v", l.Items, err)
	}
}

// TestListIndexedField: a field selector the apiserver does not take is
// answered by the fake's index for it, as a cached client answers it.
func TestListIndexedField(t *testing.T) {
	ctx := context.Background()
	b := corpusCRDs(t).NewClientBuilder().WithScheme(kueueScheme(t)).WithIndex(&LocalQueue{}, "spec.clusterQueue", func(o client.Object) []string {
		return []string{o.(*LocalQueue).Spec.ClusterQueue}
	})
	c, _ := suiteClient(t, b)
	for _, q := range []struct{ name, cq string }{{"a", "cq1"}, {"b", "cq2"}} {
		if err := c.Create(ctx, &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: q.name, Namespace: "team-a"}, Spec: LocalQueueSpec{ClusterQueue: q.cq}}); err != nil {
			t.Fatal(err)
		}
	}
	list := &LocalQueueList{}
	if err := c.List(ctx, list, client.MatchingFields{"spec.clusterQueue": "cq2", "metadata.namespace": "team-a"}); err != nil || len(list.Items) != 1 || list.Items[0].Name != "b" {
		t.Errorf("indexed field selector: %v, %v", list.Items, err)
	}
	if err := crdfake.AddIndex(c, &LocalQueue{}, "spec.stopPolicy", func(o client.Object) []string { return []string{*o.(*LocalQueue).Spec.StopPolicy} }); err != nil {
		t.Fatal(err)
	}
	if err := c.List(ctx, list, client.MatchingFields{"spec.stopPolicy": "None"}); err != nil || len(list.Items) != 2 {
		t.Errorf("an index added after Build: %v, %v", list.Items, err)
	}
}

// TestWhatStillDiffers pins the README's "What still differs from a
// cluster" entries no other test shows: List ignores Limit, Watch and
// DeleteAllOf take no index's field selector, and there is no garbage collector
// (a dependent outlives its owner, a Foreground deletion of an object
// without finalizers removes it at once), and fieldValidation=Strict is
// not offered (an unknown field is pruned with a warning).
func TestWhatStillDiffers(t *testing.T) {
	ctx := context.Background()
	b := corpusCRDs(t).NewClientBuilder().WithScheme(kueueScheme(t)).WithIndex(&LocalQueue{}, "spec.clusterQueue", func(o client.Object) []string {
		return []string{o.(*LocalQueue).Spec.ClusterQueue}
	})
	c, w := suiteClient(t, b)
	owner := &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "owner", Namespace: "team-a"}, Spec: LocalQueueSpec{ClusterQueue: "cq"}}
	if err := c.Create(ctx, owner); err != nil {
		t.Fatal(err)
	}
	dep := &LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "dep", Namespace: "team-a", OwnerReferences: []metav1.OwnerReference{{
		APIVersion: "kueue.x-k8s.io/v1beta2", Kind: "LocalQueue", Name: "owner", UID: owner.UID,
	}}}, Spec: LocalQueueSpec{ClusterQueue: "cq"}}
	if err := c.Create(ctx, dep); err != nil {
		t.Fatal(err)
	}
	list := &LocalQueueList{}
	if err := c.List(ctx, list, client.InNamespace("team-a"), client.Limit(1)); err != nil || len(list.Items) != 2 || list.Continue != "" {
		t.Errorf("List with Limit 1: %d items, continue %q, %v; want both, no continue", len(list.Items), list.Continue, err)
	}
	if err := c.DeleteAllOf(ctx, &LocalQueue{}, client.InNamespace("team-a"), client.MatchingFields{"spec.clusterQueue": "cq"}); !apierrors.IsBadRequest(err) {
		t.Errorf("DeleteAllOf on an indexed field: %v, want 400 field label not supported", err)
	}
	if w, err := c.Watch(ctx, &LocalQueueList{}, client.MatchingFields{"spec.clusterQueue": "cq"}); !apierrors.IsBadRequest(err) {
		if w != nil {
			w.Stop()
		}
		t.Errorf("Watch on an indexed field: %v, want 400 field label not supported", err)
	}
	if err := c.Delete(ctx, owner, client.PropagationPolicy(metav1.DeletePropagationForeground)); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(owner), &LocalQueue{}); !apierrors.IsNotFound(err) {
		t.Errorf("owner after a Foreground delete: %v, want NotFound (no foregroundDeletion finalizer)", err)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(dep), &LocalQueue{}); err != nil {
		t.Errorf("the dependent after its owner's deletion: %v, want it kept (no garbage collector)", err)
	}
	w.take()
	strict := objectAt("kueue.x-k8s.io/v1beta2", "LocalQueue", "strict")
	strict.SetNamespace("team-a")
	strict.Object["spec"] = map[string]any{"clusterQueue": "cq", "bogus": int64(1)}
	if err := c.Create(ctx, strict, client.FieldValidation("Strict")); err != nil {
		t.Errorf("a Strict create with an unknown field: %v, want it stored pruned (Strict is not offered)", err)
	}
	if ws := w.take(); len(ws) != 1 || !strings.Contains(ws[0], `unknown field "spec.bogus"`) {
		t.Errorf("warnings of a Strict create: %q, want the pruned field's", ws)
	}
}
