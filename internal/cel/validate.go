package cel

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"
)

// The runtime limits of rule evaluation: the cost of one evaluation and of
// all the rules evaluated for one object.
const (
	PerCallLimit         = celconfig.PerCallLimit
	RuntimeCostBudget    = celconfig.RuntimeCELCostBudget
	maxMessageExprLength = celconfig.MaxEvaluatedMessageExpressionSizeBytes
)

// Validator evaluates the x-kubernetes-validations rules of a structural
// schema on objects, as the apiserver's CEL validator does. Its rules are
// compiled once, with the environment the apiserver uses for stored
// expressions, each node's when a value first reaches the node (see
// NewValidator); a Validator is safe for concurrent use, and evaluates
// the same whichever nodes were compiled before.
type Validator struct {
	root    *vnode
	adapter *adapter
}

// vnode is the validator of one schema node: its compiled rules and the
// validators of the children that have rules at or below them. A node is
// made with what it is built from (lazy); its rules are compiled and its
// children made when a value first reaches it (built), once, whatever the
// number of concurrent evaluations.
type vnode struct {
	s              *structural.Schema
	adapter        *adapter
	rules          []schema.ValidationRule
	isResourceRoot bool

	// lazy builds the fields below on first use. Read them only after
	// calling built.
	lazy *lazyNode

	results []compiled
	// compileErr is a failure to compile the node's rules at all.
	compileErr  error
	usesOldSelf bool

	items      *vnode
	additional *vnode
	props      []propValidator
	allOf      []*vnode
}

type propValidator struct {
	name string
	v    *vnode
}

// lazyNode is what a vnode is built from on first use, once. typeLater
// says that spec's CEL type is still to be converted (the root's).
type lazyNode struct {
	once      sync.Once
	b         *vnodeBuilder
	spec      nodeSpec
	typeLater bool
}

// built compiles v's rules and makes its children if not yet done; it
// returns v.
func (v *vnode) built() *vnode {
	if l := v.lazy; l != nil {
		l.once.Do(func() {
			if l.typeLater {
				l.spec.decl = common.SchemaDeclType(l.spec.a, l.spec.isResourceRoot)
			}
			l.b.build(v, l.spec)
			// Built, the node needs neither the schema's types nor the
			// cache any more.
			l.b, l.spec = nil, nodeSpec{}
		})
		if l.b != nil {
			// A build that returned cleared l.b (read after the Once, as
			// the fields it builds): this one panicked. Panic again, as
			// the node would otherwise validate nothing from then on.
			panic("cel: the build of a validator node panicked before")
		}
	}
	return v
}

// NewValidator prepares the validation of the rules of s and everything
// below it. It returns nil when s has no rules (nothing to evaluate).
// isResourceRoot says whether s is the root of a resource (or an embedded
// resource): its apiVersion, kind and metadata are then typed as a
// resource's.
//
// NewValidator compiles nothing: the CEL type of s is converted, a
// node's rules compiled and its children's nodes found when a value first
// reaches the node, so that an evaluation pays only for the nodes its
// values reach. Compiling cannot fail the Validator: a rule that does not
// compile is an error of every value the rule's node validates, as at the
// apiserver.
//
// cache, when not nil, supplies compile results and takes new ones, as
// NewSchemaCheck's do (see CompileCache): the same rules on nodes of the
// same type are compiled once. The Validator evaluates the same either
// way. The Validator uses the cache, under its lock, when a value first
// reaches a node; it may be used by any number of goroutines.
func NewValidator(s *structural.Schema, isResourceRoot bool, cache *CompileCache) *Validator {
	if !hasRules(s) {
		return nil
	}
	a := newAdapter(s)
	// Which nodes have rules is known only with their CEL types: the root
	// is made whatever they are. When no rule has a typed path to it, it
	// validates nothing, as no root would.
	root := nodeSpec{rulesFrom: sourceOf(s), s: s, a: a, isResourceRoot: isResourceRoot}
	return &Validator{root: lazyVnode(&vnodeBuilder{cache: cache}, root, true), adapter: a}
}

// lazyVnode is the validator of the node n, to be built by b on first
// use; typeLater says that n's CEL type is still to be converted.
func lazyVnode(b *vnodeBuilder, n nodeSpec, typeLater bool) *vnode {
	return &vnode{s: n.s, adapter: n.a, rules: n.rulesFrom.XValidations, isResourceRoot: n.isResourceRoot,
		lazy: &lazyNode{b: b, spec: n, typeLater: typeLater}}
}

// Evaluates reports whether v has rules to evaluate: false for a nil
// Validator, and for one whose rules all sit where no CEL type reaches
// them (below a field its parent's CEL type does not have, such as an
// embedded resource's metadata.labels), for which the apiserver makes no
// validator at all (and so reports no blocking error). It converts the
// root's CEL type and compiles its rules if no value did yet.
func (v *Validator) Evaluates() bool {
	return v != nil && !v.root.built().empty()
}

// empty reports whether the built node v has nothing to evaluate.
func (v *vnode) empty() bool {
	return len(v.results) == 0 && v.compileErr == nil && v.items == nil && v.additional == nil && len(v.props) == 0 && len(v.allOf) == 0
}

// CompileAll compiles the rules of every node of v now, as a value
// reaching every node would: the rules a check must have compiled before
// (tests), or a caller that wants no compilation during evaluation. A nil
// Validator compiles nothing.
func (v *Validator) CompileAll() {
	if v != nil {
		v.root.compileAll()
	}
}

func (v *vnode) compileAll() {
	if v == nil {
		return
	}
	v.built()
	v.items.compileAll()
	v.additional.compileAll()
	for _, p := range v.props {
		p.v.compileAll()
	}
	for _, a := range v.allOf {
		a.compileAll()
	}
}

// vnodeBuilder builds the validator nodes of one Validator.
type vnodeBuilder struct {
	cache *CompileCache
	// mu guards typed: nodes are built from any goroutine.
	mu sync.Mutex
	// typed holds the nodes hasTypedRules found to have typed rules
	// below them. Each such node becomes a validator node whose build
	// asks the same of its children: without it, every build on a chain
	// walked down to the chain's rules again (quadratic in the depth). A
	// node without rules below is not kept: it is walked again at most
	// once, by its parent's build, and then has no validator node to ask
	// about its children.
	typed map[nodeSpec]bool
}

// compile compiles rules of the node s for the runtime, or takes them from
// the cache. underMeta says whether s is, or is below, the apiVersion, kind
// or metadata of a resource root, whose types are not s's own.
//
// The runtime compiles with the environment of stored expressions. It has
// every library the environment of new expressions has, and more
// (list.includes), so that a rule compiling in the latter compiles to the
// same checked expression, cost and program in the former. With a cache,
// the node's rules are therefore compiled as a CRD create's check compiles
// them (taking the check's results when it compiled them: a CRD's check
// and its validators share them), and only when one of them fails there
// are they compiled again with the environment of stored expressions.
func (b *vnodeBuilder) compile(s *structural.Schema, rules []schema.ValidationRule, decl *apiservercel.DeclType, isResourceRoot, underMeta bool) ([]compiled, error) {
	stored := compileOptions{kind: storedExpressions}
	if b.cache == nil || len(rules) == 0 {
		return compileRules(s, rules, decl, stored)
	}
	stored.exprs = b.cache.exprs
	if underMeta {
		return compileRules(s, rules, decl, stored)
	}
	results, err := b.cache.compile(newExprsKind, s, rules, isResourceRoot, false, func() ([]compiled, error) {
		return compileRules(s, rules, decl, compileOptions{kind: newExpressions, exprs: b.cache.exprs})
	})
	if err == nil && allCompiled(results) {
		return results, nil
	}
	return b.cache.compile(storedExprsKind, s, rules, isResourceRoot, false, func() ([]compiled, error) { return compileRules(s, rules, decl, stored) })
}

// allCompiled reports whether every rule of results, and its
// messageExpression, compiled (or is empty: an empty rule compiles to
// nothing in every environment).
func allCompiled(results []compiled) bool {
	for i := range results {
		if results[i].err != nil || results[i].msgErr != nil {
			return false
		}
	}
	return true
}

// hasRules reports whether a node or any node below it through properties,
// items and additionalProperties has rules.
func hasRules(s *structural.Schema) bool {
	if s == nil {
		return false
	}
	if nodeHasRules(sourceOf(s)) {
		return true
	}
	if hasRules(s.Items) {
		return true
	}
	if s.AdditionalProperties != nil && hasRules(s.AdditionalProperties.Schema) {
		return true
	}
	for _, p := range s.Properties {
		if hasRules(p) {
			return true
		}
	}
	return false
}

// nodeSpec is what the validator of a node is built from: the rules of
// rulesFrom (s's own schema, or one of its allOf entries) and their
// children's, on the node s typed as decl, with the adapter a. underMeta
// says whether s is, or is below, the apiVersion, kind or metadata of a
// resource root.
type nodeSpec struct {
	rulesFrom      *schema.Props
	s              *structural.Schema
	a              *adapter
	isResourceRoot bool
	decl           *apiservercel.DeclType
	underMeta      bool
}

// childRole says where a child's validator sits in its parent's.
type childRole uint8

const (
	itemsChild childRole = iota
	propChild
	additionalChild
	allOfChild
)

// child is one child of a nodeSpec: name is a property's name.
type child struct {
	role childRole
	name string
	spec nodeSpec
}

// node makes the validator of the node n, to be built on first use; nil
// when n has no rules at or below it (through children that have a CEL
// type).
func (b *vnodeBuilder) node(n nodeSpec) *vnode {
	b.mu.Lock()
	has := b.hasTypedRules(n)
	b.mu.Unlock()
	if !has {
		return nil
	}
	return lazyVnode(b, n, false)
}

// hasTypedRules reports whether n, or a child of n at any depth reached
// through children that have a CEL type, has rules. Call it with b.mu
// held.
func (b *vnodeBuilder) hasTypedRules(n nodeSpec) bool {
	if n.rulesFrom == nil || n.s == nil {
		return false
	}
	if len(n.rulesFrom.XValidations) > 0 || b.typed[n] {
		return true
	}
	found := false
	n.eachChild(func(c child) bool {
		found = b.hasTypedRules(c.spec)
		return !found
	})
	if found {
		if b.typed == nil {
			b.typed = map[nodeSpec]bool{}
		}
		b.typed[n] = true
	}
	return found
}

// build compiles the rules of v, made from n, and makes its children's
// validators.
func (b *vnodeBuilder) build(v *vnode, n nodeSpec) {
	if b.cache != nil {
		b.cache.mu.Lock()
		defer b.cache.mu.Unlock()
	}
	v.results, v.compileErr = b.compile(n.s, n.rulesFrom.XValidations, n.decl, n.isResourceRoot, n.underMeta)
	for i := range v.results {
		v.usesOldSelf = v.usesOldSelf || v.results[i].usesOldSelf
	}
	n.eachChild(func(c child) bool {
		cv := b.node(c.spec)
		if cv == nil {
			return true
		}
		switch c.role {
		case itemsChild:
			v.items = cv
		case propChild:
			v.props = append(v.props, propValidator{c.name, cv})
		case additionalChild:
			v.additional = cv
		case allOfChild:
			v.allOf = append(v.allOf, cv)
		}
		return true
	})
}

// eachChild calls f with the children of n that can have a validator,
// in the order the validator evaluates them: items, properties by name,
// additionalProperties, allOf entries; it stops when f returns false.
func (n nodeSpec) eachChild(f func(child) bool) {
	rf, s := n.rulesFrom, n.s
	elem := elemType(n.decl)
	if rf.Items != nil && rf.Items.Schema != nil && s.Items != nil {
		if !f(child{itemsChild, "", nodeSpec{rf.Items.Schema, s.Items, n.a.items, s.Items.EmbeddedResource, elem, n.underMeta}}) {
			return
		}
	}
	for _, k := range sortedNames(rf.Properties) {
		if c, ok := n.property(k); ok && !f(c) {
			return
		}
	}
	if ap := rf.AdditionalProperties; ap != nil && ap.Schema != nil && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		as := s.AdditionalProperties.Schema
		if !f(child{additionalChild, "", nodeSpec{ap.Schema, as, n.a.ap.schema, as.EmbeddedResource, elem, n.underMeta}}) {
			return
		}
	}
	for i := range rf.AllOf {
		if !f(child{allOfChild, "", nodeSpec{&rf.AllOf[i], s, n.a, n.isResourceRoot, n.decl, n.underMeta}}) {
			return
		}
	}
}

// property is the child of n for its property k, with the rules of k's
// schema in n's rules' source; false when s has no such property, or it
// has no CEL type.
func (n nodeSpec) property(k string) (child, bool) {
	ps, ok := n.s.Properties[k]
	if !ok {
		return child{}, false
	}
	var fieldType *apiservercel.DeclType
	if esc, ok := apiservercel.Escape(k); ok {
		if n.decl == nil {
			return child{}, false
		}
		f, ok := n.decl.Fields[esc]
		if !ok {
			// A field without a CEL type is not validated.
			return child{}, false
		}
		fieldType = f.Type
	} else {
		// A name CEL cannot spell is typed on its own.
		fieldType = common.SchemaDeclType(n.a.props[k], ps.EmbeddedResource)
		if fieldType == nil {
			return child{}, false
		}
	}
	meta := n.underMeta || (n.isResourceRoot && (k == "metadata" || k == "apiVersion" || k == "kind"))
	return child{propChild, k, nodeSpec{n.rulesFrom.Properties[k], ps, n.a.props[k].(*adapter), ps.EmbeddedResource, fieldType, meta}}, true
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

// Options are the inputs of one validation beyond the objects.
type Options struct {
	// Path is where the validated value sits; nil for an object's root.
	Path *field.Path
	// Budget is the cost budget of all the rules evaluated; 0 means
	// RuntimeCostBudget.
	Budget int64
	// Ratcheting, on update, skips the errors of rules that do not use
	// oldSelf on values equal to their correlated old values, as the
	// apiserver's CRD validation ratcheting does.
	Ratcheting bool
	// Warn, when set, receives what ratcheting turned from errors into
	// warnings.
	Warn func(string)
}

// Validate evaluates the rules on obj, the new value, and returns their
// errors and the cost budget left (negative when it ran out: further rules
// were not evaluated). old is the old value on update and nil on create:
// transition rules (rules using oldSelf) run only with an old value, or
// when they set optionalOldSelf.
//
// The caller runs it after the OpenAPI validation, and not at all when
// that found a blocking error (see BlockingError). A nil Validator
// validates nothing. Nothing passed is changed.
func (v *Validator) Validate(ctx context.Context, obj, old any, opts Options) (field.ErrorList, int64) {
	budget := opts.Budget
	if budget == 0 {
		budget = RuntimeCostBudget
	}
	if v == nil {
		return nil, budget
	}
	if ctx == nil {
		ctx = context.Background()
	}
	r := ratchet{}
	if opts.Ratcheting && old != nil {
		r.current = common.NewCorrelatedObject(obj, old, v.adapter)
	}
	e := &evaluation{ctx: ctx, warn: opts.Warn}
	rem := e.validate(v.root, opts.Path, obj, old, r, budget)
	return e.errs, rem
}

// ratchet is the correlation of the node being validated with its old
// value: current is nil in uncorrelatable parts, where parent is the
// nearest correlatable ancestor.
type ratchet struct {
	current, parent *common.CorrelatedObject
}

func (r ratchet) skipErrors() bool {
	if r.current != nil {
		return r.current.CachedDeepEqual()
	}
	return r.parent.CachedDeepEqual()
}

func (r ratchet) key(name string) ratchet {
	if r.current == nil {
		return r
	}
	if r.parent == nil && (name == "apiVersion" || name == "kind") {
		// apiVersion and kind of the root are not visible to a change.
		return ratchet{}
	}
	return ratchet{current: r.current.Key(name), parent: r.current}
}

func (r ratchet) index(i int) ratchet {
	if r.current == nil {
		return r
	}
	return ratchet{current: r.current.Index(i), parent: r.current}
}

type evaluation struct {
	ctx  context.Context
	errs field.ErrorList
	warn func(string)
}

func (e *evaluation) validate(v *vnode, path *field.Path, obj, old any, r ratchet, budget int64) int64 {
	if v == nil || obj == nil {
		return budget
	}
	v.built()
	budget = e.expressions(v, path, obj, old, r, budget)
	if budget < 0 {
		return budget
	}
	for _, a := range v.allOf {
		// allOf errors are not ratcheted, as in the OpenAPI validation.
		budget = e.validate(a, path, obj, old, ratchet{parent: r.parent}, budget)
		if budget < 0 {
			return budget
		}
	}
	switch obj := obj.(type) {
	case []any:
		oldList, _ := old.([]any)
		return e.list(v, path, obj, oldList, r, budget)
	case map[string]any:
		oldMap, _ := old.(map[string]any)
		return e.object(v, path, obj, oldMap, r, budget)
	}
	return budget
}

func (e *evaluation) object(v *vnode, path *field.Path, obj, old map[string]any, r ratchet, budget int64) int64 {
	correlatable := v.s.MapType == "" || v.s.MapType == "granular" || v.s.MapType == "atomic"
	if v.additional != nil {
		for _, k := range sortedKeys(obj) {
			var oldV any
			if correlatable && old != nil {
				oldV = old[k]
			}
			budget = e.validate(v.additional, path.Key(k), obj[k], oldV, r.key(k), budget)
			if budget < 0 {
				return budget
			}
		}
	}
	for _, p := range v.props {
		val, ok := obj[p.name]
		if !ok {
			continue
		}
		var oldV any
		if correlatable && old != nil {
			oldV = old[p.name]
		}
		budget = e.validate(p.v, path.Child(p.name), val, oldV, r.key(p.name), budget)
		if budget < 0 {
			return budget
		}
	}
	return budget
}

func (e *evaluation) list(v *vnode, path *field.Path, obj, old []any, r ratchet, budget int64) int64 {
	if v.items == nil {
		return budget
	}
	// Only map lists correlate items with old items.
	var olds common.MapList
	if v.s.ListType == "map" && len(old) > 0 {
		olds = common.MakeMapList(v.adapter, old)
	}
	for i := range obj {
		var oldV any
		if olds != nil {
			oldV = olds.Get(obj[i])
		}
		budget = e.validate(v.items, path.Index(i), obj[i], oldV, r.index(i), budget)
		if budget < 0 {
			return budget
		}
	}
	return budget
}

// isNil reports a nil map, slice or pointer inside an interface.
func isNil(x any) bool {
	if x == nil {
		return true
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Map, reflect.Pointer, reflect.Interface, reflect.Slice:
		return rv.IsNil()
	}
	return false
}

// activation resolves self and oldSelf.
type activation struct {
	self, oldSelf ref.Val
	hasOldSelf    bool
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case scopedVar:
		return a.self, true
	case oldScopedVar:
		return a.oldSelf, a.hasOldSelf
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

// expressions evaluates the rules of v on obj (old is the old value, nil
// when there is none) and returns the remaining budget, -1 when no further
// rules may run.
func (e *evaluation) expressions(v *vnode, path *field.Path, obj, old any, r ratchet, budget int64) int64 {
	if isNil(old) {
		old = nil
	}
	typ := v.s.Type
	if v.compileErr != nil {
		e.errs = append(e.errs, field.Invalid(path, typ, fmt.Sprintf("rule compiler initialization error: %v", v.compileErr)))
		return budget
	}
	if len(v.results) == 0 {
		return budget
	}
	if budget <= 0 {
		e.errs = append(e.errs, field.Invalid(path, typ, outOfBudget))
		return -1
	}
	act, optAct := activations(v, obj, old)
	call := ruleCall{path: path, typ: typ, obj: obj, r: r}
	for i := range v.results {
		c, rule := &v.results[i], &v.rules[i]
		if c.err != nil {
			e.errs = append(e.errs, field.Invalid(path, typ, fmt.Sprintf("rule compile error: %v", c.err)))
			continue
		}
		if c.programs == nil {
			continue
		}
		if p := c.programs.make(); p.err != nil {
			e.errs = append(e.errs, field.Invalid(path, typ, fmt.Sprintf("rule compile error: %v", p.err)))
			continue
		}
		optional := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
		if c.usesOldSelf && old == nil && !optional {
			// A transition rule needs an old value (or optionalOldSelf).
			continue
		}
		ra := act
		if optional {
			ra = optAct
		}
		if budget = e.rule(call, c, rule, ra, budget); budget < 0 {
			return -1
		}
	}
	return budget
}

// outOfBudget is the message of the error that stops the evaluation when
// the cost budget runs out.
const outOfBudget = "validation failed due to running out of cost budget, no further validation rules will be run"

// activations returns the activations of v's rules on obj: self and, when
// there is an old value, oldSelf; and the one of the rules with
// optionalOldSelf, where oldSelf is an optional.
func activations(v *vnode, obj, old any) (act, optAct *activation) {
	a := v.adapter
	if v.isResourceRoot {
		a = a.withMeta()
	}
	act = &activation{self: common.UnstructuredToVal(obj, a)}
	optAct = act
	if v.usesOldSelf {
		optAct = &activation{self: act.self, hasOldSelf: true, oldSelf: types.OptionalNone}
		if old != nil {
			act.oldSelf, act.hasOldSelf = common.UnstructuredToVal(old, a), true
			optAct.oldSelf = types.OptionalOf(act.oldSelf)
		}
	}
	return act, optAct
}

// ruleCall is what the evaluation of one node's rules shares: the node's
// path and type, the value and the ratcheting state.
type ruleCall struct {
	path *field.Path
	typ  string
	obj  any
	r    ratchet
}

// rule evaluates one compiled rule with the activation ra and returns the
// remaining budget, -1 when no further rules may run.
func (e *evaluation) rule(call ruleCall, c *compiled, rule *schema.ValidationRule, ra *activation, budget int64) int64 {
	path, typ := call.path, call.typ
	val, details, err := c.programs.rule.ContextEval(e.ctx, ra)
	if details == nil {
		e.errs = append(e.errs, field.InternalError(path, fmt.Errorf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleErrorString(rule))))
		return -1
	}
	cost := details.ActualCost()
	if cost == nil {
		e.errs = append(e.errs, field.Invalid(path, typ, fmt.Sprintf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleErrorString(rule))))
		return -1
	}
	if *cost > math.MaxInt64 || int64(*cost) > budget {
		e.errs = append(e.errs, field.Invalid(path, typ, outOfBudget))
		return -1
	}
	budget -= int64(*cost)
	if err != nil {
		msg := err.Error()
		switch {
		case strings.HasPrefix(msg, "no such overload"):
			e.errs = append(e.errs, field.Invalid(path, typ, fmt.Sprintf("'%v': call arguments did not match a supported operator, function or macro signature for rule: %v", err, ruleErrorString(rule))))
		case strings.HasPrefix(msg, "operation cancelled: actual cost limit exceeded"):
			e.errs = append(e.errs, field.Invalid(path, typ, fmt.Sprintf("'%v': no further validation rules will be run due to call cost exceeds limit for rule: %v", err, ruleErrorString(rule))))
			return -1
		default:
			e.errs = append(e.errs, field.Invalid(path, typ, fmt.Sprintf("%v evaluating rule: %v", err, ruleErrorString(rule))))
		}
		return budget
	}
	if val == types.True {
		return budget
	}
	return e.ruleFailed(call, c, rule, ra, budget)
}

// ruleFailed adds the error of a rule that evaluated to false (unless
// ratcheting drops it), with its messageExpression's message when there is
// one, and returns the remaining budget, -1 when no further rules may run.
func (e *evaluation) ruleFailed(call ruleCall, c *compiled, rule *schema.ValidationRule, ra *activation, budget int64) int64 {
	errPath := call.path
	// A messageExpression whose program cannot be made leaves the rule
	// without its fieldPath, as when the runtime compiles it.
	if c.fieldPath != "" && !c.programs.msgFailed {
		errPath = errPath.Child(c.fieldPath)
	}
	add := func(fe *field.Error) {
		if !c.usesOldSelf && call.r.skipErrors() {
			if e.warn != nil {
				e.warn(fe.Error())
			}
			return
		}
		e.errs = append(e.errs, fe)
	}
	detail, ok := "", false
	if c.programs.msg != nil {
		msg, rem, merr := evalMessage(e.ctx, c.programs.msg, rule.MessageExpression, ra, budget)
		switch {
		case merr == nil:
			detail, ok, budget = msg, true, rem
		case merr.Type == apiservercel.ErrorTypeInternal:
			add(field.InternalError(errPath, merr))
			return -1
		case merr.Type == apiservercel.ErrorTypeInvalid:
			add(field.Invalid(errPath, call.typ, merr.Error()))
			return -1
		default:
			// The message falls back to message or the rule.
			budget = rem
		}
	}
	if !ok {
		detail = ruleMessageOrDefault(rule)
	}
	var value any = call.obj
	if call.typ == "object" || call.typ == "array" {
		value = field.OmitValueType{}
	}
	add(errorForReason(errPath, value, detail, rule.Reason))
	return budget
}

func errorForReason(path *field.Path, value any, detail string, reason *string) *field.Error {
	if reason != nil {
		switch *reason {
		case "FieldValueForbidden":
			return field.Forbidden(path, detail)
		case "FieldValueRequired":
			return field.Required(path, detail)
		case "FieldValueDuplicate":
			return field.Duplicate(path, value)
		}
	}
	return field.Invalid(path, value, detail)
}

// evalMessage evaluates a messageExpression; an error of no type means the
// message falls back to the rule's message.
func evalMessage(ctx context.Context, prog celgo.Program, src string, act interpreter.Activation, budget int64) (string, int64, *apiservercel.Error) {
	val, details, err := prog.ContextEval(ctx, act)
	if details == nil || details.ActualCost() == nil {
		return "", -1, &apiservercel.Error{Type: apiservercel.ErrorTypeInternal,
			Detail: fmt.Sprintf("runtime cost could not be calculated for messageExpression: %q", src)}
	}
	cost := *details.ActualCost()
	if cost > math.MaxInt64 || int64(cost) > budget {
		return "", -1, &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid,
			Detail: "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"}
	}
	rem := budget - int64(cost)
	if err != nil {
		if strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded") {
			return "", -1, &apiservercel.Error{Type: apiservercel.ErrorTypeInvalid,
				Detail: fmt.Sprintf("no further validation rules will be run due to call cost exceeds limit for messageExpression: %q", src)}
		}
		return "", rem, &apiservercel.Error{Detail: "messageExpression evaluation failed due to: " + err.Error()}
	}
	s, ok := val.Value().(string)
	if !ok {
		return "", rem, &apiservercel.Error{Detail: "messageExpression failed to convert to string"}
	}
	s = strings.TrimSpace(s)
	switch {
	case len(s) > maxMessageExprLength:
		return "", rem, &apiservercel.Error{Detail: fmt.Sprintf("messageExpression beyond allowable length of %d", maxMessageExprLength)}
	case strings.Contains(s, "\n"):
		return "", rem, &apiservercel.Error{Detail: "messageExpression should not contain line breaks"}
	case s == "":
		return "", rem, &apiservercel.Error{Detail: "messageExpression should evaluate to a non-empty string"}
	}
	return s, rem, nil
}

func ruleMessageOrDefault(r *schema.ValidationRule) string {
	if r.Message == "" {
		return "failed rule: " + ruleErrorString(r)
	}
	return strings.TrimSpace(r.Message)
}

func ruleErrorString(r *schema.ValidationRule) string {
	if r.Message != "" {
		return strings.TrimSpace(r.Message)
	}
	return strings.TrimSpace(r.Rule)
}

// BlockingError returns the error the apiserver adds instead of
// evaluating the rules when the OpenAPI validation found an error of a
// blocking type (a missing required field, an unsupported value, a string,
// list or map too long, a wrong type), and nil when errs has none.
func BlockingError(errs field.ErrorList) *field.Error {
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		}
	}
	return nil
}
