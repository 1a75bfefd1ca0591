package crdfake_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/crdfake"
)

// The corpus' largest CRD (argo-workflows' Workflow, 2.8 MB) and one of
// its examples, through the fake with the CRD's semantics and through the
// plain fake.
func workflowClients(b *testing.B) (map[string]client.Client, map[string]any) {
	corpus := sharedDir(b, "corpus", "argo-workflows")
	crds, err := crdfake.ReadFiles(filepath.Join(corpus, "crds", "workflows.argoproj.io.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(corpus, "examples", "examples__arguments-parameters.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		b.Fatal(err)
	}
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(js); err != nil {
		b.Fatal(err)
	}
	obj.SetNamespace("default") // as kubectl sends it
	clients := map[string]client.Client{
		"crdfake": crds.NewClientBuilder().Build(),
		"plain":   fake.NewClientBuilder().Build(),
	}
	return clients, obj.Object
}

func BenchmarkCreate(b *testing.B) {
	clients, obj := workflowClients(b)
	for _, name := range []string{"plain", "crdfake"} {
		c := clients[name]
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			// The first request of a version compiles its schema (once per
			// CRDs value); it is not what a test pays per call.
			warm := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
			warm.SetName("warm-up")
			warm.SetGenerateName("")
			if err := c.Create(ctx, warm); err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
				u.SetName(fmt.Sprintf("%s-%d", name, i))
				u.SetGenerateName("")
				if err := c.Create(ctx, u); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkUpdate(b *testing.B) {
	clients, obj := workflowClients(b)
	for _, name := range []string{"plain", "crdfake"} {
		c := clients[name]
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
			u.SetName("update-" + name)
			u.SetGenerateName("")
			if err := c.Create(ctx, u); err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				// A spec change: a new parameter value each time.
				params, _, _ := unstructured.NestedSlice(u.Object, "spec", "arguments", "parameters")
				params[0].(map[string]any)["value"] = fmt.Sprintf("hello %d", i)
				_ = unstructured.SetNestedSlice(u.Object, params, "spec", "arguments", "parameters")
				if err := c.Update(ctx, u); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFirstCall is what a test pays for a new client before its
// first answer: Build and one Create of kueue's LocalQueue (v1beta2, the
// storage version), the CRDs read once (as in a package variable) and
// their schema compiled by a warm-up client, as every test after the
// first finds it. "plain" is the fake without CRD semantics.
func BenchmarkFirstCall(b *testing.B) {
	corpus := sharedDir(b, "corpus")
	crds, err := crdfake.ReadFiles(filepath.Join(corpus, "kueue", "crds", "localqueues.kueue.x-k8s.io.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	queue := func() *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
			"metadata": map[string]any{"name": "lq", "namespace": "team-a"},
			"spec":     map[string]any{"clusterQueue": "cq"},
		}}
	}
	builders := map[string]func() client.Client{
		"plain":   func() client.Client { return fake.NewClientBuilder().Build() },
		"crdfake": func() client.Client { return crds.NewClientBuilder().Build() },
	}
	for _, name := range []string{"plain", "crdfake"} {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			if err := builders[name]().Create(ctx, queue()); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := builders[name]().Create(ctx, queue()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkColdStart is what a test binary pays once: reading a CRD (a
// new CRDs value each time, so its schema is compiled again), Build and
// the first Create: kueue's LocalQueue, and argo's Workflow (2.8 MB of
// schema) with one of argo's examples.
func BenchmarkColdStart(b *testing.B) {
	corpus := sharedDir(b, "corpus")
	queue := map[string]any{
		"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
		"metadata": map[string]any{"name": "lq", "namespace": "team-a"},
		"spec":     map[string]any{"clusterQueue": "cq"},
	}
	data, err := os.ReadFile(filepath.Join(corpus, "argo-workflows", "examples", "examples__arguments-parameters.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		b.Fatal(err)
	}
	workflow := &unstructured.Unstructured{}
	if err := workflow.UnmarshalJSON(js); err != nil {
		b.Fatal(err)
	}
	workflow.SetNamespace("default")
	for _, tc := range []struct {
		name, crd string
		obj       map[string]any
	}{
		{"localqueue", filepath.Join(corpus, "kueue", "crds", "localqueues.kueue.x-k8s.io.yaml"), queue},
		{"workflow", filepath.Join(corpus, "argo-workflows", "crds", "workflows.argoproj.io.yaml"), workflow.Object},
	} {
		b.Run(tc.name, func(b *testing.B) {
			ctx := context.Background()
			for b.Loop() {
				crds, err := crdfake.ReadFiles(tc.crd)
				if err != nil {
					b.Fatal(err)
				}
				u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(tc.obj)}
				if err := crds.NewClientBuilder().Build().Create(ctx, u); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
