package crdfake_test

import (
	"context"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crdschema/crdschema/crdfake"
)

// oneKindOfSet is a test touching one kind (WorkflowEventBinding, an
// 81 KB CRD) of argo-workflows' set of 8 CRDs (3.7 MB, the 2.8 MB
// Workflow among them): alone is the kind's CRD file, set the set's
// directory; read reads either, firstCall builds a client and creates one
// object of the kind.
type oneKindOfSet struct {
	alone, set string
}

func newOneKindOfSet(t testing.TB) *oneKindOfSet {
	dir := filepath.Join(sharedDir(t, "corpus", "argo-workflows"), "crds")
	return &oneKindOfSet{alone: filepath.Join(dir, "workfloweventbindings.argoproj.io.yaml"), set: dir}
}

func (*oneKindOfSet) read(t testing.TB, path string) *crdfake.CRDs {
	crds, err := crdfake.ReadFiles(path)
	if err != nil {
		t.Fatal(err)
	}
	return crds
}

func (*oneKindOfSet) firstCall(t testing.TB, crds *crdfake.CRDs) {
	binding := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "argoproj.io/v1alpha1", "kind": "WorkflowEventBinding",
		"metadata": map[string]any{"name": "event-consumer", "namespace": "default"},
		"spec": map[string]any{
			"event":  map[string]any{"selector": `payload.message != ""`},
			"submit": map[string]any{"workflowTemplateRef": map[string]any{"name": "my-wf-tmpl"}},
		},
	}}
	if err := crds.NewClientBuilder().Build().Create(context.Background(), binding); err != nil {
		t.Fatal(err)
	}
}

// TestOneKindOfSetPaysForItsKind pins issue 32's target: a test touching
// one kind of a large set of CRDs pays for that kind only, its first
// call's allocations (reading the set, Build, the first Create) within 2x
// of the same with the kind's CRD alone (1.01x when written: the other
// CRDs' names are read ahead, not decoded).
func TestOneKindOfSetPaysForItsKind(t *testing.T) {
	o := newOneKindOfSet(t)
	// AllocsPerRun's first run, not counted, pays what libraries build
	// once per process.
	alone := testing.AllocsPerRun(2, func() { o.firstCall(t, o.read(t, o.alone)) })
	set := testing.AllocsPerRun(2, func() { o.firstCall(t, o.read(t, o.set)) })
	t.Logf("allocs: the kind's CRD alone %.0f, the set of 8 %.0f (%.2fx)", alone, set, set/alone)
	if set > 2*alone {
		t.Errorf("one kind of a set of 8 CRDs: %.0f allocs, more than twice the %.0f of its CRD alone", set, alone)
	}
}

// BenchmarkOneKindOfSet measures oneKindOfSet's cold path per iteration:
// "alone" reads only the kind's CRD, builds a client and creates one
// object; "set" reads all 8 instead; "set-first-call" counts only the
// client and its first Create, the set read beforehand (timer stopped) as
// a package variable reads it. What libraries build once per process is
// paid before the sub-benchmarks, so that none carries it.
func BenchmarkOneKindOfSet(b *testing.B) {
	o := newOneKindOfSet(b)
	o.firstCall(b, o.read(b, o.alone)) // the once-per-process cost
	for _, tc := range []struct {
		name, path string
		readTimed  bool
	}{
		{"alone", o.alone, true},
		{"set", o.set, true},
		{"set-first-call", o.set, false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !tc.readTimed {
					b.StopTimer()
				}
				crds := o.read(b, tc.path)
				b.StartTimer()
				o.firstCall(b, crds)
			}
		})
	}
}
