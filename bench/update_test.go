package bench

import (
	"context"
	"sort"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/registry/rest"
)

// updateSet pairs every corpus example (after the create pipeline) as the
// stored object with a new object: an equal copy (unchanged), or a copy
// with one leaf changed (changed).
type updateSet struct {
	*objSet
	olds []map[string]any
}

func newUpdateSet(c *corpus, changed bool) *updateSet {
	return newUpdateSetOf(corpusSet(c, func(r *routed) map[string]any { return r.clean }), changed)
}

// validSet is the corpus examples (after the create pipeline) whose value
// validation finds nothing without allocating (1,196 of the 1,222 valid
// ones; the others meet junctors whose branch errors are built and
// dropped): there an unchanged update must not allocate either.
func validSet(c *corpus) *objSet {
	s := &objSet{}
	for _, r := range c.objects {
		if len(r.v.csValues.Validate(r.clean)) > 0 || testing.AllocsPerRun(1, func() { r.v.csValues.Validate(r.clean) }) > 0 {
			continue
		}
		s.objs = append(s.objs, r.clean)
		s.vs = append(s.vs, r.v)
		s.rs = append(s.rs, r.v.refSchema())
		s.json = append(s.json, r.json)
		s.bytes += int64(len(r.json))
	}
	return s
}

func newUpdateSetOf(base *objSet, changed bool) *updateSet {
	s := &updateSet{objSet: base}
	for i, o := range s.objs {
		s.olds = append(s.olds, o)
		n := jsonvalue.DeepCopy(o).(map[string]any)
		if changed {
			changeOneLeaf(n)
		}
		s.objs[i] = n
	}
	return s
}

// changeOneLeaf changes the first string or number leaf under spec (in key
// order), or adds a label when there is none.
func changeOneLeaf(obj map[string]any) {
	var visit func(v any) bool
	visit = func(v any) bool {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				switch y := x[k].(type) {
				case string:
					x[k] = y + "x"
					return true
				case int64:
					x[k] = y + 1
					return true
				case float64:
					x[k] = y + 1
					return true
				}
				if visit(x[k]) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if visit(e) {
					return true
				}
			}
		}
		return false
	}
	if visit(obj["spec"]) {
		return
	}
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		obj["metadata"] = meta
	}
	labels, _ := meta["labels"].(map[string]any)
	if labels == nil {
		labels = map[string]any{}
		meta["labels"] = labels
	}
	labels["bench"] = "changed"
}

// refValidateUpdate is the reference's value validation of an update with
// CRDValidationRatcheting: the correlated object over the structural
// schema, ValidateCustomResourceUpdate with ratcheting, and the list-type
// checks of the old and then the new object, as the strategy's
// ValidateUpdate runs them.
func refValidateUpdate(obj, old map[string]any, rs *refSchema) field.ErrorList {
	corr := common.NewCorrelatedObject(obj, old, &model.Structural{Structural: rs.full})
	errs := apiservervalidation.ValidateCustomResourceUpdate(nil, obj, old, rs.validator, apiservervalidation.WithRatcheting(corr))
	if oldErrs := structurallisttype.ValidateListSetsAndMaps(nil, rs.full, old); len(oldErrs) == 0 {
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, rs.full, obj)...)
	}
	return errs
}

func benchUpdateValidate(b *testing.B, s *updateSet) {
	b.Run("crdschema", func(b *testing.B) {
		runReadOnly(b, s.objSet, func(i int, o map[string]any) { sink += len(s.vs[i].csValues.ValidateUpdate(o, s.olds[i])) })
	})
	b.Run("reference", func(b *testing.B) {
		runReadOnly(b, s.objSet, func(i int, o map[string]any) { sink += len(refValidateUpdate(o, s.olds[i], s.rs[i])) })
	})
}

// BenchmarkUpdateValidate validates updates of the corpus examples (after
// the create pipeline) with ratcheting: the OpenAPI value validation and
// the list-type checks, old = new (unchanged) and with one leaf changed
// (changed); valid-* are the examples that are valid on create. crdschema's validation.Validator.ValidateUpdate against the
// reference's ValidateCustomResourceUpdate with a CorrelatedObject.
func BenchmarkUpdateValidate(b *testing.B) {
	c := loadCorpus(b)
	b.Run("unchanged", func(b *testing.B) { benchUpdateValidate(b, newUpdateSet(c, false)) })
	b.Run("changed", func(b *testing.B) { benchUpdateValidate(b, newUpdateSet(c, true)) })
	b.Run("valid-unchanged", func(b *testing.B) { benchUpdateValidate(b, newUpdateSetOf(validSet(c), false)) })
	b.Run("valid-changed", func(b *testing.B) { benchUpdateValidate(b, newUpdateSetOf(validSet(c), true)) })
}

// TestUpdateValidateAgrees: on every corpus update pair of the benchmark,
// crdschema and the reference find the same (type, field) errors.
func TestUpdateValidateAgrees(t *testing.T) {
	c := loadCorpus(t)
	for _, changed := range []bool{false, true} {
		s := newUpdateSet(c, changed)
		for i, o := range s.objs {
			got := pairs(s.vs[i].csValues.ValidateUpdate(o, s.olds[i]))
			want := pairs(refValidateUpdate(o, s.olds[i], s.rs[i]))
			if len(got) != len(want) {
				t.Errorf("changed=%v object %d: %v, want %v", changed, i, got, want)
				continue
			}
			for k := range want {
				if !got[k] {
					t.Errorf("changed=%v object %d: %v, want %v", changed, i, got, want)
					break
				}
			}
		}
	}
}

func pairs(errs field.ErrorList) map[string]bool {
	m := map[string]bool{}
	for _, e := range errs {
		m[string(e.Type)+" "+e.Field] = true
	}
	return m
}

// TestUpdateValidateNoAllocs: an unchanged update of a valid example
// allocates nothing.
func TestUpdateValidateNoAllocs(t *testing.T) {
	c := loadCorpus(t)
	s := newUpdateSetOf(validSet(c), false)
	if len(s.objs) == 0 {
		t.Fatal("no valid corpus example")
	}
	allocs := testing.AllocsPerRun(3, func() {
		for i, o := range s.objs {
			sink += len(s.vs[i].csValues.ValidateUpdate(o, s.olds[i]))
		}
	})
	t.Logf("%d valid examples, %.0f allocations per pass", len(s.objs), allocs)
	if allocs != 0 {
		t.Errorf("%.0f allocations per pass of unchanged valid updates, want 0", allocs)
	}
}

// refStrategies caches the reference's registry strategy per version.
var refStrategies = map[*version]rest.RESTUpdateStrategy{}

// refStrategy is the custom resource registry strategy of the version, as
// the apiserver builds it (without status and scale subresources: the
// benchmark measures the update validation of the main resource).
func refStrategy(v *version, obj map[string]any) rest.RESTUpdateStrategy {
	if st, ok := refStrategies[v]; ok {
		return st
	}
	u := &unstructured.Unstructured{Object: obj}
	gvk := u.GroupVersionKind()
	st := customresource.NewStrategy(crdserverscheme.NewUnstructuredObjectTyper(), v.namespace, gvk, v.refValid, nil, v.ref, nil, nil, nil)
	refStrategies[v] = st
	return st
}

// BenchmarkUpdate is a whole update request per corpus example against
// itself as the stored object (unchanged) or with one leaf changed
// (changed): crdschema's Schema.ApplyUpdate (copies of both objects, the
// stored object's read path, the request's decoding, the update
// preparation and validation, CEL rules included) against only the
// reference strategy's ValidateUpdate on the same, already decoded objects
// (ObjectMeta update rules, OpenAPI validation with ratcheting, embedded
// metadata, list types, CEL rules with ratcheting).
func BenchmarkUpdate(b *testing.B) {
	c := loadCorpus(b)
	ctx := context.Background()
	for _, changed := range []bool{false, true} {
		name := "unchanged"
		if changed {
			name = "changed"
		}
		s := newUpdateSet(c, changed)
		// Requests carry the stored resourceVersion.
		for i, o := range s.objs {
			for _, m := range []map[string]any{o, s.olds[i]} {
				if meta, ok := m["metadata"].(map[string]any); ok {
					meta["resourceVersion"] = "1"
				}
			}
		}
		// Strategies (their CEL programs) are built before timing, as
		// crdschema's schemas were compiled when the corpus was loaded.
		for i, o := range s.objs {
			refStrategy(s.vs[i], o)
		}
		b.Run(name, func(b *testing.B) {
			b.Run("crdschema", func(b *testing.B) {
				runReadOnly(b, s.objSet, func(i int, o map[string]any) { sink += len(s.vs[i].cs.ApplyUpdate(o, s.olds[i]).Errors) })
			})
			b.Run("reference", func(b *testing.B) {
				runReadOnly(b, s.objSet, func(i int, o map[string]any) {
					st := refStrategy(s.vs[i], o)
					sink += len(st.ValidateUpdate(ctx, &unstructured.Unstructured{Object: o}, &unstructured.Unstructured{Object: s.olds[i]}))
				})
			})
		})
	}
}
