package bench

import (
	"reflect"
	"sort"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"

	"github.com/crdschema/crdschema/prune"
)

// TestPruneAgrees checks that both sides of the benchmarks do the same
// work: crdschema and the reference prune a generated object (which has
// unknown fields) to the same object, with the same paths.
func TestPruneAgrees(t *testing.T) {
	v, err := synthVersion()
	if err != nil {
		t.Fatal(err)
	}
	obj, _ := genObject(4 << 10)
	a := deepCopy(obj).(map[string]any)
	csPaths := prune.Strings(prune.Prune(a, v.cs.Structural(), prune.Options{ResourceRoot: true, ReturnPaths: true}))
	r := deepCopy(obj).(map[string]any)
	refPaths := structuralpruning.PruneWithOptions(r, v.ref, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	if len(csPaths) == 0 {
		t.Fatal("nothing pruned: the generated object should have unknown fields")
	}
	if !reflect.DeepEqual(a, r) {
		t.Errorf("pruned objects differ")
	}
	sort.Strings(csPaths)
	sort.Strings(refPaths)
	if !reflect.DeepEqual(csPaths, refPaths) {
		t.Errorf("pruned paths differ:\ncrdschema %v\nreference %v", csPaths, refPaths)
	}
}

// deepCopy copies a JSON value so that nothing is shared with it.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}
