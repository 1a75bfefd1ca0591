package cel

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// NewValidator compiles each node when a value first reaches it: forced
// all the way down, its tree is the one the whole-tree build (the
// builder NewValidator had before, kept below as the reference) makes,
// on every corpus version schema with rules, with and without a cache.
func TestLazyValidatorAsEagerCorpus(t *testing.T) {
	schemas := 0
	eachCorpusVersion(t, func(name string, s *structural.Schema) {
		if !hasRules(s) {
			return
		}
		schemas++
		compareLazyEager(t, name, s)
	})
	if schemas < 50 {
		t.Fatalf("only %d corpus version schemas with rules compared", schemas)
	}
	t.Logf("%d corpus version schemas with rules built lazily as eagerly", schemas)
}

// The lazy tree is the whole-tree build's, and compiles through the
// cache what it did, on schemas the corpus lacks: rules below a resource
// root's metadata (typed by the root: never cached), in allOf, in an
// embedded resource, under a property name CEL cannot spell.
func TestLazyValidatorAsEagerCases(t *testing.T) {
	rule := `"x-kubernetes-validations":[{"rule":"self.size() > 1"}]`
	kind := `"x-kubernetes-validations":[{"rule":"self.kind == 'x'"}]`
	sized := `"x-kubernetes-validations":[{"rule":"self.lowerAscii() == 'x'"}]`
	for _, js := range []string{
		// metadata.name's type is the root's (at most 253 characters): it
		// must not take the results of a, of the same schema (and cost).
		`{"type":"object","properties":{"a":{"type":"string",` + sized + `},"metadata":{"type":"object","properties":{"name":{"type":"string",` + sized + `}}}}}`,
		`{"type":"object","properties":{"a":{"type":"string"},"n":{"type":"string",` + rule + `}},"allOf":[{"properties":{"a":{` + rule + `}}}]}`,
		// An embedded resource's type has its kind (the rule compiles).
		`{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,` + kind + `,"properties":{"s":{"type":"string",` + rule + `}}}}}`,
		`{"type":"object","properties":{"1e":{"type":"object","x-kubernetes-embedded-resource":true,` + kind + `,"properties":{"s":{"type":"string",` + rule + `}}}}}`,
	} {
		compareLazyEager(t, js, mustSchema(t, js))
	}
}

// compareLazyEager fails t when the lazy validator of s, forced, differs
// from the whole-tree build's, without a cache or each with its own (then
// the caches must hold as many results: the same nodes compiled through
// them).
func compareLazyEager(t *testing.T, name string, s *structural.Schema) {
	t.Helper()
	for _, cached := range []bool{false, true} {
		var eagerCache, lazyCache *CompileCache
		if cached {
			eagerCache, lazyCache = NewCompileCache(), NewCompileCache()
		}
		eager := eagerValidator(s, eagerCache)
		lazy := NewValidator(s, true, lazyCache)
		if lazy == nil {
			t.Fatalf("%s: no validator", name)
		}
		lazy.CompileAll()
		if !reflect.DeepEqual(withoutPrograms(eager.root), withoutPrograms(lazy.root)) || !reflect.DeepEqual(eager.adapter, lazy.adapter) {
			t.Errorf("%s (cache %v): the lazy tree forced differs from the whole-tree build", name, cached)
		}
		if cached && eagerCache.Len() != lazyCache.Len() {
			t.Errorf("%s: the lazy build cached %d results, the whole-tree build %d", name, lazyCache.Len(), eagerCache.Len())
		}
	}
}

// A validator shared by goroutines builds each node once, whichever
// evaluation reaches it first, and every evaluation gets the errors of a
// validator compiled before, with a cache and without (run with -race).
func TestLazyValidatorConcurrent(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{
		"a":{"type":"object","x-kubernetes-validations":[{"rule":"self.x > 1","messageExpression":"'x is ' + string(self.x)"}],
			"properties":{"x":{"type":"integer"},"l":{"type":"array","items":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 3"}]}}}},
		"b":{"type":"object","additionalProperties":{"type":"integer","x-kubernetes-validations":[{"rule":"self != 4"}]}}}}`)
	obj := map[string]any{"a": map[string]any{"x": int64(1), "l": []any{"abcd", "ab"}}, "b": map[string]any{"k": int64(4)}}
	cache := NewCompileCache()
	want := NewValidator(s, true, nil)
	want.CompileAll()
	wantErrs, wantRem := want.Validate(t.Context(), obj, nil, Options{})
	if len(wantErrs) != 3 {
		t.Fatalf("want 3 errors, got %v", wantErrs)
	}
	// Without a cache, nodes are built with no lock but their Once:
	// concurrently, when evaluations reach different nodes first.
	for _, c := range []*CompileCache{cache, nil} {
		v := NewValidator(s, true, c)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				errs, rem := v.Validate(t.Context(), obj, nil, Options{})
				if rem != wantRem || errs.ToAggregate().Error() != wantErrs.ToAggregate().Error() {
					t.Errorf("concurrent evaluation (cache %v): %v (%d left), want %v (%d left)", c != nil, errs, rem, wantErrs, wantRem)
				}
			})
		}
		wg.Wait()
	}
	if n := cache.Len(); n != 3 {
		t.Errorf("the cache holds %d rule sets, want 3 (one for each node with rules)", n)
	}
}

// Goroutines that each reach a different subtree first build its nodes
// at once, without a cache (so without its lock): each such build asks
// which of its children have rules below them and records the answers
// (here c2's, which the root's build did not need: it stopped at c1),
// under the builder's lock (run with -race).
func TestLazyValidatorConcurrentSubtrees(t *testing.T) {
	const n = 8
	var props []string
	for i := range n {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"object","properties":{
			"c1":{"type":"object","properties":{"x":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 3"}]}}},
			"c2":{"type":"object","properties":{"y":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 2"}]}}}}}`, i))
	}
	v := NewValidator(mustSchema(t, `{"type":"object","properties":{`+strings.Join(props, ",")+`}}`), true, nil)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			obj := map[string]any{fmt.Sprintf("p%d", i): map[string]any{"c1": map[string]any{"x": "abcd"}, "c2": map[string]any{"y": "ab"}}}
			if errs, _ := v.Validate(t.Context(), obj, nil, Options{}); len(errs) != 2 {
				t.Errorf("p%d: %v, want 2 errors", i, errs)
			}
		})
	}
	wg.Wait()
}

// withoutPrograms is the forced tree v with what two compilations of the same
// rules cannot share left out: the programs (their environments name the
// node's type after the time of compilation) and the lazy building state.
func withoutPrograms(v *vnode) *vnode {
	if v == nil || v.empty() {
		// NewValidator makes the root before it knows whether any rule
		// has a typed path to it; empty, it validates nothing, as the
		// whole-tree build's nil root.
		return nil
	}
	c := *v
	c.lazy = nil
	c.results = nil
	for _, r := range v.results {
		r.programs = nil
		c.results = append(c.results, r)
	}
	c.items, c.additional = withoutPrograms(v.items), withoutPrograms(v.additional)
	c.props, c.allOf = nil, nil
	for _, p := range v.props {
		c.props = append(c.props, propValidator{p.name, withoutPrograms(p.v)})
	}
	for _, a := range v.allOf {
		c.allOf = append(c.allOf, withoutPrograms(a))
	}
	return &c
}

// eachCorpusVersion calls fn with the structural schema of every version
// of the corpus CRDs that has one.
func eachCorpusVersion(t *testing.T, fn func(name string, s *structural.Schema)) {
	files, _ := filepath.Glob(filepath.Join(shareddata.Dir(t, "corpus"), "*", "crds", "*.yaml"))
	if len(files) == 0 {
		shareddata.Missing(t, filepath.Join(shareddata.Dir(t, "corpus"), "*", "crds", "*.yaml"))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := schema.ReadDocuments(f, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			if crd, err := model.DecodeCRDDocument(d); err == nil && crd != nil {
				eachVersion(crd, fn)
			}
		}
	}
}

// eachVersion calls fn with the structural schema of every version of
// crd that has one.
func eachVersion(crd *model.CRD, fn func(name string, s *structural.Schema)) {
	for _, v := range crd.Spec.Versions {
		if p := crd.SchemaFor(v.Name); p != nil {
			if s, err := structural.New(p); err == nil {
				fn(crd.Metadata.Name+" "+v.Name, s)
			}
		}
	}
}

// eagerValidator is NewValidator as it was before nodes were built on
// first use: the reference TestLazyValidatorAsEagerCorpus compares with.
func eagerValidator(s *structural.Schema, cache *CompileCache) *Validator {
	a := newAdapter(s)
	decl := common.SchemaDeclType(a, true)
	b := &vnodeBuilder{cache: cache}
	return &Validator{root: b.eagerNode(sourceOf(s), s, a, true, decl, false), adapter: a}
}

// eagerNode builds the validator of the node s, with the rules of rulesFrom
// (s's own schema, or one of its allOf entries) and their children's.
func (b *vnodeBuilder) eagerNode(rulesFrom *schema.Props, s *structural.Schema, a *adapter, isResourceRoot bool, decl *apiservercel.DeclType, underMeta bool) *vnode {
	if rulesFrom == nil || s == nil {
		return nil
	}
	v := &vnode{s: s, adapter: a, rules: rulesFrom.XValidations, isResourceRoot: isResourceRoot}
	v.results, v.compileErr = b.compile(s, rulesFrom.XValidations, decl, isResourceRoot, underMeta)
	for i := range v.results {
		v.usesOldSelf = v.usesOldSelf || v.results[i].usesOldSelf
	}
	elem := elemType(decl)
	if rulesFrom.Items != nil && rulesFrom.Items.Schema != nil && s.Items != nil {
		v.items = b.eagerNode(rulesFrom.Items.Schema, s.Items, a.items, s.Items.EmbeddedResource, elem, underMeta)
	}
	for _, k := range sortedNames(rulesFrom.Properties) {
		if c := b.eagerProperty(k, rulesFrom.Properties[k], s, a, isResourceRoot, decl, underMeta); c != nil {
			v.props = append(v.props, propValidator{k, c})
		}
	}
	if ap := rulesFrom.AdditionalProperties; ap != nil && ap.Schema != nil && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		v.additional = b.eagerNode(ap.Schema, s.AdditionalProperties.Schema, a.ap.schema, s.AdditionalProperties.Schema.EmbeddedResource, elem, underMeta)
	}
	for i := range rulesFrom.AllOf {
		if c := b.eagerNode(&rulesFrom.AllOf[i], s, a, isResourceRoot, decl, underMeta); c != nil {
			v.allOf = append(v.allOf, c)
		}
	}
	if len(v.results) > 0 || v.compileErr != nil || v.items != nil || v.additional != nil || len(v.props) > 0 || len(v.allOf) > 0 {
		return v
	}
	return nil
}

// eagerProperty builds the validator of the property k of s, with the rules
// of rulesFrom (k's schema in the rules' source); nil when s has no such
// property, or it has no CEL type, or no rules.
func (b *vnodeBuilder) eagerProperty(k string, rulesFrom *schema.Props, s *structural.Schema, a *adapter, isResourceRoot bool, decl *apiservercel.DeclType, underMeta bool) *vnode {
	ps, ok := s.Properties[k]
	if !ok {
		return nil
	}
	var fieldType *apiservercel.DeclType
	if esc, ok := apiservercel.Escape(k); ok {
		if decl == nil {
			return nil
		}
		f, ok := decl.Fields[esc]
		if !ok {
			// A field without a CEL type is not validated.
			return nil
		}
		fieldType = f.Type
	} else {
		// A name CEL cannot spell is typed on its own.
		fieldType = common.SchemaDeclType(a.props[k], ps.EmbeddedResource)
		if fieldType == nil {
			return nil
		}
	}
	meta := underMeta || (isResourceRoot && (k == "metadata" || k == "apiVersion" || k == "kind"))
	return b.eagerNode(rulesFrom, ps, a.props[k].(*adapter), ps.EmbeddedResource, fieldType, meta)
}

// A root whose rules have no typed path to them (an array without items
// has no CEL type) is made before NewValidator knows it, and validates
// nothing, as the whole-tree build's nil root.
func TestLazyValidatorUntypedRules(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"a":{"type":"array","x-kubernetes-validations":[{"rule":"false"}]}}}`)
	if eagerValidator(s, nil).root != nil {
		t.Fatal("the whole-tree build has a root: the fixture does not test an untyped path")
	}
	v := NewValidator(s, true, nil)
	errs, rem := v.Validate(t.Context(), map[string]any{"a": []any{int64(1)}}, nil, Options{})
	if len(errs) > 0 || rem != RuntimeCostBudget || !v.root.built().empty() {
		t.Errorf("errors %v, %d left, root empty %v; want none, the whole budget, an empty root", errs, rem, v.root.empty())
	}
	// The apiserver has no validator for it: nothing to evaluate, as
	// without rules, unlike a schema with a typed rule.
	typed := NewValidator(mustSchema(t, `{"type":"object","properties":{"a":{"type":"string","x-kubernetes-validations":[{"rule":"false"}]}}}`), true, nil)
	if v.Evaluates() || (*Validator)(nil).Evaluates() || !typed.Evaluates() {
		t.Errorf("Evaluates: untyped rules %v, nil %v, typed rule %v; want false, false, true", v.Evaluates(), (*Validator)(nil).Evaluates(), typed.Evaluates())
	}
}

// A node whose build panicked (a bug: no input is known to) panics again
// at every use, as the whole-tree build panicked in every NewValidator,
// rather than validating nothing from then on.
func TestLazyValidatorBuildPanicsAgain(t *testing.T) {
	// No rules' source: build dereferences nil.
	v := &vnode{lazy: &lazyNode{b: &vnodeBuilder{}}}
	for i := range 2 {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("use %d of a node whose build panicked did not panic", i+1)
				}
			}()
			v.built()
		}()
	}
}
