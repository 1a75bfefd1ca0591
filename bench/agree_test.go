package bench

import (
	"context"
	"reflect"
	"sort"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/jsonvalue"
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
	a := jsonvalue.DeepCopy(obj).(map[string]any)
	csPaths := prune.Prune(a, v.cs.Structural(), prune.Options{ResourceRoot: true, ReturnPaths: true})
	r := jsonvalue.DeepCopy(obj).(map[string]any)
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

// TestCELAgrees checks that both sides of BenchmarkCEL do the same work:
// on every corpus example whose CRD has rules, crdschema's and the
// reference's CEL validators return the same errors.
func TestCELAgrees(t *testing.T) {
	c := loadCorpus(t)
	s := celSet(c)
	if len(s.objs) == 0 {
		t.Skip("no corpus example has rules")
	}
	render := func(errs field.ErrorList) []string {
		var out []string
		for _, e := range errs {
			out = append(out, e.Error())
		}
		sort.Strings(out)
		return out
	}
	ctx := context.Background()
	failing := 0
	for i, o := range s.objs {
		cs, _ := s.vs[i].csRules.Validate(ctx, o, nil, cel.Options{})
		ref, _ := s.rs[i].rules.Validate(ctx, nil, s.rs[i].full, o, nil, celconfig.RuntimeCELCostBudget)
		if len(ref) > 0 {
			failing++
		}
		if !reflect.DeepEqual(render(cs), render(ref)) {
			t.Errorf("object %d: crdschema %q, reference %q", i, render(cs), render(ref))
		}
	}
	t.Logf("%d objects with rules, %d failing some rule", len(s.objs), failing)
}
