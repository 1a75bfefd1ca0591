package cel

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"sync"
	"testing"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/library"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// apiserverTypes is the provider the apiserver gives a node's environment
// of a kind for self of type decl named name, and self's named type: the
// reference selfTypes answers as.
func apiserverTypes(t *testing.T, kind envKind, decl *apiservercel.DeclType, name string) (*apiservercel.DeclTypeProvider, *celgo.Type) {
	t.Helper()
	base, err := baseEnv(kind)
	if err != nil {
		t.Fatal(err)
	}
	named := decl.MaybeAssignTypeName(name)
	p := apiservercel.NewDeclTypeProvider(named)
	p.SetRecognizeKeywordAsFieldName(true)
	p, err = p.WithTypeProvider(base.CELTypeProvider())
	if err != nil {
		t.Fatal(err)
	}
	return p, named.CelType()
}

// compareSelfTypes fails t where selfTypes answers differently from the
// apiserver's provider for self of type decl: for the named self type, for
// every name the apiserver registers, every name one step below one of
// them, and names of other providers; for every field of every registered
// type, and fields no type has. It returns how many names it compared.
func compareSelfTypes(t *testing.T, where string, decl *apiservercel.DeclType) int {
	t.Helper()
	const name = "selfType123"
	ref, refSelf := apiserverTypes(t, newExpressions, decl, name)
	got := newSelfTypes(decl, name, noTypes[newExpressions])
	if self := namedCELType(decl, name); !reflect.DeepEqual(self, refSelf) {
		t.Errorf("%s: self is %v, the apiserver's %v", where, self, refSelf)
		return 0
	}
	registered := ref.TypeNames()
	sort.Strings(registered)
	names := append([]string{name, name + ".", name + "x", "list", "map", "list.@idx", "map.@elem", "string", "int",
		"object", "google.protobuf.Duration", "", "."}, registered...)
	extra := []string{"@idx", "@elem", "nosuch", "in", "namespace", "__in__", "__namespace__", "", "seconds"}
	fields := map[string][]string{"string": extra, "google.protobuf.Duration": extra, "nosuch": extra}
	for _, r := range registered {
		rt, _ := ref.FindDeclType(r)
		own := slices.Sorted(maps.Keys(rt.Fields))
		fields[r] = append(own, extra...)
		for _, f := range append(own, "@idx", "@elem", "nosuch") {
			names = append(names, r+"."+f)
		}
	}
	for _, n := range names {
		gt, gok := got.FindStructType(n)
		rt, rok := ref.FindStructType(n)
		if gok != rok || !reflect.DeepEqual(gt, rt) {
			t.Errorf("%s: FindStructType(%q) = %v, %v; the apiserver's %v, %v", where, n, gt, gok, rt, rok)
		}
	}
	for n, fs := range fields {
		for _, f := range fs {
			gf, gok := got.FindStructFieldType(n, f)
			rf, rok := ref.FindStructFieldType(n, f)
			if gok != rok || !sameFieldType(gf, rf) {
				t.Errorf("%s: FindStructFieldType(%q, %q) = %v, %v; the apiserver's %v, %v", where, n, f, gf, gok, rf, rok)
			}
		}
	}
	return len(names)
}

// sameFieldType reports whether two field types have equal types and the
// same presence of field accessors (functions, which cannot be compared).
func sameFieldType(a, b *types.FieldType) bool {
	if a == nil || b == nil {
		return a == b
	}
	return reflect.DeepEqual(a.Type, b.Type) && (a.IsSet == nil) == (b.IsSet == nil) && (a.GetFrom == nil) == (b.GetFrom == nil)
}

// eachRuleSelf calls fn with the CEL type of s, typed as t, and of every
// node below s with rules (the selves the check gives environments),
// following t along properties, items and additionalProperties.
func eachRuleSelf(s *structural.Schema, t *apiservercel.DeclType, path string, root bool, fn func(path string, s *structural.Schema, t *apiservercel.DeclType)) {
	if s == nil || t == nil {
		return
	}
	if root || nodeHasRules(sourceOf(s)) {
		fn(path, s, t)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		if esc, ok := apiservercel.Escape(k); ok && t.Fields[esc] != nil {
			eachRuleSelf(s.Properties[k], t.Fields[esc].Type, path+"."+k, false, fn)
		}
	}
	eachRuleSelf(s.Items, t.ElemType, path+"[]", false, fn)
	if s.AdditionalProperties != nil {
		eachRuleSelf(s.AdditionalProperties.Schema, t.ElemType, path+"{}", false, fn)
	}
}

// TestSelfTypesAsApiserverCorpus holds selfTypes to the apiserver's
// provider for the root and every node with rules of every corpus version
// schema, as self.
func TestSelfTypesAsApiserverCorpus(t *testing.T) {
	selves, names := 0, 0
	eachCorpusVersion(t, func(version string, s *structural.Schema) {
		decl := common.SchemaDeclType(newAdapter(s), true)
		eachRuleSelf(s, decl, version, true, func(path string, _ *structural.Schema, d *apiservercel.DeclType) {
			selves++
			names += compareSelfTypes(t, path, d)
		})
	})
	t.Logf("%d self types, %d names compared", selves, names)
}

// eachDeclType calls fn with t and every type below it (fields, elements)
// that is an object, list or map: each could be a node's self.
func eachDeclType(t *apiservercel.DeclType, path string, fn func(path string, t *apiservercel.DeclType)) {
	if t == nil || (!t.IsObject() && !t.IsList() && !t.IsMap()) {
		return
	}
	fn(path, t)
	for _, f := range slices.Sorted(maps.Keys(t.Fields)) {
		eachDeclType(t.Fields[f].Type, path+"."+f, fn)
	}
	eachDeclType(t.ElemType, path+"[]", fn)
}

// TestSelfTypesAsApiserver holds selfTypes to the apiserver's provider for
// self types the corpus may lack: lists and maps of objects (registered
// under paths from "list" and "map"), lists of lists, keyword fields,
// scalars.
func TestSelfTypesAsApiserver(t *testing.T) {
	str := &schema.Props{Type: "string"}
	obj := func(props map[string]*schema.Props) *schema.Props {
		return &schema.Props{Type: "object", Properties: props}
	}
	list := func(items *schema.Props) *schema.Props {
		return &schema.Props{Type: "array", Items: &schema.PropsOrArray{Schema: items}}
	}
	mapOf := func(v *schema.Props) *schema.Props {
		return &schema.Props{Type: "object", AdditionalProperties: &schema.PropsOrBool{Allows: true, Schema: v}}
	}
	inner := obj(map[string]*schema.Props{"in": str, "namespace": str, "a-b": str, "tags": list(str), "sub": list(obj(map[string]*schema.Props{"x": str}))})
	for i, p := range []*schema.Props{
		list(inner), mapOf(inner), list(list(inner)), mapOf(list(inner)), list(mapOf(inner)),
		inner, list(str), mapOf(str), str, obj(map[string]*schema.Props{"m": mapOf(inner), "l": list(list(str))}),
	} {
		s, err := structural.New(p)
		if err != nil {
			t.Fatal(err)
		}
		decl := common.SchemaDeclType(newAdapter(s), false)
		if decl == nil {
			t.Fatalf("%d: no CEL type", i)
		}
		eachDeclType(decl, fmt.Sprint(i), func(path string, d *apiservercel.DeclType) { compareSelfTypes(t, path, d) })
	}
}

// nodeEnv is the environment the apiserver gives a node whose self has the
// CEL type decl: its own, self named name.
func nodeEnv(t *testing.T, kind envKind, decl *apiservercel.DeclType, name string, optional bool) *celgo.Env {
	t.Helper()
	base, err := baseEnv(kind)
	if err != nil {
		t.Fatal(err)
	}
	p, self := apiserverTypes(t, kind, decl, name)
	oldSelf := self
	if optional {
		oldSelf = types.NewOptionalType(oldSelf)
	}
	opts := []celgo.EnvOption{celgo.Variable(scopedVar, self), celgo.Variable(oldScopedVar, oldSelf), celgo.CustomTypeProvider(p), celgo.CustomTypeAdapter(p)}
	e, err := base.Extend(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// envCompile is what compiling one expression gives that a rule's errors
// and costs are made of: issues, output type, estimated cost, with the
// generated type names made equal; and the checked expression (nil when
// it did not compile).
func envCompile(e *celgo.Env, text string, decl *apiservercel.DeclType) (string, *celgo.Ast) {
	ast, iss := e.Compile(text)
	if iss.Err() != nil {
		return selfTypeName.ReplaceAllString("issues: "+iss.String(), "selfType"), nil
	}
	est, err := e.EstimateCost(ast, &library.CostEstimator{SizeEstimator: &sizeEstimator{root: decl}})
	return selfTypeName.ReplaceAllString(fmt.Sprintf("%v cost %d..%d %v", ast.OutputType(), est.Min, est.Max, err), "selfType"), ast
}

// envPlan is what making the program of a checked expression in e gives,
// as programs.make makes it: whether it could be made.
func envPlan(e *celgo.Env, ast *celgo.Ast, decl *apiservercel.DeclType) string {
	if ast == nil {
		return "not compiled"
	}
	_, err := e.Program(ast, programOptions(&library.CostEstimator{SizeEstimator: &sizeEstimator{root: decl}})...)
	return selfTypeName.ReplaceAllString(fmt.Sprint("program: ", err), "selfType")
}

// envJob is one expression compiled for a node whose self has the CEL
// type decl, and want what it compiles to in the node's own environment.
type envJob struct {
	where    string
	kind     envKind
	decl     *apiservercel.DeclType
	optional bool
	text     string
	want     string
	// wantPlan is envPlan in the node's own environment.
	wantPlan string
}

// corpusEnvJobs are the rules and messageExpressions of every node with
// rules of the corpus, in the environment of new expressions, and in that
// of stored ones with optionalOldSelf.
func corpusEnvJobs(t *testing.T) []envJob {
	var jobs []envJob
	eachCorpusVersion(t, func(version string, s *structural.Schema) {
		decl := common.SchemaDeclType(newAdapter(s), true)
		eachRuleSelf(s, decl, version, true, func(path string, s *structural.Schema, d *apiservercel.DeclType) {
			if p := sourceOf(s); p != nil && len(p.XValidations) > 0 {
				jobs = append(jobs, nodeEnvJobs(t, path, d, p.XValidations, newExpressions, false)...)
				jobs = append(jobs, nodeEnvJobs(t, path, d, p.XValidations, storedExpressions, true)...)
			}
		})
	})
	return jobs
}

// nodeEnvJobs are the rules and messageExpressions of rules on a node whose
// self has the CEL type d, in the environment of a kind.
func nodeEnvJobs(t *testing.T, where string, d *apiservercel.DeclType, rules []schema.ValidationRule, kind envKind, optional bool) []envJob {
	own := nodeEnv(t, kind, d, "selfType1", optional)
	var jobs []envJob
	for _, r := range rules {
		for _, text := range []string{r.Rule, r.MessageExpression} {
			if text != "" {
				want, ast := envCompile(own, text, d)
				jobs = append(jobs, envJob{where, kind, d, optional, text, want, envPlan(own, ast, d)})
			}
		}
	}
	return jobs
}

// TestSharedEnvsCheckAsNodeEnvs compiles corpusEnvJobs in the environments
// nodes of a shape share, from four goroutines at once, and in an
// environment of the node's own as the apiserver builds it: issues, output
// types and estimated costs are the same (up to the generated names). Each
// program is made after the check, outside the environment's lock, as
// programs.make makes it, while the other goroutines check other nodes in
// the environment (the planner asks its provider, whose current node is
// then another's or none): it is made where the node's own environment
// makes it.
func TestSharedEnvsCheckAsNodeEnvs(t *testing.T) {
	jobs := corpusEnvJobs(t)
	if len(jobs) == 0 {
		t.Fatal("no rules")
	}
	got := make([]string, len(jobs))
	plans := make([]string, len(jobs))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(jobs); i += 4 {
				j := jobs[i]
				var env *celgo.Env
				var ast *celgo.Ast
				if err := inEnv(j.kind, j.decl, shapeOf(j.decl), j.optional, j.text, func(e *celgo.Env) { env = e; got[i], ast = envCompile(e, j.text, j.decl) }); err != nil {
					got[i] = err.Error()
					continue
				}
				plans[i] = envPlan(env, ast, j.decl)
			}
		})
	}
	wg.Wait()
	for i, j := range jobs {
		if got[i] != j.want {
			t.Errorf("%s %q (kind %d, optional %v): shared %s; own %s", j.where, j.text, j.kind, j.optional, got[i], j.want)
		}
		if plans[i] != j.wantPlan {
			t.Errorf("%s %q (kind %d, optional %v): shared env's %s; own env's %s", j.where, j.text, j.kind, j.optional, plans[i], j.wantPlan)
		}
	}
	t.Logf("%d compiles", len(jobs))
}

// TestSharedEnvNameUnreferable: an expression naming self's type by the
// name a shared environment generated (as an earlier message of the
// process shows it) does not check, as in the apiserver, where the name is
// generated again for each compilation: an undeclared reference.
func TestSharedEnvNameUnreferable(t *testing.T) {
	s, err := structural.New(&schema.Props{Type: "object", Properties: map[string]*schema.Props{"a": {Type: "string"}}})
	if err != nil {
		t.Fatal(err)
	}
	decl := common.SchemaDeclType(newAdapter(s), false)
	n := &nodeExprs{envs: nodeEnvs{declType: decl}}
	c, err := n.compile(newExpressions, false, "self + 1")
	if err != nil || c.iss == nil {
		t.Fatalf("self + 1: %v, %v", err, c)
	}
	name := selfTypeName.FindString(c.iss.String())
	if name == "" {
		t.Fatalf("no generated name in %s", c.iss)
	}
	own := nodeEnv(t, newExpressions, decl, "selfType1", false)
	for _, text := range []string{"type(self) == " + name, name + "{a: 'x'} == self"} {
		_, want := own.Compile(text)
		if want.Err() == nil {
			t.Fatalf("%s checks in the node's own environment", text)
		}
		c, err := n.compile(newExpressions, false, text)
		if err != nil {
			t.Fatal(err)
		}
		if c.iss == nil || c.iss.String() != want.String() {
			t.Errorf("%s: issues %v; the apiserver's %v", text, c.iss, want)
		}
	}
}

// TestEnvShapesBounded: past maxKeptShapes a new shape's environment is
// built for its check and not kept; the check's result is the same.
func TestEnvShapesBounded(t *testing.T) {
	// Lists of lists 9 deep: a shape no other test uses.
	p := &schema.Props{Type: "integer"}
	for range 9 {
		p = &schema.Props{Type: "array", Items: &schema.PropsOrArray{Schema: p}}
	}
	s, err := structural.New(p)
	if err != nil {
		t.Fatal(err)
	}
	decl := common.SchemaDeclType(newAdapter(s), false)
	// A run before this one (-count) kept the shape: start without it.
	if _, kept := checkEnvs.LoadAndDelete(envKey{newExpressions, shapeOf(decl), false}); kept {
		keptShapes.Add(-1)
	}
	shapes := func() (n int) {
		checkEnvs.Range(func(any, any) bool { n++; return true })
		return n
	}
	compile := func() {
		t.Helper()
		n := &nodeExprs{envs: nodeEnvs{declType: decl}}
		c, err := n.compile(newExpressions, false, "size(self) >= 0 && self.all(x, size(x) >= 0)")
		if err != nil || c.iss != nil {
			t.Fatalf("compile: %v, %v", err, c.iss)
		}
	}
	saved := maxKeptShapes
	defer func() { maxKeptShapes = saved }()
	maxKeptShapes = keptShapes.Load()
	before := shapes()
	compile()
	if got := shapes(); got != before {
		t.Errorf("at the bound, a new shape was kept: %d shapes, %d before", got, before)
	}
	maxKeptShapes = saved
	compile()
	if got := shapes(); got != before+1 {
		t.Errorf("below the bound, %d shapes kept; want %d", got, before+1)
	}
}
