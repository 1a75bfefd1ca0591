package crdfake_test

import (
	"context"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crdschema/crdschema/crdfake"
)

// BenchmarkOneKindOfSet is a test touching one kind (WorkflowEventBinding,
// an 81 KB CRD) of argo-workflows' set of 8 CRDs (3.7 MB, the 2.8 MB
// Workflow among them). Each iteration is a test binary's cold path for
// that kind: "alone" reads only the kind's CRD, builds a client and
// creates one object; "set" reads all 8 instead; "set-first-call" counts
// only the client and its first Create, the set read beforehand (timer
// stopped) as a package variable reads it. What libraries build once per
// process is paid before the sub-benchmarks, so that none carries it.
func BenchmarkOneKindOfSet(b *testing.B) {
	dir := filepath.Join(sharedDir(b, "corpus", "argo-workflows"), "crds")
	alone := filepath.Join(dir, "workfloweventbindings.argoproj.io.yaml")
	binding := func() *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "argoproj.io/v1alpha1", "kind": "WorkflowEventBinding",
			"metadata": map[string]any{"name": "event-consumer", "namespace": "default"},
			"spec": map[string]any{
				"event":  map[string]any{"selector": `payload.message != ""`},
				"submit": map[string]any{"workflowTemplateRef": map[string]any{"name": "my-wf-tmpl"}},
			},
		}}
	}
	ctx := context.Background()
	read := func(b *testing.B, path string) *crdfake.CRDs {
		crds, err := crdfake.ReadFiles(path)
		if err != nil {
			b.Fatal(err)
		}
		return crds
	}
	firstCall := func(b *testing.B, crds *crdfake.CRDs) {
		if err := crds.NewClientBuilder().Build().Create(ctx, binding()); err != nil {
			b.Fatal(err)
		}
	}
	firstCall(b, read(b, alone)) // the once-per-process cost
	for _, tc := range []struct {
		name, path string
		readTimed  bool
	}{
		{"alone", alone, true},
		{"set", dir, true},
		{"set-first-call", dir, false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !tc.readTimed {
					b.StopTimer()
				}
				crds := read(b, tc.path)
				b.StartTimer()
				firstCall(b, crds)
			}
		})
	}
}
