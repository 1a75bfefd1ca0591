package cel

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/library"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// The variables a rule sees: the node's value, and its old value on
// update.
const (
	scopedVar    = "self"
	oldScopedVar = "oldSelf"
)

// compiled is what compiling one rule gives, as the apiserver keeps it.
type compiled struct {
	// programs makes the programs of the rule and of its
	// messageExpression when first asked for; nil for an empty rule or an
	// error. A check never asks: only evaluation needs programs.
	programs *programs
	// err is the rule's compile error.
	err *apiservercel.Error
	// ok is true when the rule compiled.
	ok          bool
	usesOldSelf bool
	// maxCost is the estimated worst-case cost of one evaluation, and
	// maxCardinality how often the node can occur in a request.
	maxCost, maxCardinality uint64

	msgErr     *apiservercel.Error
	msgOK      bool
	msgMaxCost uint64
	// fieldPath is the rule's fieldPath relative to the node, normalised.
	fieldPath string
}

// compileOptions say how rules are compiled.
type compileOptions struct {
	kind envKind
	// stored, when set, holds expressions that compile in the stored
	// expressions' environment whatever kind says (a CRD update's
	// expressions that the stored CRD already had).
	stored *StoredExpressions
	// exprs, when set, holds the expressions parsed and checked before
	// for the same CRD (see exprCache).
	exprs *exprCache
}

// programs are the programs of one compiled rule and of its
// messageExpression, made from the checked expressions on first need
// (make), once, and then shared by every validator using the rule.
type programs struct {
	once sync.Once
	// env and ast are the rule's environment and checked expression;
	// msgEnv and msgAst its messageExpression's (nil without one).
	env, msgEnv *celgo.Env
	ast, msgAst *celgo.Ast
	estimator   *library.CostEstimator

	rule, msg celgo.Program
	// err is the error of making the rule's program; msgFailed says
	// that the messageExpression's could not be made.
	err       *apiservercel.Error
	msgFailed bool
}

// make makes the programs once, as the apiserver's runtime compilation
// does for a rule it could compile: a rule whose program cannot be made
// gets err (program instantiation failed), a messageExpression whose
// program cannot be made leaves msg nil.
func (p *programs) make() *programs {
	p.once.Do(func() {
		prog, err := p.env.Program(p.ast, programOptions(p.estimator)...)
		if err != nil {
			p.err = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "program instantiation failed: " + err.Error()}
			return
		}
		p.rule = prog
		if p.msgAst != nil {
			if p.msg, err = p.msgEnv.Program(p.msgAst, programOptions(p.estimator)...); err != nil {
				p.msg, p.msgFailed = nil, true
			}
		}
		// The checked expressions are not needed any more.
		p.env, p.msgEnv, p.ast, p.msgAst = nil, nil, nil, nil
	})
	return p
}

// programOptions are the options the runtime makes a rule's program with.
func programOptions(estimator *library.CostEstimator) []celgo.ProgramOption {
	return []celgo.ProgramOption{celgo.CostLimit(celconfig.PerCallLimit), celgo.CostTracking(estimator),
		celgo.InterruptCheckFrequency(celconfig.CheckFrequency)}
}

var errNoDeclType = errors.New("failed to convert to declType for CEL validation rules")

// compileRules compiles a node's rules with self typed as declType. s is
// the node (field paths are resolved in it).
func compileRules(s *structural.Schema, rules []schema.ValidationRule, declType *apiservercel.DeclType, opts compileOptions) ([]compiled, error) {
	if len(rules) == 0 {
		return nil, nil
	}
	if declType == nil {
		return nil, errNoDeclType
	}
	n := &nodeExprs{envs: envsByKind{declType: declType}, cache: opts.exprs}
	estimator := &library.CostEstimator{SizeEstimator: &sizeEstimator{root: declType}}
	card := maxCardinality(declType.MinSerializedSize)
	out := make([]compiled, len(rules))
	for i := range rules {
		r := &rules[i]
		n.optional = r.OptionalOldSelf != nil && *r.OptionalOldSelf
		c, err := compileRule(s, r, n, estimator, card, opts)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// kindOf is the kind of environment an expression compiles in: the stored
// expressions' when the expression was stored before.
func (o compileOptions) kindOf(expr string, message bool) envKind {
	if o.stored.has(expr, message) {
		return storedExpressions
	}
	return o.kind
}

// envsByKind builds a node's environments of each kind on first need.
type envsByKind struct {
	declType *apiservercel.DeclType
	envs     [2]*selfEnvs
}

// env returns the environment of a kind, for optionalOldSelf rules or
// not.
func (e *envsByKind) env(kind envKind, optional bool) (*celgo.Env, error) {
	if e.envs[kind] == nil {
		envs, err := newSelfEnvs(kind, e.declType)
		if err != nil {
			return nil, err
		}
		e.envs[kind] = envs
	}
	if optional {
		return e.envs[kind].optionalEnv()
	}
	return e.envs[kind].plain, nil
}

// nodeExprs compiles the expressions of one node's rules: in the node's
// environments, built on first need, or taken from cache (when not nil)
// when compiled before for a self of the same CEL type.
type nodeExprs struct {
	envs  envsByKind
	cache *exprCache
	// optional says whether the rule being compiled has optionalOldSelf.
	optional bool
}

// compile compiles an expression in the environment of a kind.
func (n *nodeExprs) compile(kind envKind, text string) (*checkedExpr, error) {
	env := func() (*celgo.Env, error) { return n.envs.env(kind, n.optional) }
	if n.cache != nil {
		return n.cache.compile(kind, text, n.envs.declType, n.optional, env)
	}
	e, err := env()
	if err != nil {
		return nil, err
	}
	ast, iss := e.Compile(text)
	return &checkedExpr{env: e, ast: ast, iss: iss}, nil
}

// compileRule compiles one rule of the node s and its messageExpression;
// err is an error building an environment, which fails the node's rules
// together.
func compileRule(s *structural.Schema, r *schema.ValidationRule, n *nodeExprs, estimator *library.CostEstimator, card uint64, opts compileOptions) (c compiled, err error) {
	if strings.TrimSpace(r.Rule) == "" {
		return c, n.emptyRule(r, opts)
	}
	rule, err := n.compile(opts.kindOf(r.Rule, false), r.Rule)
	if err != nil {
		return c, err
	}
	if rule.iss != nil {
		c.err = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "compilation failed: " + rule.iss.String()}
		return c, nil
	}
	env, ast := rule.env, rule.ast
	if ast.OutputType() != celgo.BoolType {
		c.err = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "cel expression must evaluate to a bool"}
		return c, nil
	}
	for _, ref := range ast.NativeRep().ReferenceMap() {
		if ref.Name == oldScopedVar {
			c.usesOldSelf = true
			break
		}
	}
	est, err := env.EstimateCost(ast, estimator)
	if err != nil {
		c.err = &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: "cost estimation failed: " + err.Error()}
		return c, nil
	}
	c.ok = true
	c.maxCost, c.maxCardinality = est.Max, card
	c.programs = &programs{env: env, ast: ast, estimator: estimator}
	if r.MessageExpression != "" {
		msg, err := n.compile(opts.kindOf(r.MessageExpression, true), r.MessageExpression)
		if err != nil {
			return c, err
		}
		if c.compileMessage(msg, estimator); c.msgErr != nil {
			return c, nil
		}
	}
	if r.FieldPath != "" {
		if p, _, err := ResolveFieldPath(s, r.FieldPath, true); err == nil {
			c.fieldPath = p.String()
		}
	}
	return c, nil
}

// emptyRule builds the environments an empty rule and its
// messageExpression would compile in (their errors are the node's), and
// compiles nothing.
func (n *nodeExprs) emptyRule(r *schema.ValidationRule, opts compileOptions) error {
	if _, err := n.envs.env(opts.kindOf(r.Rule, false), n.optional); err != nil {
		return err
	}
	if r.MessageExpression != "" {
		_, err := n.envs.env(opts.kindOf(r.MessageExpression, true), n.optional)
		return err
	}
	return nil
}

func (c *compiled) compileMessage(msg *checkedExpr, estimator *library.CostEstimator) {
	if msg.iss != nil {
		c.msgErr = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "messageExpression compilation failed: " + msg.iss.String()}
		return
	}
	env, ast := msg.env, msg.ast
	if ast.OutputType() != celgo.StringType {
		c.msgErr = &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid, Detail: "messageExpression must evaluate to a string"}
		return
	}
	est, err := env.EstimateCost(ast, estimator)
	if err != nil {
		c.msgErr = &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: "cost estimation failed for messageExpression: " + err.Error()}
		return
	}
	c.msgOK = true
	c.msgMaxCost = est.Max
	c.programs.msgEnv, c.programs.msgAst = env, ast
}

// newSelfEnvs prepares the environments of a node whose value has type
// declType. The node's object type gets a name of the apiserver's form,
// which changes with every compilation so that no rule can depend on it.
func newSelfEnvs(kind envKind, declType *apiservercel.DeclType) (*selfEnvs, error) {
	if registersNoTypes(declType) {
		// Its environments depend on the CEL type alone and are shared by
		// every such node of that type.
		key := scalarKey{kind, declType.CelType().String()}
		if e, ok := scalarEnvs.Load(key); ok {
			return e.(*selfEnvs), nil
		}
		e, err := buildSelfEnvs(kind, declType)
		if err != nil {
			return nil, err
		}
		e2, _ := scalarEnvs.LoadOrStore(key, e)
		return e2.(*selfEnvs), nil
	}
	return buildSelfEnvs(kind, declType)
}

// registersNoTypes reports whether a node of type t registers no types of
// its own with the environment: a scalar, or a list or map of scalars (the
// types a list or map registers under the node's generated name are
// never named by a rule). Such types are few (the scalar types, and lists
// and maps of them), so sharing their environments keeps a bounded set.
// 50 of the 437 list, map and object nodes with rules of the corpus are
// lists or maps of scalars.
func registersNoTypes(t *apiservercel.DeclType) bool {
	scalar := func(t *apiservercel.DeclType) bool { return !t.IsObject() && !t.IsMap() && !t.IsList() }
	return scalar(t) || ((t.IsList() || t.IsMap()) && scalar(t.ElemType))
}

// scalarKey identifies the shared environments of nodes that register no
// types.
type scalarKey struct {
	kind envKind
	typ  string
}

var scalarEnvs sync.Map // scalarKey → *selfEnvs

func buildSelfEnvs(kind envKind, declType *apiservercel.DeclType) (*selfEnvs, error) {
	p, err := nodeTypes(kind, declType, fmt.Sprintf("selfType%d", time.Now().Nanosecond()))
	if err != nil {
		return nil, err
	}
	plain, err := extendEnv(kind, p, p.self)
	if err != nil {
		return nil, err
	}
	return &selfEnvs{kind: kind, types: p, plain: plain}, nil
}

// optionalEnv is the environment of optionalOldSelf rules, built on first
// need.
func (e *selfEnvs) optionalEnv() (*celgo.Env, error) {
	e.optOnce.Do(func() {
		e.optional, e.optErr = extendEnv(e.kind, e.types, types.NewOptionalType(e.types.self))
	})
	return e.optional, e.optErr
}

// sizeEstimator gives the cost estimator the maximum sizes the schema
// allows, following an expression's path from self.
type sizeEstimator struct {
	root *apiservercel.DeclType
}

func (e *sizeEstimator) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	path := element.Path()
	if len(path) == 0 {
		return nil
	}
	cur := e.root
	for _, name := range path[1:] {
		switch name {
		case "@items", "@values":
			if cur.ElemType == nil {
				return nil
			}
			cur = cur.ElemType
		case "@keys":
			if cur.KeyType == nil {
				return nil
			}
			cur = cur.KeyType
		default:
			f, ok := cur.Fields[name]
			if !ok || f.Type == nil {
				return nil
			}
			cur = f.Type
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(cur.MaxElements)}
}

func (e *sizeEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}

// maxCardinality is how many times a value of at least minSize bytes can
// occur in a request of the largest size, one separator between values.
func maxCardinality(minSize int64) uint64 {
	return uint64(celconfig.MaxRequestSizeBytes / (minSize + 1))
}
