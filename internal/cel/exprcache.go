package cel

import (
	"sync"

	celgo "github.com/google/cel-go/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// exprCache holds, for one CompileCache (one CRD's schemas), each
// expression parsed once and each expression checked once per CEL type of
// self: the versions of a CRD, and the fields of one CRD, repeat rules on
// nodes whose structural schemas differ (a description, a maxLength, a
// default) but whose CEL types are the same. Of the corpus's 1,080 parses,
// 138 repeat an expression parsed for the same CRD, and 105 checks repeat
// a check of the same expression on the same CEL type. It lives until its
// CompileCache forgets it (a CRD's check does once done): a webhook's CRDs
// do not share it (a cache across CRDs would grow with every CRD a process
// sees).
//
// A checked expression is the same for every self of the same CEL type
// (its field names and types, not the sizes a schema allows: those only
// change estimated costs, which each node estimates again with its own
// sizes) in the same environment kind; its types carry the name of self's
// type in the environment the node first checked was checked in, which
// is generated anyway.
type exprCache struct {
	parsed map[parseKey]*parsedExpr
}

func newExprCache() *exprCache {
	return &exprCache{parsed: map[parseKey]*parsedExpr{}}
}

// parseKey identifies a parsed expression: every environment of a kind
// parses with the same parser (a checkEnv only adds variables and types to
// its kind's base environment).
type parseKey struct {
	kind envKind
	text string
}

type parsedExpr struct {
	ast *celgo.Ast
	iss *celgo.Issues
	// checked are the expression's checks, by self's CEL type and
	// optionalOldSelf.
	checked []*checkedExpr
}

// checkedExpr is an expression compiled (parsed and checked) in env: ast
// when it compiled, else the issues of its parse or check.
type checkedExpr struct {
	// self is the CEL type of self it was checked for, and optional
	// whether oldSelf was optional.
	self     *apiservercel.DeclType
	optional bool
	env      *celgo.Env
	ast      *celgo.Ast
	iss      *celgo.Issues
	// size is self's, found when a compile first needs it (zero until
	// then; see subtreeSize).
	size subtreeSize
}

// compile compiles text in the environment of a kind for a node whose self
// has the CEL type self (optionalOldSelf or not): from the cache when the
// same text was compiled for an equal type before. in calls its argument
// with the node's environment; compile calls it only when the expression
// must be checked.
func (c *exprCache) compile(kind envKind, text string, self *apiservercel.DeclType, optional bool, in func(func(*celgo.Env)) error) (*checkedExpr, error) {
	k := parseKey{kind, text}
	p := c.parsed[k]
	if p != nil {
		var size subtreeSize
		for _, e := range p.checked {
			if e.optional != optional {
				continue
			}
			if len(p.checked) > 1 {
				// Several to choose from: compare only types of self's
				// size, as CompileCache.lookup compares schemas.
				if size == (subtreeSize{}) {
					size = declTypeSize(self)
				}
				if e.size == (subtreeSize{}) {
					e.size = declTypeSize(e.self)
				}
				if e.size != size {
					continue
				}
			}
			if equalCELTypes(e.self, self) {
				return e, nil
			}
		}
	}
	var checked *checkedExpr
	err := in(func(e *celgo.Env) {
		if p == nil {
			ast, iss := e.Parse(text)
			p = &parsedExpr{ast: ast, iss: iss}
			c.parsed[k] = p
		}
		checked = &checkedExpr{self: self, optional: optional, env: e, iss: p.iss}
		if p.iss == nil {
			// The checker rewrites the expression it checks (resolving
			// names, dropping unused positions): it checks a copy.
			checked.ast, checked.iss = e.Check(copyAST(e, p.ast))
		}
	})
	if err != nil {
		return nil, err
	}
	p.checked = append(p.checked, checked)
	return checked, nil
}

// astCopier copies ASTs: a static optimizer with no optimizations returns
// a deep copy of the expression and its source information.
var astCopier = sync.OnceValues(func() (*celgo.StaticOptimizer, error) { return celgo.NewStaticOptimizer() })

// copyAST is a deep copy of a parsed expression, for the checker to
// rewrite. Should the copy ever fail (no optimization runs, so it
// reports nothing), the expression is parsed again.
func copyAST(env *celgo.Env, a *celgo.Ast) *celgo.Ast {
	if o, err := astCopier(); err == nil {
		if c, iss := o.Optimize(env, a); iss.Err() == nil {
			return c
		}
	}
	c, _ := env.Parse(a.Source().Content())
	return c
}

// subtreeSize is the number of types and the height of a CEL type: equal
// types have equal sizes. A compile with several checks of an expression
// to choose from compares self's type only with the types of its size: on
// a chain of nodes with the same rules, alike but for their depth, every
// compare walked down to the chain's end, which made a check cubic in the
// depth (6.3 s at depth 400, where the apiserver takes 0.6 s).
type subtreeSize struct{ nodes, height int }

// declTypeSize returns the number of types and the height of a CEL type
// (its fields, elements and keys): types equal by equalCELTypes have
// equal sizes. Zero for nil.
func declTypeSize(t *apiservercel.DeclType) subtreeSize {
	if t == nil {
		return subtreeSize{}
	}
	z := subtreeSize{nodes: 1}
	add := func(c *apiservercel.DeclType) {
		if c != nil {
			cz := declTypeSize(c)
			z.nodes += cz.nodes
			z.height = max(z.height, cz.height+1)
		}
	}
	switch {
	case t.IsObject():
		for _, f := range t.Fields {
			if f != nil {
				add(f.Type)
			}
		}
	case t.IsList():
		add(t.ElemType)
	case t.IsMap():
		add(t.KeyType)
		add(t.ElemType)
	}
	return z
}

// equalCELTypes reports whether a and b are the same CEL type as a checker
// sees it: the same kinds and names, the same fields of equal types, equal
// element and key types. The sizes a schema allows are not compared.
func equalCELTypes(a, b *apiservercel.DeclType) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.IsObject() != b.IsObject() || a.IsList() != b.IsList() || a.IsMap() != b.IsMap() {
		return false
	}
	switch {
	case a.IsObject():
		if a.TypeName() != b.TypeName() || len(a.Fields) != len(b.Fields) {
			return false
		}
		for name, fa := range a.Fields {
			fb, ok := b.Fields[name]
			if !ok || (fa == nil) != (fb == nil) || (fa != nil && !equalCELTypes(fa.Type, fb.Type)) {
				return false
			}
		}
		return true
	case a.IsList():
		return equalCELTypes(a.ElemType, b.ElemType)
	case a.IsMap():
		return equalCELTypes(a.KeyType, b.KeyType) && equalCELTypes(a.ElemType, b.ElemType)
	}
	return a.CelType().IsExactType(b.CelType())
}
