package cel

import (
	"fmt"
	"testing"

	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"

	celgo "github.com/google/cel-go/cel"

	"github.com/crdschema/crdschema/schema"
)

// TestExprCacheCompilesAsWithout compiles the same rules on nodes of
// equal and of different CEL types, with one exprCache and without, and
// checks that every result is the same (up to the generated selfType
// names), that each expression is parsed once and checked once per CEL
// type, and that costs still follow each node's sizes.
func TestExprCacheCompilesAsWithout(t *testing.T) {
	nodes := []string{
		`{"type":"string","maxLength":10}`,
		`{"type":"string","maxLength":1000}`, // equal CEL type, other sizes
		`{"type":"string"}`,
		`{"type":"integer"}`, // "self.contains('ab')" does not compile
		`{"type":"object","properties":{"a":{"type":"string","maxLength":5},"b":{"type":"array","items":{"type":"string"}}}}`,
		`{"type":"object","properties":{"a":{"type":"string","maxLength":50},"b":{"type":"array","maxItems":3,"items":{"type":"string"}}}}`,
		`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"array","items":{"type":"string"}}}}`,
		`{"type":"object","properties":{"a":{"type":"string"},"c":{"type":"array","items":{"type":"string"}}}}`,
	}
	yes := true
	rules := []schema.ValidationRule{
		{Rule: "self.contains('ab')"},
		{Rule: "self == oldSelf", MessageExpression: "'was ' + string(oldSelf)"},
		{Rule: "self == oldSelf", OptionalOldSelf: &yes},
		{Rule: "self.a.startsWith('x') && self.b.all(e, e.matches('^[a-z]+$'))", MessageExpression: "self.a + ' is wrong'"},
		{Rule: "self.a.size() +"},
		{Rule: "has(self.c) || self.b.size() > 1", FieldPath: ".b"},
	}
	cache := newExprCache()
	for i, js := range nodes {
		s := mustSchema(t, js)
		decl := common.SchemaDeclType(newAdapter(s), false)
		with, err := compileRules(s, rules, decl, compileOptions{kind: newExpressions, exprs: cache})
		if err != nil {
			t.Fatal(err)
		}
		without, err := compileRules(s, rules, decl, compileOptions{kind: newExpressions})
		if err != nil {
			t.Fatal(err)
		}
		for j := range rules {
			if got, want := describeCompiled(&with[j]), describeCompiled(&without[j]); got != want {
				t.Errorf("node %d, rule %q:\nwith the cache    %s\nwithout the cache %s", i, rules[j].Rule, got, want)
			}
		}
	}
	// Costs follow each node's sizes, also when the check was shared.
	short, long := mustSchema(t, nodes[0]), mustSchema(t, nodes[1])
	a, _ := compileRules(short, rules[:1], common.SchemaDeclType(newAdapter(short), false), compileOptions{kind: newExpressions, exprs: cache})
	b, _ := compileRules(long, rules[:1], common.SchemaDeclType(newAdapter(long), false), compileOptions{kind: newExpressions, exprs: cache})
	if a[0].maxCost >= b[0].maxCost {
		t.Errorf("maxLength 10 costs %d, maxLength 1000 %d", a[0].maxCost, b[0].maxCost)
	}
	// Each text is parsed once; the checks are one per distinct CEL type
	// (the strings, the integer, and three object types) and
	// optionalOldSelf.
	texts, checks := 0, 0
	for _, p := range cache.parsed {
		texts++
		checks += len(p.checked)
	}
	if want := 7; texts != want { // six rules, five distinct, and two messages
		t.Errorf("%d expressions parsed, want %d", texts, want)
	}
	if compiles := 8 * 8; checks >= compiles || checks == 0 {
		t.Errorf("%d checks for %d compiles: nothing shared", checks, compiles)
	}
	t.Logf("%d texts, %d checks for %d compiles", texts, checks, 8*8)
}

// describeCompiled is what a compiled rule gives a check and a validator,
// with the generated selfType names made equal.
func describeCompiled(c *compiled) string {
	d := func(e *apiservercel.Error) string {
		if e == nil {
			return "-"
		}
		return fmt.Sprintf("%s: %s", e.Type, selfTypeName.ReplaceAllString(e.Detail, "selfType"))
	}
	s := fmt.Sprintf("ok=%v oldSelf=%v cost=%d card=%d msgOK=%v msgCost=%d path=%q err=%s msgErr=%s",
		c.ok, c.usesOldSelf, c.maxCost, c.maxCardinality, c.msgOK, c.msgMaxCost, c.fieldPath, d(c.err), d(c.msgErr))
	if c.programs != nil {
		s += fmt.Sprintf(" program=%v message=%v", c.programs.ast != nil, c.programs.msgAst != nil)
	}
	return s
}

// TestExprCacheKeepsParsed checks that checking an expression taken from
// the cache leaves the parsed expression as parsed: the checker rewrites
// what it checks (here the namespaced function strings.quote, parsed as a
// call on the identifier strings, becomes a global call and the
// identifier's position is dropped).
func TestExprCacheKeepsParsed(t *testing.T) {
	const rule = "strings.quote(self) != ''"
	cache := newExprCache()
	parsed := func() string {
		p := cache.parsed[parseKey{newExpressions, rule}]
		if p == nil || p.ast == nil {
			t.Fatal("not parsed")
		}
		pe, err := celgo.AstToParsedExpr(p.ast)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(pe)
	}
	var before string
	for i, js := range []string{`{"type":"string"}`, `{"type":"string","maxLength":3}`, `{"type":"integer"}`} {
		s := mustSchema(t, js)
		if _, err := compileRules(s, []schema.ValidationRule{{Rule: rule}}, common.SchemaDeclType(newAdapter(s), false), compileOptions{kind: newExpressions, exprs: cache}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			before = parsed()
			fresh, iss := mustBaseEnv(t).Parse(rule)
			if iss.Err() != nil {
				t.Fatal(iss.Err())
			}
			pe, _ := celgo.AstToParsedExpr(fresh)
			if got := fmt.Sprint(pe); got != before {
				t.Fatalf("the cached parse changed when checked:\n%s\nparsed:\n%s", before, got)
			}
		} else if got := parsed(); got != before {
			t.Fatalf("the cached parse changed when checked again:\n%s\nwas:\n%s", got, before)
		}
	}
}

func mustBaseEnv(t *testing.T) *celgo.Env {
	t.Helper()
	e, err := baseEnv(newExpressions)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
