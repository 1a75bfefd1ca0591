package crdfake_test

import (
	"context"
	"embed"
	"fmt"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crdschema/crdschema/crdfake"
)

// crdFiles stands for an operator's config/crd/bases.
//
//go:embed testdata/widgets.yaml
var crdFiles embed.FS

// newWidgetClient is the one call: the CRDs, read once (a test package's
// var, say), build fake clients with the apiserver's semantics, with
// fake.ClientBuilder's options.
func newWidgetClient(warnings rest.WarningHandlerWithContext) client.Client {
	crds, err := crdfake.ReadFS(crdFiles, "testdata")
	if err != nil {
		panic(err)
	}
	return crds.NewClientBuilder().WithWarningHandler(warnings).Build()
}

func newWidget(name string, spec map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]any{"name": name, "namespace": "default"},
		"spec":       spec,
	}}
}

// A create is defaulted as the apiserver defaults it, and the object the
// reconciler gets back is the stored one.
func Example_defaultedCreate() {
	c := newWidgetClient(nil)
	w := newWidget("a", map[string]any{"size": "small"})
	if err := c.Create(context.Background(), w); err != nil {
		panic(err)
	}
	fmt.Println(w.Object["spec"], "generation", w.GetGeneration())
	// Output: map[maxReplicas:10 replicas:1 size:small] generation 1
}

// Under the status subresource, Update keeps the stored status and
// Status().Update changes only the status, validated by the schema.
func Example_statusSubresource() {
	ctx := context.Background()
	c := newWidgetClient(nil)
	w := newWidget("a", map[string]any{"size": "small"})
	if err := c.Create(ctx, w); err != nil {
		panic(err)
	}
	w.Object["status"] = map[string]any{"phase": "Ready"}
	if err := c.Update(ctx, w); err != nil {
		panic(err)
	}
	fmt.Println("after Update:", w.Object["status"])

	w.Object["status"] = map[string]any{"phase": "Ready", "observedGeneration": w.GetGeneration()}
	if err := c.Status().Update(ctx, w); err != nil {
		panic(err)
	}
	fmt.Println("after Status().Update:", w.Object["status"])

	w.Object["status"] = map[string]any{"phase": "Done"}
	err := c.Status().Update(ctx, w)
	fmt.Println(apierrors.IsInvalid(err))
	for _, cause := range err.(apierrors.APIStatus).Status().Details.Causes {
		fmt.Printf("%s %s: %s\n", cause.Type, cause.Field, cause.Message)
	}
	// Output:
	// after Update: <nil>
	// after Status().Update: map[observedGeneration:1 phase:Ready]
	// true
	// FieldValueInvalid <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation
	// FieldValueNotSupported status.phase: Unsupported value: "Done": supported values: "Pending", "Ready"
}

// An update that breaks a transition rule (x-kubernetes-validations with
// oldSelf) is refused as a cluster refuses it: IsInvalid, one cause per
// field error.
func Example_transitionRule() {
	ctx := context.Background()
	c := newWidgetClient(nil)
	w := newWidget("a", map[string]any{"size": "small", "color": "red"})
	if err := c.Create(ctx, w); err != nil {
		panic(err)
	}
	patch := client.RawPatch(types.MergePatchType, []byte(`{"spec":{"color":"blue"}}`))
	err := c.Patch(ctx, w, patch)
	fmt.Println(apierrors.IsInvalid(err))
	for _, cause := range err.(apierrors.APIStatus).Status().Details.Causes {
		fmt.Printf("%s %s: %s\n", cause.Type, cause.Field, cause.Message)
	}
	// Output:
	// true
	// FieldValueInvalid spec.color: Invalid value: "blue": color is immutable
}

// printWarnings is a client's warning handler, as set in
// rest.Config.WarningHandlerWithContext.
type printWarnings struct{}

func (printWarnings) HandleWarningHeaderWithContext(_ context.Context, code int, agent, text string) {
	fmt.Println("Warning:", text)
}

// A field the schema does not know is pruned, and the client's warning
// handler gets the apiserver's warning.
func Example_unknownFieldPruned() {
	c := newWidgetClient(printWarnings{})
	w := newWidget("a", map[string]any{"size": "small", "colour": "red"})
	if err := c.Create(context.Background(), w); err != nil {
		panic(err)
	}
	fmt.Println(w.Object["spec"])
	// Output:
	// Warning: unknown field "spec.colour"
	// map[maxReplicas:10 replicas:1 size:small]
}

// One object per name, served at every version: created at v1, read at
// the deprecated v1beta1, a second create of the name refused.
func Example_versions() {
	ctx := context.Background()
	c := newWidgetClient(printWarnings{})
	if err := c.Create(ctx, newWidget("a", map[string]any{"size": "small"})); err != nil {
		panic(err)
	}
	old := &unstructured.Unstructured{}
	old.SetAPIVersion("example.com/v1beta1")
	old.SetKind("Widget")
	if err := c.Get(ctx, types.NamespacedName{Namespace: "default", Name: "a"}, old); err != nil {
		panic(err)
	}
	fmt.Println(old.GetAPIVersion(), old.Object["spec"])
	again := newWidget("a", map[string]any{"size": "large"})
	again.SetAPIVersion("example.com/v1beta1")
	fmt.Println(apierrors.IsAlreadyExists(c.Create(ctx, again)))
	// Output:
	// Warning: example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget
	// example.com/v1beta1 map[maxReplicas:10 replicas:1 size:small]
	// Warning: example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget
	// true
}

// Server-side apply merges a list map by its keys, refuses a field another
// manager owns, and takes it over when forced.
func Example_serverSideApply() {
	ctx := context.Background()
	c := newWidgetClient(nil)
	apply := func(manager string, spec map[string]any, opts ...client.ApplyOption) error {
		ac := client.ApplyConfigurationFromUnstructured(newWidget("a", spec))
		return c.Apply(ctx, ac, append(opts, client.FieldOwner(manager))...)
	}
	if err := apply("web", map[string]any{"size": "small", "ports": []any{map[string]any{"name": "http", "port": 80}}}); err != nil {
		panic(err)
	}
	metrics := []any{map[string]any{"name": "metrics", "port": 9090}}
	if err := apply("monitoring", map[string]any{"ports": metrics}); err != nil {
		panic(err)
	}
	// An apply states all its manager wants: ports is applied again.
	err := apply("monitoring", map[string]any{"size": "large", "ports": metrics})
	fmt.Println(apierrors.IsConflict(err), err)
	if err := apply("monitoring", map[string]any{"size": "large", "ports": metrics}, client.ForceOwnership); err != nil {
		panic(err)
	}
	w := &unstructured.Unstructured{}
	w.SetGroupVersionKind(newWidget("a", nil).GroupVersionKind())
	if err := c.Get(ctx, types.NamespacedName{Namespace: "default", Name: "a"}, w); err != nil {
		panic(err)
	}
	fmt.Println(w.Object["spec"])
	// Output:
	// true Apply failed with 1 conflict: conflict with "web": .spec.size
	// map[maxReplicas:10 ports:[map[name:http port:80] map[name:metrics port:9090]] replicas:1 size:large]
}

// The scale subresource: the Scale of the object, and an update of its
// replicas validated as an update of the object.
func Example_scale() {
	ctx := context.Background()
	c := newWidgetClient(nil)
	w := newWidget("a", map[string]any{"size": "small"})
	if err := c.Create(ctx, w); err != nil {
		panic(err)
	}
	scale := &autoscalingv1.Scale{}
	if err := c.SubResource("scale").Get(ctx, w, scale); err != nil {
		panic(err)
	}
	fmt.Println("replicas", scale.Spec.Replicas)
	scale.Spec.Replicas = 20
	err := c.SubResource("scale").Update(ctx, w, client.WithSubResourceBody(scale))
	fmt.Println(err)
	// Output:
	// replicas 1
	// Widget.example.com "a" is invalid: spec: Invalid value: replicas must not exceed maxReplicas
}

// The REST mapper knows the CRDs' kinds, for the helpers that ask it.
func Example_restMapper() {
	c := newWidgetClient(nil)
	namespaced, err := c.IsObjectNamespaced(newWidget("a", nil))
	fmt.Println(namespaced, err)
	m, err := c.RESTMapper().RESTMapping(newWidget("a", nil).GroupVersionKind().GroupKind())
	fmt.Println(m.Resource, err)
	// Output:
	// true <nil>
	// example.com/v1, Resource=widgets <nil>
}
