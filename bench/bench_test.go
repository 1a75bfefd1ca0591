package bench

import (
	"context"
	"runtime"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/prune"
)

// The five largest corpus CRDs, by project/file name.
var largest = []string{
	"argo-workflows/workflows.argoproj.io",
	"kyverno/clusterpolicies.kyverno.io",
	"kueue/workloads.kueue.x-k8s.io",
	"argo-cd/applicationsets.argoproj.io",
	"prometheus-operator/prometheuses.monitoring.coreos.com",
}

// crdSets returns the CRD inputs: each of the largest alone, then all.
func crdSets(c *corpus) (names []string, sets [][]*crdFile) {
	for _, n := range largest {
		names = append(names, n[len(c.byName[n].project)+1:])
		sets = append(sets, []*crdFile{c.byName[n]})
	}
	return append(names, "all"), append(sets, c.crds)
}

func crdBytes(set []*crdFile, f func(*crdFile) []byte) int64 {
	var n int64
	for _, c := range set {
		n += int64(len(f(c)))
	}
	return n
}

// BenchmarkCRDFromYAML reads, decodes and checks CRD files from their YAML
// bytes and builds every version's structural schema. The reference
// converts YAML to JSON as kubectl does, decodes it to the internal version
// with defaults, runs ValidateCustomResourceDefinition (which compiles the
// CEL rules) and NewStructural + ValidateStructural; reference-nocel does
// the same on the input with every x-kubernetes-validations removed, as
// crdschema does not compile CEL.
func BenchmarkCRDFromYAML(b *testing.B) {
	c := loadCorpus(b)
	names, sets := crdSets(c)
	for i, set := range sets {
		b.Run(names[i], func(b *testing.B) {
			benchCRD(b, set, func(f *crdFile) []byte { return f.yaml }, csFromYAML, refFromYAML)
			b.Run("reference-nocel", func(b *testing.B) {
				nocel := make([][]byte, len(set))
				for j, f := range set {
					nocel[j] = f.noCELYAML
				}
				b.SetBytes(crdBytes(set, func(f *crdFile) []byte { return f.yaml }))
				b.ReportAllocs()
				for b.Loop() {
					for _, d := range nocel {
						if _, err := refFromYAML(d); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		})
	}
}

// BenchmarkCRDFromJSON is BenchmarkCRDFromYAML from the documents' JSON,
// as kubectl sends them: decode, check, build.
func BenchmarkCRDFromJSON(b *testing.B) {
	c := loadCorpus(b)
	names, sets := crdSets(c)
	for i, set := range sets {
		b.Run(names[i], func(b *testing.B) {
			benchCRD(b, set, func(f *crdFile) []byte { return f.json }, csCheck, refFromJSON)
			b.Run("reference-nocel", func(b *testing.B) {
				b.SetBytes(crdBytes(set, func(f *crdFile) []byte { return f.json }))
				b.ReportAllocs()
				for b.Loop() {
					for _, f := range set {
						if _, err := refFromJSON(f.noCEL); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		})
	}
}

func benchCRD(b *testing.B, set []*crdFile, in func(*crdFile) []byte, cs, ref func([]byte) (int, error)) {
	for _, side := range []struct {
		name string
		f    func([]byte) (int, error)
	}{{"crdschema", cs}, {"reference", ref}} {
		b.Run(side.name, func(b *testing.B) {
			b.SetBytes(crdBytes(set, in))
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				for _, f := range set {
					if _, err := side.f(in(f)); err != nil {
						b.Fatal(err)
					}
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// objSet is a set of objects processed by one benchmark iteration.
type objSet struct {
	objs  []map[string]any
	vs    []*version
	rs    []*refSchema
	json  [][]byte
	bytes int64
}

func corpusSet(c *corpus, pick func(*routed) map[string]any) *objSet {
	s := &objSet{bytes: c.bytes}
	for _, r := range c.objects {
		s.objs = append(s.objs, pick(r))
		s.vs = append(s.vs, r.v)
		s.rs = append(s.rs, r.v.refSchema())
		s.json = append(s.json, r.json)
	}
	return s
}

// poolBudget bounds the memory of pre-cloned objects (in JSON bytes).
const poolBudget = 16 << 20

// runMutating runs op over fresh deep copies of the set's objects, b.N
// times. The copies are made in chunks outside the timed region (timer
// stopped once per chunk, not per object), followed by a garbage
// collection, so neither their time, their allocations nor the collection
// work they cause count.
func runMutating(b *testing.B, s *objSet, op func(i int, obj map[string]any)) {
	b.SetBytes(s.bytes)
	b.ReportAllocs()
	chunk := max(1, int(poolBudget/max(1, s.bytes)))
	b.ResetTimer()
	for done := 0; done < b.N; {
		k := min(chunk, b.N-done)
		b.StopTimer()
		pool := make([][]map[string]any, k)
		for j := range pool {
			pool[j] = make([]map[string]any, len(s.objs))
			for i, o := range s.objs {
				pool[j][i] = jsonvalue.DeepCopy(o).(map[string]any)
			}
		}
		// Finish the collection the copies started, so that its marking
		// does not run beside the timed operation.
		runtime.GC()
		b.StartTimer()
		for _, objs := range pool {
			for i, o := range objs {
				op(i, o)
			}
		}
		done += k
	}
}

// runReadOnly runs op over the set's objects, which it must not change.
func runReadOnly(b *testing.B, s *objSet, op func(i int, obj map[string]any)) {
	b.SetBytes(s.bytes)
	b.ReportAllocs()
	// One pass before the timed loop: crdschema's validators build a node
	// when a value first reaches it, the reference's were built up front;
	// both sides are then measured as built (a node's build is measured
	// by the CRD benchmarks). With few iterations (a 300 ms run of
	// BenchmarkCEL is ~18), the builds inside the loop would count as a
	// fifth of crdschema's evaluation.
	for i, o := range s.objs {
		op(i, o)
	}
	for b.Loop() {
		for i, o := range s.objs {
			op(i, o)
		}
	}
}

// walk visits every value of a JSON value: the floor of any walker.
func walk(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := 1
		for _, e := range x {
			n += walk(e)
		}
		return n
	case []any:
		n := 1
		for _, e := range x {
			n += walk(e)
		}
		return n
	}
	return 1
}

var sink int

func benchWalk(b *testing.B, s *objSet) {
	runReadOnly(b, s, func(_ int, o map[string]any) { sink += walk(o) })
}

func benchPrune(b *testing.B, s *objSet, paths bool, mutating bool) {
	run := runReadOnly
	if mutating {
		run = runMutating
	}
	b.Run("crdschema", func(b *testing.B) {
		opts := prune.Options{ResourceRoot: true, ReturnPaths: paths}
		run(b, s, func(i int, o map[string]any) { sink += len(prune.Prune(o, s.vs[i].cs.Structural(), opts)) })
	})
	b.Run("reference", func(b *testing.B) {
		opts := structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: paths}
		run(b, s, func(i int, o map[string]any) {
			sink += len(structuralpruning.PruneWithOptions(o, s.rs[i].full, true, opts))
		})
	})
}

func benchDefault(b *testing.B, s *objSet, mutating bool) {
	run := runReadOnly
	if mutating {
		run = runMutating
	}
	b.Run("crdschema", func(b *testing.B) {
		run(b, s, func(i int, o map[string]any) { defaulting.DropNullsAndDefault(o, s.vs[i].csServed) })
	})
	b.Run("reference", func(b *testing.B) {
		run(b, s, func(i int, o map[string]any) {
			structuraldefaulting.PruneNonNullableNullsWithoutDefaults(o, s.rs[i].served)
			structuraldefaulting.Default(o, s.rs[i].served)
		})
	})
}

func benchValidate(b *testing.B, s *objSet) {
	b.Run("crdschema", func(b *testing.B) {
		runReadOnly(b, s, func(i int, o map[string]any) { sink += len(s.vs[i].csValues.Validate(o)) })
	})
	b.Run("reference", func(b *testing.B) {
		runReadOnly(b, s, func(i int, o map[string]any) { sink += len(refValidateValues(o, s.rs[i])) })
	})
}

func benchPipeline(b *testing.B, s *objSet) {
	b.Run("crdschema", func(b *testing.B) {
		b.SetBytes(s.bytes)
		b.ReportAllocs()
		for b.Loop() {
			for i, data := range s.json {
				r, err := s.vs[i].cs.ApplyJSON(data)
				if err != nil {
					b.Fatal(err)
				}
				sink += len(r.Errors) + len(r.Pruned)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		b.SetBytes(s.bytes)
		b.ReportAllocs()
		for b.Loop() {
			for i, data := range s.json {
				_, paths, errs, err := refPipeline(data, s.rs[i])
				if err != nil {
					b.Fatal(err)
				}
				sink += len(errs) + len(paths)
			}
		}
	})
}

// BenchmarkWalk is the floor: a recursive walk visiting every value of the
// corpus examples as read (corpus) and after the create pipeline (clean).
func BenchmarkWalk(b *testing.B) {
	c := loadCorpus(b)
	b.Run("corpus", func(b *testing.B) { benchWalk(b, corpusSet(c, func(r *routed) map[string]any { return r.obj })) })
	b.Run("clean", func(b *testing.B) { benchWalk(b, corpusSet(c, func(r *routed) map[string]any { return r.clean })) })
}

// BenchmarkPrune prunes the corpus examples (each routed to its CRD
// version) without unknown-field paths, and the same objects after the
// create pipeline, where there is nothing left to prune (no copies made).
func BenchmarkPrune(b *testing.B) {
	c := loadCorpus(b)
	b.Run("corpus", func(b *testing.B) {
		benchPrune(b, corpusSet(c, func(r *routed) map[string]any { return r.obj }), false, true)
	})
	b.Run("clean", func(b *testing.B) {
		benchPrune(b, corpusSet(c, func(r *routed) map[string]any { return r.clean }), false, false)
	})
}

// BenchmarkPrunePaths is BenchmarkPrune with unknown-field paths returned.
func BenchmarkPrunePaths(b *testing.B) {
	c := loadCorpus(b)
	b.Run("corpus", func(b *testing.B) {
		benchPrune(b, corpusSet(c, func(r *routed) map[string]any { return r.obj }), true, true)
	})
	b.Run("clean", func(b *testing.B) {
		benchPrune(b, corpusSet(c, func(r *routed) map[string]any { return r.clean }), true, false)
	})
}

// BenchmarkDefault drops non-nullable nulls and defaults the corpus
// examples with the served (defaults-pruned) schema, and the same objects
// after the create pipeline, where there is nothing to do.
func BenchmarkDefault(b *testing.B) {
	c := loadCorpus(b)
	b.Run("corpus", func(b *testing.B) {
		benchDefault(b, corpusSet(c, func(r *routed) map[string]any { return r.obj }), true)
	})
	b.Run("clean", func(b *testing.B) {
		benchDefault(b, corpusSet(c, func(r *routed) map[string]any { return r.clean }), false)
	})
}

// BenchmarkValidate validates the values of the corpus examples after the
// create pipeline: crdschema's validation.Validator against the
// reference's NewSchemaValidator + ValidateCustomResource + list types.
func BenchmarkValidate(b *testing.B) {
	c := loadCorpus(b)
	b.Run("clean", func(b *testing.B) { benchValidate(b, corpusSet(c, func(r *routed) map[string]any { return r.clean })) })
}

// BenchmarkPipeline is a whole create request per corpus example, from its
// JSON bytes: decode, prune, drop nulls, coerce metadata, default,
// validate, evaluate the CEL rules.
func BenchmarkPipeline(b *testing.B) {
	c := loadCorpus(b)
	b.Run("corpus", func(b *testing.B) { benchPipeline(b, corpusSet(c, func(r *routed) map[string]any { return r.obj })) })
}

// celSet is the corpus examples (after the create pipeline) whose CRD
// version has x-kubernetes-validations rules.
func celSet(c *corpus) *objSet {
	s := &objSet{}
	for _, r := range c.objects {
		if r.v.csRules == nil || r.v.refRules == nil {
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

// BenchmarkCEL evaluates the x-kubernetes-validations rules of the corpus
// examples whose CRDs have rules (after the create pipeline): crdschema's
// cel.Validator against the apiextensions-apiserver's CEL validator, both
// compiled once per version, with the runtime budget.
func BenchmarkCEL(b *testing.B) {
	c := loadCorpus(b)
	s := celSet(c)
	if len(s.objs) == 0 {
		b.Skip("no corpus example has rules")
	}
	ctx := context.Background()
	b.Run("clean", func(b *testing.B) {
		b.Run("crdschema", func(b *testing.B) {
			runReadOnly(b, s, func(i int, o map[string]any) {
				errs, _ := s.vs[i].csRules.Validate(ctx, o, nil, cel.Options{})
				sink += len(errs)
			})
		})
		b.Run("reference", func(b *testing.B) {
			runReadOnly(b, s, func(i int, o map[string]any) {
				errs, _ := s.rs[i].rules.Validate(ctx, nil, s.rs[i].full, o, nil, celconfig.RuntimeCELCostBudget)
				sink += len(errs)
			})
		})
	})
}
