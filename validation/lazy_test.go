package validation_test

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// New compiles each node when a value first reaches it: forced all the
// way down, its tree is the one compiling the whole converted schema at
// once builds, for every version schema of the corpus.
func TestLazyCompileAsEagerCorpus(t *testing.T) {
	corpus := shareddata.Dir(t, "corpus")
	projects, _ := filepath.Glob(filepath.Join(corpus, "*", "crds"))
	if len(projects) == 0 {
		shareddata.Missing(t, filepath.Join(corpus, "*", "crds"))
	}
	schemas := 0
	for _, crds := range projects {
		for _, crd := range loadCRDs(t, crds) {
			for _, v := range crd.Spec.Versions {
				p := crd.SchemaFor(v.Name)
				if p == nil {
					continue
				}
				s, err := structural.New(p)
				if err != nil {
					continue
				}
				schemas++
				lazyOK, eagerOK, equal := validation.CompiledLazilyAsEagerly(s)
				if lazyOK != eagerOK || (lazyOK && !equal) {
					t.Errorf("%s %s: compiles lazily %v, eagerly %v, equal trees %v", crd.Metadata.Name, v.Name, lazyOK, eagerOK, equal)
				}
			}
		}
	}
	if schemas < 100 {
		t.Fatalf("only %d corpus version schemas compared", schemas)
	}
	t.Logf("%d corpus version schemas compiled lazily as eagerly", schemas)
}

// A keyword the walk does not implement anywhere in the schema, even
// where no value reaches, leaves the whole validator to the engine, as
// compiling the whole schema did; the fixture's schema compiles.
func TestLazyCompileFallsBackAsEager(t *testing.T) {
	// Neither the decoder nor structural.New accepts such keywords; a
	// model node's Source set by hand can hold them.
	max := 3.0
	p := &schema.Props{Type: "object", Properties: map[string]*schema.Props{
		"spec": {Type: "object", Properties: map[string]*schema.Props{
			"deep": {Type: "object", Properties: map[string]*schema.Props{"x": {Type: "object"}}},
			"n":    {Type: "integer", Maximum: &max},
		}},
	}}
	s, err := structural.New(p)
	if err != nil {
		t.Fatal(err)
	}
	s.Properties["spec"].Properties["deep"].Properties["x"].Source = &schema.Props{Type: "object",
		AllOf: []schema.Props{{PatternProperties: map[string]schema.Props{"^a": {Type: "string"}}}}}
	lazyOK, eagerOK, _ := validation.CompiledLazilyAsEagerly(s)
	if lazyOK || eagerOK {
		t.Fatalf("compiles lazily %v, eagerly %v: patternProperties in an allOf must keep the engine", lazyOK, eagerOK)
	}
	v := validation.New(s)
	if v.IsCompiled() {
		t.Error("New compiled a schema the walk cannot validate")
	}
	errs := v.Validate(map[string]any{"spec": map[string]any{"n": int64(4)}})
	if len(errs) != 1 || errs[0].Field != "spec.n" {
		t.Errorf("the engine's errors: %v", errs)
	}
	fixture, _ := allocFixtureSchema(t)
	if lazyOK, eagerOK, equal := validation.CompiledLazilyAsEagerly(fixture); !lazyOK || !eagerOK || !equal {
		t.Errorf("fixture: compiles lazily %v, eagerly %v, equal trees %v", lazyOK, eagerOK, equal)
	}
	if !validation.New(fixture).IsCompiled() {
		t.Error("New left the fixture to the engine")
	}
	// Models written by hand: forbidden and schema'd additional properties.
	for _, ap := range []*structural.AdditionalProperties{{Allows: false}, {Allows: true, Schema: &structural.Schema{Type: "integer"}}} {
		hand := &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{
			"m": {Type: "object", AdditionalProperties: ap},
			"l": {Type: "array", Items: &structural.Schema{Type: "string"}},
		}}
		if lazyOK, eagerOK, equal := validation.CompiledLazilyAsEagerly(hand); !lazyOK || !eagerOK || !equal {
			t.Errorf("additionalProperties %+v: compiles lazily %v, eagerly %v, equal trees %v", *ap, lazyOK, eagerOK, equal)
		}
	}
}

// New learns whether the walk implements every keyword of a node's
// junctors (and of its Source's items where the model has none) by
// reading the Source: it decides as compiling the converted schema does,
// for each keyword the walk does not implement, at each place compile
// reads (junctors, not, items, properties, additionalProperties allowed or
// not), and for the forms that do compile (empty maps and items arrays).
func TestSourceScanAsCompile(t *testing.T) {
	str := schema.Props{Type: "string"}
	bad := map[string]schema.Props{
		"patternProperties": {PatternProperties: map[string]schema.Props{"^a": str}},
		"dependencies":      {Dependencies: map[string]schema.PropsOrStringArray{"a": {Property: []string{"b"}}}},
		"additionalItems":   {AdditionalItems: &schema.PropsOrBool{Allows: true}},
		"items array":       {Items: &schema.PropsOrArray{Array: []schema.Props{str}}},
	}
	fine := map[string]schema.Props{
		"nothing":                 str,
		"empty patternProperties": {PatternProperties: map[string]schema.Props{}},
		"empty dependencies":      {Dependencies: map[string]schema.PropsOrStringArray{}},
		"empty items array":       {Items: &schema.PropsOrArray{Array: []schema.Props{}}},
	}
	// Where the keyword sits in a node's Source.
	places := map[string]func(schema.Props) *schema.Props{
		"allOf": func(k schema.Props) *schema.Props { return &schema.Props{AllOf: []schema.Props{str, k}} },
		"anyOf": func(k schema.Props) *schema.Props { return &schema.Props{AnyOf: []schema.Props{k}} },
		"oneOf": func(k schema.Props) *schema.Props { return &schema.Props{OneOf: []schema.Props{k}} },
		"not":   func(k schema.Props) *schema.Props { return &schema.Props{Not: &k} },
		"not in allOf": func(k schema.Props) *schema.Props {
			return &schema.Props{AllOf: []schema.Props{{Not: &k}}}
		},
		"allOf property": func(k schema.Props) *schema.Props {
			return &schema.Props{AllOf: []schema.Props{{Properties: map[string]*schema.Props{"a": &str, "b": &k}}}}
		},
		"allOf items": func(k schema.Props) *schema.Props {
			return &schema.Props{AllOf: []schema.Props{{Items: &schema.PropsOrArray{Schema: &k}}}}
		},
		"allOf additionalProperties": func(k schema.Props) *schema.Props {
			return &schema.Props{AllOf: []schema.Props{{AdditionalProperties: &schema.PropsOrBool{Allows: true, Schema: &k}}}}
		},
		"allOf additionalProperties not allowed": func(k schema.Props) *schema.Props {
			return &schema.Props{AllOf: []schema.Props{{AdditionalProperties: &schema.PropsOrBool{Allows: false, Schema: &k}}}}
		},
		"items the model has not": func(k schema.Props) *schema.Props {
			return &schema.Props{Items: &schema.PropsOrArray{Schema: &k}}
		},
		"node itself": func(k schema.Props) *schema.Props { return &k },
	}
	for pname, place := range places {
		for _, set := range []map[string]schema.Props{bad, fine} {
			for kname, k := range set {
				hand := &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{
					"x": {Type: "object", Source: place(k)},
				}}
				lazyOK, eagerOK, equal := validation.CompiledLazilyAsEagerly(hand)
				if lazyOK != eagerOK || (lazyOK && !equal) {
					t.Errorf("%s in %s: compiles lazily %v, eagerly %v, equal trees %v", kname, pname, lazyOK, eagerOK, equal)
				}
			}
		}
	}
}

// A model written by hand whose node has properties but no items, and
// items in its Source, validates array values against the Source's items
// (fromModel takes them where the model has none) also when its
// properties are compiled lazily.
func TestLazyCompileKeepsSourceItems(t *testing.T) {
	hand := &structural.Schema{
		Properties: map[string]*structural.Schema{"a": {Type: "string"}},
		Source:     &schema.Props{Items: &schema.PropsOrArray{Schema: &schema.Props{Type: "string"}}},
	}
	if lazyOK, eagerOK, equal := validation.CompiledLazilyAsEagerly(hand); !lazyOK || !eagerOK || !equal {
		t.Errorf("compiles lazily %v, eagerly %v, equal trees %v", lazyOK, eagerOK, equal)
	}
	errs := validation.New(hand).Validate([]any{int64(1)})
	if len(errs) != 1 || errs[0].Field != "[0]" {
		t.Errorf("want the item's type error at [0], got %v", errs)
	}
}

// A validator left to the engine builds it on first use, once, whoever
// asks first: 16 goroutines validate with a new one at the same time
// (run with -race, as CI does, for the engine's Once to be checked).
func TestEngineBuiltOnFirstUseConcurrently(t *testing.T) {
	max := 3.0
	p := &schema.Props{Type: "object", Properties: map[string]*schema.Props{
		"n": {Type: "integer", Maximum: &max},
		"x": {Type: "object"},
	}}
	s, err := structural.New(p)
	if err != nil {
		t.Fatal(err)
	}
	// A keyword the walk does not implement (see
	// TestLazyCompileFallsBackAsEager) leaves the validator to the engine.
	s.Properties["x"].Source = &schema.Props{Type: "object",
		AllOf: []schema.Props{{PatternProperties: map[string]schema.Props{"^a": {Type: "string"}}}}}
	v := validation.New(s)
	if v.IsCompiled() {
		t.Fatal("New compiled a schema the walk cannot validate")
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			errs := v.Validate(map[string]any{"n": int64(4)})
			if len(errs) != 1 || errs[0].Field != "n" {
				t.Errorf("the engine's errors: %v", errs)
			}
		})
	}
	wg.Wait()
}
