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
	clients := map[string]client.Client{
		"crdfake": crds.Builder(nil, nil).Build(),
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
