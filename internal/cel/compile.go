package cel

import (
	"errors"
	"strings"
	"sync"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
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
	n := &nodeExprs{envs: nodeEnvs{declType: declType}, cache: opts.exprs}
	estimator := &library.CostEstimator{SizeEstimator: &sizeEstimator{root: declType}}
	card := maxCardinality(declType.MinSerializedSize)
	out := make([]compiled, len(rules))
	for i := range rules {
		r := &rules[i]
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

// nodeEnvs are the environments a node's expressions compile in, shared
// with the nodes of the same shape (see checkEnv).
type nodeEnvs struct {
	declType *apiservercel.DeclType
	// shape is declType's, once known.
	shape string
}

// in calls f with an environment of a kind, for optionalOldSelf rules or
// not, in which text checks as in the node's own.
func (e *nodeEnvs) in(kind envKind, optional bool, text string, f func(*celgo.Env)) error {
	if e.shape == "" {
		e.shape = shapeOf(e.declType)
	}
	return inEnv(kind, e.declType, e.shape, optional, text, f)
}

// nodeExprs compiles the expressions of one node's rules: in the node's
// environments, or taken from cache (when not nil) when compiled before
// for a self of the same CEL type.
type nodeExprs struct {
	envs  nodeEnvs
	cache *exprCache
}

// compile compiles an expression in the environment of a kind, of a rule
// with optionalOldSelf or not.
func (n *nodeExprs) compile(kind envKind, optional bool, text string) (*checkedExpr, error) {
	in := func(f func(*celgo.Env)) error { return n.envs.in(kind, optional, text, f) }
	if n.cache != nil {
		return n.cache.compile(kind, text, n.envs.declType, optional, in)
	}
	c := &checkedExpr{}
	if err := in(func(e *celgo.Env) { c.env = e; c.ast, c.iss = e.Compile(text) }); err != nil {
		return nil, err
	}
	return c, nil
}

// compileRule compiles one rule of the node s and its messageExpression;
// err is an error building an environment, which fails the node's rules
// together.
func compileRule(s *structural.Schema, r *schema.ValidationRule, n *nodeExprs, estimator *library.CostEstimator, card uint64, opts compileOptions) (c compiled, err error) {
	optional := r.OptionalOldSelf != nil && *r.OptionalOldSelf
	if strings.TrimSpace(r.Rule) == "" {
		return c, n.emptyRule(r, optional, opts)
	}
	rule, err := n.compile(opts.kindOf(r.Rule, false), optional, r.Rule)
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
		msg, err := n.compile(opts.kindOf(r.MessageExpression, true), optional, r.MessageExpression)
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
func (n *nodeExprs) emptyRule(r *schema.ValidationRule, optional bool, opts compileOptions) error {
	if err := n.envs.in(opts.kindOf(r.Rule, false), optional, "", func(*celgo.Env) {}); err != nil {
		return err
	}
	if r.MessageExpression != "" {
		return n.envs.in(opts.kindOf(r.MessageExpression, true), optional, "", func(*celgo.Env) {})
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
