package crdfake_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crdschema/crdschema/crdfake"
)

// TestBuilderSeeds: the objects given to WithObjects, WithLists and
// WithRuntimeObjects are split at Build: the CRDs' kinds are taken in as
// stored objects (read back defaulted), the others reach the fake.
func TestBuilderSeeds(t *testing.T) {
	ctx := context.Background()
	cm := func(name string) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}
	}
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(kschema.GroupVersionKind{Version: "v1", Kind: "List"})
	cmItem := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "in-list", "namespace": "default"}}}
	list.Items = []unstructured.Unstructured{*widget("w-list", map[string]any{"size": "small"}), *cmItem}
	c := widgetCRDs(t).NewClientBuilder().
		WithObjects(widget("w-obj", map[string]any{"size": "small"}), cm("obj")).
		WithLists(list, &corev1.ConfigMapList{Items: []corev1.ConfigMap{*cm("typed-list")}}).
		WithRuntimeObjects(widget("w-rt", map[string]any{"size": "small"}), cm("rt")).
		Build()
	for _, name := range []string{"w-obj", "w-list", "w-rt"} {
		if r := nested(t, get(t, c, name), "spec", "replicas"); r != int64(1) {
			t.Errorf("%s: replicas %v, want the default 1", name, r)
		}
	}
	for _, name := range []string{"obj", "in-list", "typed-list", "rt"} {
		if err := c.Get(ctx, types.NamespacedName{Namespace: "default", Name: name}, &corev1.ConfigMap{}); err != nil {
			t.Errorf("ConfigMap %s: %v", name, err)
		}
	}

	// A seeded object of a CRD's kind without a metadata object fails
	// every request of its kind with the reason, not the fake's panic.
	bad := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": "x"}}
	c = widgetCRDs(t).NewClientBuilder().WithObjects(bad, cm("fine")).Build()
	err := c.Get(ctx, types.NamespacedName{Namespace: "default", Name: "x"}, widget("", nil))
	if err == nil || !strings.Contains(err.Error(), "has no metadata object") {
		t.Errorf("a Widget without metadata: %v", err)
	}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "default", Name: "fine"}, &corev1.ConfigMap{}); err != nil {
		t.Errorf("other kinds are not concerned: %v", err)
	}
}

// TestBuilderRESTMapper: a REST mapper given to the builder answers for
// the kinds the CRDs do not define; the CRDs' kinds are the CRDs'.
func TestBuilderRESTMapper(t *testing.T) {
	gizmo := kschema.GroupVersionKind{Group: "toys.example.com", Version: "v1", Kind: "Gizmo"}
	m := meta.NewDefaultRESTMapper([]kschema.GroupVersion{gizmo.GroupVersion()})
	m.Add(gizmo, meta.RESTScopeRoot)
	m.Add(kschema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, meta.RESTScopeRoot) // shadowed
	c := widgetCRDs(t).NewClientBuilder().WithRESTMapper(m).Build()
	if got, err := c.RESTMapper().RESTMapping(gizmo.GroupKind()); err != nil || got.Resource.Resource != "gizmos" {
		t.Errorf("the given mapper's kind: %+v, %v", got, err)
	}
	if ns, err := c.IsObjectNamespaced(widget("w", nil)); err != nil || !ns {
		t.Errorf("Widget namespaced %v, %v; want the CRD's scope", ns, err)
	}
}

// TestAddIndex: crdfake.AddIndex registers an index with a built client
// for a CRD's kind, and with the fake for other kinds; it refuses a client
// crdfake did not build and an index registered twice.
func TestAddIndex(t *testing.T) {
	ctx := context.Background()
	byData := func(o client.Object) []string { return []string{o.(*corev1.ConfigMap).Data["k"]} }
	if err := crdfake.AddIndex(fake.NewClientBuilder().Build(), &corev1.ConfigMap{}, "data.k", byData); err == nil || !strings.Contains(err.Error(), "not a client built by crdfake") {
		t.Errorf("a plain fake: %v", err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default"}, Data: map[string]string{"k": "v"}}
	c := widgetCRDs(t).NewClientBuilder().WithObjects(cm).Build()
	if err := crdfake.AddIndex(c, &corev1.ConfigMap{}, "data.k", byData); err != nil {
		t.Fatal(err)
	}
	var cms corev1.ConfigMapList
	if err := c.List(ctx, &cms, client.MatchingFields{"data.k": "v"}); err != nil || len(cms.Items) != 1 {
		t.Errorf("the fake's index: %v, %v", cms.Items, err)
	}
	bySize := func(o client.Object) []string {
		s, _, _ := unstructured.NestedString(o.(*unstructured.Unstructured).Object, "spec", "size")
		return []string{s}
	}
	if err := crdfake.AddIndex(c, widget("", nil), "spec.size", bySize); err != nil {
		t.Fatal(err)
	}
	if err := crdfake.AddIndex(c, widget("", nil), "spec.size", bySize); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("an index added twice: %v", err)
	}
	for _, w := range []*unstructured.Unstructured{widget("s", map[string]any{"size": "small"}), widget("l", map[string]any{"size": "large"})} {
		if err := c.Create(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	l := &unstructured.UnstructuredList{}
	l.SetGroupVersionKind(kschema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "WidgetList"})
	if err := c.List(ctx, l, client.MatchingFields{"spec.size": "large"}); err != nil || len(l.Items) != 1 || l.Items[0].GetName() != "l" {
		t.Errorf("the CRD kind's index: %v, %v", l.Items, err)
	}
	if err := c.List(ctx, l, client.MatchingFields{"spec.color": "red"}); !apierrors.IsBadRequest(err) {
		t.Errorf("a field neither the apiserver nor an index takes: %v", err)
	}
}

// TestUnservedStorageVersion: a CRD may store at a version it does not
// serve; writes reach it through the storage converter, reads come back
// at the served version.
func TestUnservedStorageVersion(t *testing.T) {
	c := clientOf(t, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: sprockets.example.com}
spec:
  group: example.com
  names: {kind: Sprocket, plural: sprockets}
  scope: Namespaced
  versions:
  - {name: v1, served: true, storage: false, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {teeth: {type: integer, default: 12}}}}}}}
  - {name: v2, served: false, storage: true, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {teeth: {type: integer}}}}}}}
`)
	ctx := context.Background()
	s := objectAt("example.com/v1", "Sprocket", "s")
	s.Object["spec"] = map[string]any{}
	if err := c.Create(ctx, s); err != nil {
		t.Fatal(err)
	}
	got := objectAt("example.com/v1", "Sprocket", "")
	if err := c.Get(ctx, client.ObjectKeyFromObject(s), got); err != nil {
		t.Fatal(err)
	}
	if teeth, _, _ := unstructured.NestedInt64(got.Object, "spec", "teeth"); teeth != 12 || got.GetAPIVersion() != "example.com/v1" {
		t.Errorf("read back %v", got.Object)
	}
}

// clientOf is a client with the semantics of the CRDs of doc.
func clientOf(t *testing.T, doc string) client.WithWatch {
	t.Helper()
	crds, err := crdfake.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return crds.NewClientBuilder().Build()
}

// objectAt is an object of kind at apiVersion named name in "default".
func objectAt(apiVersion, kind, name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": name, "namespace": "default"}}}
}

// TestNoPrivateFieldAccess keeps crdfake on controller-runtime's exported
// API: no file of the package imports unsafe or reads a field by name or
// position through reflect (FieldByName, FieldByIndex, Field(i)), which
// is how the former Builder read fake.ClientBuilder's unexported fields and broke on a
// controller-runtime version other than the one it was written for.
func TestNoPrivateFieldAccess(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			if imp.Path.Value == `"unsafe"` {
				t.Errorf("%s imports unsafe", f)
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && strings.HasPrefix(sel.Sel.Name, "FieldBy") {
				t.Errorf("%s: %s reads a field by name or index", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			// reflect.Value.Field(i) reads a field by its position.
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Field" {
					t.Errorf("%s: Field(i) reads a field by index", fset.Position(sel.Pos()))
				}
			}
			return true
		})
	}
}
