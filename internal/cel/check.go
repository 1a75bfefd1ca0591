package cel

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// The limits a CRD create puts on the estimated cost of rules: per
// expression (its cost times how often its node can occur) and for all the
// expressions of one schema.
const (
	StaticEstimatedCostLimit    = 10000000
	StaticEstimatedCRDCostLimit = 100000000
)

// SchemaCheck checks the x-kubernetes-validations rules of one CRD schema
// (one version's, or the shared one) as a CRD create does: it compiles each
// rule, messageExpression and fieldPath against the schema's CEL types
// with the environment of new expressions, and checks estimated costs, the
// use of oldSelf and optionalOldSelf. A schema's rules are only checked
// once the schema is structural with valid defaults.
//
// A SchemaCheck is used by one goroutine: walk the schema from Root, call
// Node.Check for each node with rules (skipping nodes with schema errors at
// or below them), then Finish.
type SchemaCheck struct {
	root *Node
	// rulesBelow holds the structural nodes with rules at or below them.
	rulesBelow map[*structural.Schema]bool
	total      uint64
	expensive  []ruleCost
	// cache, when set, holds compile results shared with other schemas.
	cache *CompileCache
	opts  CheckOptions
}

// StoredExpressions are the expressions (rules and messageExpressions) of
// a stored CRD. On an update, an expression whose exact text the stored
// CRD already had compiles in the environment of stored expressions, which
// may hold libraries new expressions cannot use yet.
type StoredExpressions struct {
	rules, messages map[string]bool
}

// NewStoredExpressions returns an empty set of stored expressions.
func NewStoredExpressions() *StoredExpressions {
	return &StoredExpressions{rules: map[string]bool{}, messages: map[string]bool{}}
}

// Add records the expressions of rules.
func (e *StoredExpressions) Add(rules []schema.ValidationRule) {
	for _, r := range rules {
		e.rules[r.Rule] = true
		if r.MessageExpression != "" {
			e.messages[r.MessageExpression] = true
		}
	}
}

// has reports whether expr is a stored rule (or, with message, a stored
// messageExpression). A nil set has nothing.
func (e *StoredExpressions) has(expr string, message bool) bool {
	if e == nil {
		return false
	}
	if message {
		return e.messages[expr]
	}
	return e.rules[expr]
}

// key is a cache key part naming which of rules compile in the stored
// expressions' environment: "" when none does.
func (e *StoredExpressions) key(rules []schema.ValidationRule) string {
	if e == nil {
		return ""
	}
	var b []byte
	for _, r := range rules {
		c := byte('n')
		switch {
		case e.has(r.Rule, false) && e.has(r.MessageExpression, true):
			c = 'b'
		case e.has(r.Rule, false):
			c = 'r'
		case r.MessageExpression != "" && e.has(r.MessageExpression, true):
			c = 'm'
		}
		b = append(b, c)
	}
	if strings.Trim(string(b), "n") == "" {
		return ""
	}
	return "s" + string(b)
}

// CheckOptions relax a SchemaCheck for a CRD update.
type CheckOptions struct {
	// Stored are the stored CRD's expressions.
	Stored *StoredExpressions
	// NoExpressionCostLimit turns off the per-expression cost limit (for
	// a version whose schema the update leaves unchanged); the limit on
	// the schema's total cost still applies.
	NoExpressionCostLimit bool
}

// SetOptions makes c check with opts. Call it before checking any node.
func (c *SchemaCheck) SetOptions(opts CheckOptions) { c.opts = opts }

type ruleCost struct {
	path *field.Path
	cost uint64
}

// NewSchemaCheck starts checking the schema p, whose structural model is s
// (when s is nil, rules get an internal error for the missing types).
func NewSchemaCheck(p *schema.Props, s *structural.Schema) *SchemaCheck {
	c := &SchemaCheck{rulesBelow: map[*structural.Schema]bool{}}
	one := uint64(1)
	c.root = &Node{sc: c, props: p, ss: s, card: &one, info: &typeInfo{s: s}, inScope: len(p.XValidations) > 0}
	if s != nil {
		c.markRules(s)
	}
	return c
}

// markRules records which nodes have rules at or below them (through
// properties, items and additionalProperties) and reports whether s does.
func (c *SchemaCheck) markRules(s *structural.Schema) bool {
	if s == nil {
		return false
	}
	has := nodeHasRules(sourceOf(s))
	for _, p := range s.Properties {
		has = c.markRules(p) || has
	}
	has = c.markRules(s.Items) || has
	if s.AdditionalProperties != nil {
		has = c.markRules(s.AdditionalProperties.Schema) || has
	}
	if has {
		c.rulesBelow[s] = true
	}
	return has
}

// CompileCache holds the compile results of the rules checked with it, so
// that the same rules on a node of the same type, which CRDs have often
// (versions with identical schemas, a type used at several places), are
// compiled once. A result is reused only for equal rules on a node whose
// structural schema is deeply equal but for descriptions (generated CRDs
// repeat a type with the description of each field that uses it; nothing
// a rule's CEL type, compilation, cost or fieldPath is made of reads a
// description) and whose CEL type is converted the same way (both
// resource roots or neither, neither below a resource root's apiVersion,
// kind or metadata); errors, costs and paths are computed for each node as
// without the cache. The apiserver compiles such rules again with the same
// results (up to the selfType name it generates from the time of
// compilation, which ours generate once for each shared environment: see
// checkEnv).
//
// A CompileCache is used by one goroutine, like the SchemaChecks sharing
// it, except by the Validators built with it: they use it under mu when a
// value first reaches one of their nodes, from any goroutine, and so may
// be used only once its SchemaChecks are done with it (a SchemaCheck reads
// and writes the cache without mu: one still running beside such a
// Validator is a data race).
type CompileCache struct {
	mu      sync.Mutex
	entries map[string][]cacheEntry
	// exprs holds the expressions of the rules compiled with the cache,
	// parsed and checked once for nodes whose types differ only in what
	// the checker does not read.
	exprs *exprCache
	// hashes holds the subtreeHash of the nodes with rules that lookups
	// hashed (the nodes looked up and those with rules below them),
	// found when a lookup first needs one; nil after ForgetShared.
	hashes map[*structural.Schema]uint64
}

type cacheEntry struct {
	s            *structural.Schema
	resourceRoot bool
	// alone says that the node's CEL type was converted from its
	// structural schema alone (its parent has no type information), and
	// that the conversion succeeded.
	alone   bool
	rules   []schema.ValidationRule
	results []compiled
	err     error
	// hash is s's subtreeHash, found when a lookup first needs it (zero
	// until then).
	hash uint64
}

// NewCompileCache returns an empty CompileCache.
func NewCompileCache() *CompileCache {
	return &CompileCache{entries: map[string][]cacheEntry{}, exprs: newExprCache(), hashes: map[*structural.Schema]uint64{}}
}

// Len is how many compile results the cache holds: one for each set of
// rules compiled on a node of a type not compiled before. Tests read it to
// prove that a CRD's rules are compiled once (by its check, the check of
// its defaults and its versions' validators together).
func (c *CompileCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, entries := range c.entries {
		n += len(entries)
	}
	return n
}

// ForgetShared drops what the cache holds only to share work between the
// nodes compiled with it, keeping its compile results: the parsed and
// checked expressions (see exprCache), so that what compiles with it
// afterwards parses and checks its own, and the hashes of the nodes looked
// up (see subtreeHash), which a later lookup finds again. A caller that
// keeps the cache after the bulk of its compiling (a CRD's check, whose
// Built its versions' validators use) calls it so that these do not live
// as long as the cache.
func (c *CompileCache) ForgetShared() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.exprs = nil
	c.hashes = nil
}

// UseCache makes c take compile results from cache and add its own to it.
// Call it before checking any node.
func (c *SchemaCheck) UseCache(cache *CompileCache) { c.cache = cache }

// Root is the context of the schema's root.
func (c *SchemaCheck) Root() *Node { return c.root }

// Node is the CEL context of one schema node reached from the root through
// properties, items and additionalProperties. A nil *Node is the context of
// a node without rules at or below it: it checks nothing.
type Node struct {
	sc     *SchemaCheck
	parent *Node
	// step from the parent: a property name, or items/additionalProperties.
	step stepKind
	name string
	// props is the node's schema and ss its structural model.
	props *schema.Props
	ss    *structural.Schema
	card  *uint64 // nil: unbounded
	// inScope is true when the node or an ancestor has rules; only then
	// does the node have type information for its descendants.
	inScope  bool
	info     *typeInfo
	infoErr  error
	infoDone bool
}

type stepKind uint8

const (
	stepRoot stepKind = iota
	stepProperty
	stepItems
	stepAdditional
)

type typeInfo struct {
	s    *structural.Schema
	decl *apiservercel.DeclType
}

// Property is the context of the property name.
func (n *Node) Property(name string) *Node {
	if n == nil || n.ss == nil {
		return nil
	}
	return n.child(stepProperty, name, n.ss.Properties[name])
}

// Items is the context of the items schema.
func (n *Node) Items() *Node {
	if n == nil || n.ss == nil {
		return nil
	}
	return n.child(stepItems, "", n.ss.Items)
}

// AdditionalProperties is the context of the additionalProperties schema.
func (n *Node) AdditionalProperties() *Node {
	if n == nil || n.ss == nil || n.ss.AdditionalProperties == nil {
		return nil
	}
	return n.child(stepAdditional, "", n.ss.AdditionalProperties.Schema)
}

func (n *Node) child(st stepKind, name string, ss *structural.Schema) *Node {
	if ss == nil || !n.sc.rulesBelow[ss] {
		return nil
	}
	p := sourceOf(ss)
	if p == nil {
		p = &schema.Props{}
	}
	c := &Node{sc: n.sc, parent: n, step: st, name: name, props: p, ss: ss, inScope: n.inScope || len(p.XValidations) > 0}
	if n.card != nil {
		if max, ok := maxElements(n.props); ok {
			v := mulCapped(*n.card, max)
			c.card = &v
		}
	}
	return c
}

// maxElements is how many children a value of p holds at most; ok is
// false when unbounded.
func maxElements(p *schema.Props) (uint64, bool) {
	switch p.Type {
	case "object":
		if p.AdditionalProperties != nil {
			if p.MaxProperties != nil {
				return uint64(max(*p.MaxProperties, 0)), true
			}
			return 0, false
		}
		return 1, true
	case "array":
		if p.MaxItems != nil {
			return uint64(max(*p.MaxItems, 0)), true
		}
		return 0, false
	}
	return 1, true
}

// mulCapped multiplies, capping at the largest uint64 (0 times anything
// is 0).
func mulCapped(a, b uint64) uint64 {
	if a == 0 {
		return 0
	}
	if math.MaxUint64/a < b {
		return math.MaxUint64
	}
	return a * b
}

// typeInfo is the node's structural schema and CEL type: taken from the
// parent's when it has them, else converted from the node alone.
func (n *Node) typeInfo() (*typeInfo, error) {
	if !n.inScope {
		return nil, nil
	}
	if n.infoDone {
		return n.info, n.infoErr
	}
	n.infoDone = true
	if n.parent == nil {
		return n.rootInfo()
	}
	pi, err := n.parent.typeInfo()
	if err != nil {
		n.infoErr = err
		return nil, err
	}
	if info := n.fromParent(pi); info != nil {
		n.info = info
		return info, nil
	}
	// Converted alone (the node's structural model is the subtree of the
	// schema's), the node is a resource root only when embedded.
	decl := common.SchemaDeclType(newAdapter(n.ss), n.ss.EmbeddedResource)
	if decl == nil {
		n.infoErr = errNoConversion
		return nil, errNoConversion
	}
	n.info = &typeInfo{s: n.ss, decl: decl}
	return n.info, nil
}

// rootInfo is typeInfo for the root, whose structural model is known.
func (n *Node) rootInfo() (*typeInfo, error) {
	if n.info.s != nil {
		n.info.decl = common.SchemaDeclType(newAdapter(n.info.s), true)
	}
	if n.info.decl == nil {
		n.info, n.infoErr = nil, errNoConversion
	}
	return n.info, n.infoErr
}

// fromParent returns the node's type info taken from its parent's, pi;
// nil when the parent's does not have it.
func (n *Node) fromParent(pi *typeInfo) *typeInfo {
	if pi == nil || pi.s == nil {
		return nil
	}
	switch n.step {
	case stepProperty:
		if pi.s.Properties != nil && pi.decl != nil {
			if esc, ok := apiservercel.Escape(n.name); ok {
				if f, ok := pi.decl.Fields[esc]; ok {
					return &typeInfo{s: pi.s.Properties[n.name], decl: f.Type}
				}
			}
		}
	case stepItems:
		if pi.s.Items != nil {
			return &typeInfo{s: pi.s.Items, decl: elemType(pi.decl)}
		}
	case stepAdditional:
		if pi.s.AdditionalProperties != nil {
			return &typeInfo{s: pi.s.AdditionalProperties.Schema, decl: elemType(pi.decl)}
		}
	}
	return nil
}

func elemType(d *apiservercel.DeclType) *apiservercel.DeclType {
	if d == nil {
		return nil
	}
	return d.ElemType
}

var errNoConversion = fmt.Errorf("unable to convert structural schema to CEL declarations")

// ruleValue is how the apiserver shows a rule as an error's value: its
// internal rule type, whose fields have no JSON names.
type ruleValue struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *string
	FieldPath         string
	OptionalOldSelf   *bool
}

// Check compiles rules, the x-kubernetes-validations of the node at path,
// and returns their errors. uncorrelatable is the highest ancestor below which
// old and new values cannot be correlated, nil if none.
func (n *Node) Check(path *field.Path, rules []schema.ValidationRule, uncorrelatable *field.Path) field.ErrorList {
	if n == nil || len(rules) == 0 {
		return nil
	}
	rulesPath := path.Child("x-kubernetes-validations")
	results, ferr := n.compiledRules(rulesPath, rules)
	if ferr != nil {
		return field.ErrorList{ferr}
	}
	var errs field.ErrorList
	for i := range results {
		errs = append(errs, n.ruleErrors(rulesPath.Index(i), &results[i], &rules[i], uncorrelatable)...)
	}
	return errs
}

// compiledRules is the node's rules compiled (from the cache when the same
// rules were compiled alone before), or the internal error the apiserver
// reports at rulesPath when they cannot be.
func (n *Node) compiledRules(rulesPath *field.Path, rules []schema.ValidationRule) ([]compiled, *field.Error) {
	results, err, cached := n.cachedAlone(rules)
	if !cached {
		info, infoErr := n.typeInfo()
		if infoErr != nil {
			return nil, field.InternalError(rulesPath, fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", infoErr))
		}
		if info == nil {
			return nil, field.InternalError(rulesPath, fmt.Errorf("internal error: failed to retrieve type information for x-kubernetes-validations"))
		}
		results, err = n.compile(info, rules)
	}
	if err != nil {
		return nil, field.InternalError(rulesPath, err)
	}
	return results, nil
}

// ruleErrors are the errors of one compiled rule at rp, in the apiserver's
// order: its rule's cost and compilation, its messageExpression, then its
// use of oldSelf. The costs are observed for the schema's total.
func (n *Node) ruleErrors(rp *field.Path, cr *compiled, r *schema.ValidationRule, uncorrelatable *field.Path) field.ErrorList {
	var errs field.ErrorList
	value := func() ruleValue {
		return ruleValue{r.Rule, r.Message, r.MessageExpression, r.Reason, r.FieldPath, r.OptionalOldSelf}
	}
	cost := n.expressionCost(cr.maxCost, cr.maxCardinality)
	if cost > StaticEstimatedCostLimit && !n.sc.opts.NoExpressionCostLimit {
		errs = append(errs, field.Forbidden(rp.Child("rule"), costErrorMessage("estimated rule cost", cost, StaticEstimatedCostLimit)))
	}
	n.sc.observe(rp.Child("rule"), cost)
	if cr.err != nil {
		if cr.err.Type == apiservercel.ErrorTypeRequired {
			errs = append(errs, field.Required(rp.Child("rule"), cr.err.Detail))
		} else {
			errs = append(errs, field.Invalid(rp.Child("rule"), value(), cr.err.Detail))
		}
	}
	if cr.msgErr != nil {
		errs = append(errs, field.Invalid(rp.Child("messageExpression"), value(), cr.msgErr.Detail))
	} else if cr.msgOK {
		if cr.msgMaxCost > StaticEstimatedCostLimit && !n.sc.opts.NoExpressionCostLimit {
			errs = append(errs, field.Forbidden(rp.Child("messageExpression"), costErrorMessage("estimated messageExpression cost", cr.msgMaxCost, StaticEstimatedCostLimit)))
		}
		n.sc.observe(rp.Child("messageExpression"), cr.msgMaxCost)
	}
	return append(errs, oldSelfErrors(rp, cr, r, uncorrelatable)...)
}

// oldSelfErrors are the errors of a rule's use of oldSelf: where old and
// new values cannot be correlated, or optionalOldSelf set without it.
func oldSelfErrors(rp *field.Path, cr *compiled, r *schema.ValidationRule, uncorrelatable *field.Path) field.ErrorList {
	switch {
	case cr.usesOldSelf && uncorrelatable != nil:
		return field.ErrorList{field.Invalid(rp.Child("rule"), r.Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", uncorrelatable))}
	case !cr.usesOldSelf && r.OptionalOldSelf != nil:
		return field.ErrorList{field.Invalid(rp.Child("optionalOldSelf"), *r.OptionalOldSelf, "may not be set if oldSelf is not used in rule")}
	}
	return nil
}

// compile compiles the node's rules for a CRD create, or takes the
// results of the same rules compiled before for a node of the same type.
func (n *Node) compile(info *typeInfo, rules []schema.ValidationRule) ([]compiled, error) {
	cache := n.sc.cache
	opts := compileOptions{kind: newExpressions, stored: n.sc.opts.Stored}
	if cache == nil {
		return compileRules(info.s, rules, info.decl, opts)
	}
	opts.exprs = cache.exprs
	// A node's CEL type is converted from its structural schema alone, as
	// a resource root at the schema's root and at embedded resources,
	// except below the apiVersion, kind and metadata of a resource root,
	// whose types the resource root sets: those nodes are not cached.
	if n.underResourceMeta() {
		return compileRules(info.s, rules, info.decl, opts)
	}
	resourceRoot := n.parent == nil || (info.s != nil && info.s.EmbeddedResource)
	return cache.compile(newExprsKind+opts.stored.key(rules), info.s, rules, resourceRoot, n.typedAlone(), func() ([]compiled, error) {
		return compileRules(info.s, rules, info.decl, opts)
	})
}

// typedAlone reports whether the node's CEL type is converted from its
// structural schema alone: a node below the root whose parent has no type
// information (no rules at or above the parent).
func (n *Node) typedAlone() bool {
	return n.parent != nil && !n.parent.inScope
}

// cachedAlone returns the cached results of the same rules on a node of
// the same type without converting the node's CEL type, when that
// conversion is known to succeed: the node's type would be converted from
// its structural schema alone, and so was the cached node's, successfully,
// from a schema equal to it but for descriptions (which the conversion
// does not read). ok is false when the rules must be compiled, or taken
// from the cache, the ordinary way. The node's type is still converted if
// a node below it needs it.
func (n *Node) cachedAlone(rules []schema.ValidationRule) (results []compiled, err error, ok bool) {
	cache := n.sc.cache
	if cache == nil || !n.typedAlone() || n.ss == nil || n.underResourceMeta() {
		return nil, nil, false
	}
	e := cache.lookup("c"+n.sc.opts.Stored.key(rules), n.ss, rules, n.ss.EmbeddedResource, true)
	if e == nil {
		return nil, nil, false
	}
	return e.results, e.err, true
}

// lookup finds the results of rules (kind names the environment and
// options) compiled on a node equal to s but for descriptions, typed as a
// resource root or not; with alone, only those of a node typed alone.
func (c *CompileCache) lookup(kind string, s *structural.Schema, rules []schema.ValidationRule, resourceRoot, alone bool) *cacheEntry {
	entries := c.entries[kind+rulesKey(rules)]
	var hash uint64
	for i := range entries {
		e := &entries[i]
		if e.resourceRoot != resourceRoot || (alone && !e.alone) {
			continue
		}
		if len(entries) > 1 {
			// Several to choose from: compare only the nodes of s's hash.
			if hash == 0 {
				hash = subtreeHash(s, c.hashes)
			}
			if e.hash == 0 {
				e.hash = subtreeHash(e.s, c.hashes)
			}
			if e.hash != hash {
				continue
			}
		}
		if equalRules(e.rules, rules) && equalStructural(e.s, s, false) {
			return e
		}
	}
	return nil
}

// The kinds of CompileCache entries: compiled in the environment of new
// expressions (a CRD create's check; an update's adds StoredExpressions.key)
// and in the environment of stored expressions (the runtime, for rules
// that fail in the former). A SchemaCheck and a validator share results
// through newExprsKind.
const (
	newExprsKind    = "c"
	storedExprsKind = "v"
)

// compile returns the results of compiling rules (kind names the
// environment and options) on a node s, typed as a resource root or not:
// from the cache, or else from build, which it then caches. alone says
// that s's CEL type was converted from s alone.
func (c *CompileCache) compile(kind string, s *structural.Schema, rules []schema.ValidationRule, resourceRoot, alone bool, build func() ([]compiled, error)) ([]compiled, error) {
	if e := c.lookup(kind, s, rules, resourceRoot, false); e != nil {
		return e.results, e.err
	}
	results, err := build()
	key := kind + rulesKey(rules)
	c.entries[key] = append(c.entries[key], cacheEntry{s: s, resourceRoot: resourceRoot, alone: alone, rules: rules, results: results, err: err})
	return results, err
}

// underResourceMeta reports whether the node is, or is below, the
// apiVersion, kind or metadata property of a resource root (the schema's
// root or an embedded resource).
func (n *Node) underResourceMeta() bool {
	for m := n; m.parent != nil; m = m.parent {
		if m.step != stepProperty || (m.name != "metadata" && m.name != "apiVersion" && m.name != "kind") {
			continue
		}
		if p := m.parent; p.parent == nil || (p.ss != nil && p.ss.EmbeddedResource) {
			return true
		}
	}
	return false
}

// equalStructural reports whether two structural schemas are deeply equal,
// as reflect.DeepEqual would, comparing each node's schema once: the Props
// of a node hold its whole subtree, which reflect.DeepEqual on the
// structural tree would compare again at every level. Without
// descriptions, the nodes' descriptions (not those inside junctors) are
// not compared.
func equalStructural(a, b *structural.Schema, descriptions bool) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	if a.Type != b.Type || a.Nullable != b.Nullable || a.HasDefault != b.HasDefault ||
		a.PreserveUnknownFields != b.PreserveUnknownFields || a.EmbeddedResource != b.EmbeddedResource ||
		a.IntOrString != b.IntOrString || a.ListType != b.ListType || a.MapType != b.MapType ||
		!slices.Equal(a.ListMapKeys, b.ListMapKeys) || !reflect.DeepEqual(a.Default, b.Default) ||
		len(a.Properties) != len(b.Properties) || (a.AdditionalProperties == nil) != (b.AdditionalProperties == nil) {
		return false
	}
	if pa, pb := sourceOf(a), sourceOf(b); (pa == nil) != (pb == nil) || (pa != nil && !equalProps(pa, pb, descriptions)) {
		return false
	}
	if !equalStructural(a.Items, b.Items, descriptions) {
		return false
	}
	if a.AdditionalProperties != nil {
		if a.AdditionalProperties.Allows != b.AdditionalProperties.Allows ||
			!equalStructural(a.AdditionalProperties.Schema, b.AdditionalProperties.Schema, descriptions) {
			return false
		}
	}
	for k, pa := range a.Properties {
		pb, ok := b.Properties[k]
		if !ok || !equalStructural(pa, pb, descriptions) {
			return false
		}
	}
	return true
}

// equalProps compares two nodes' schemas but for the subtrees of
// properties, items and additionalProperties, as reflect.DeepEqual on the
// nodes without those subtrees would (the test holds it to that): field by
// field, with reflect.DeepEqual only for the JSON values, junctors and
// keywords a CRD schema rarely has. It compares thousands of nodes when a
// large type with rules repeats. Without descriptions, the two
// descriptions are not compared.
func equalProps(a, b *schema.Props, descriptions bool) bool {
	if (a.Items == nil) != (b.Items == nil) || (a.AdditionalProperties == nil) != (b.AdditionalProperties == nil) {
		return false
	}
	if a.AdditionalProperties != nil && (a.AdditionalProperties.Allows != b.AdditionalProperties.Allows ||
		(a.AdditionalProperties.Schema == nil) != (b.AdditionalProperties.Schema == nil)) {
		return false
	}
	if a.Items != nil && (a.Items.Schema == nil) != (b.Items.Schema == nil) {
		return false
	}
	if descriptions && a.Description != b.Description {
		return false
	}
	if a.ID != b.ID || a.Schema != b.Schema || a.Type != b.Type ||
		a.Format != b.Format || a.Title != b.Title || a.Pattern != b.Pattern ||
		a.ExclusiveMaximum != b.ExclusiveMaximum || a.ExclusiveMinimum != b.ExclusiveMinimum ||
		a.UniqueItems != b.UniqueItems || a.Nullable != b.Nullable ||
		a.XEmbeddedResource != b.XEmbeddedResource || a.XIntOrString != b.XIntOrString {
		return false
	}
	if !samePtr(a.Ref, b.Ref) || !samePtr(a.Maximum, b.Maximum) || !samePtr(a.Minimum, b.Minimum) ||
		!samePtr(a.MultipleOf, b.MultipleOf) || !samePtr(a.MaxLength, b.MaxLength) ||
		!samePtr(a.MinLength, b.MinLength) || !samePtr(a.MaxItems, b.MaxItems) ||
		!samePtr(a.MinItems, b.MinItems) || !samePtr(a.MaxProperties, b.MaxProperties) ||
		!samePtr(a.MinProperties, b.MinProperties) || !samePtr(a.XPreserveUnknownFields, b.XPreserveUnknownFields) ||
		!samePtr(a.XListType, b.XListType) || !samePtr(a.XMapType, b.XMapType) {
		return false
	}
	if !sameStrings(a.Required, b.Required) || !sameStrings(a.XListMapKeys, b.XListMapKeys) {
		return false
	}
	// Items as an array is compared whole; a single items schema is a
	// structural child.
	if !deepEqualPtr(itemsArray(a), itemsArray(b)) ||
		!deepEqualPtr(a.Default, b.Default) ||
		!deepEqualSlice(a.Enum, b.Enum) ||
		!deepEqualSlice(a.AllOf, b.AllOf) ||
		!deepEqualSlice(a.OneOf, b.OneOf) ||
		!deepEqualSlice(a.AnyOf, b.AnyOf) ||
		!deepEqualPtr(a.Not, b.Not) ||
		!deepEqualMap(a.PatternProperties, b.PatternProperties) ||
		!deepEqualMap(a.Dependencies, b.Dependencies) ||
		!deepEqualPtr(a.AdditionalItems, b.AdditionalItems) ||
		!deepEqualMap(a.Definitions, b.Definitions) ||
		!deepEqualPtr(a.ExternalDocs, b.ExternalDocs) ||
		!deepEqualPtr(a.Example, b.Example) ||
		!deepEqualSlice(a.XValidations, b.XValidations) {
		return false
	}
	return true
}

// samePtr is reflect.DeepEqual for pointers to comparable values: the same
// pointer, or both non-nil with equal values.
func samePtr[T comparable](a, b *T) bool {
	return a == b || (a != nil && b != nil && *a == *b)
}

// sameStrings is reflect.DeepEqual for string slices: a nil slice differs
// from an empty one.
func sameStrings(a, b []string) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}

// deepEqualPtr, deepEqualSlice and deepEqualMap are reflect.DeepEqual(a,
// b), skipped (with the boxing it costs) when both are nil.
func deepEqualPtr[T any](a, b *T) bool { return (a == nil && b == nil) || reflect.DeepEqual(a, b) }

func deepEqualSlice[E any](a, b []E) bool {
	return (a == nil && b == nil) || reflect.DeepEqual(a, b)
}

func deepEqualMap[K comparable, V any](a, b map[K]V) bool {
	return (a == nil && b == nil) || reflect.DeepEqual(a, b)
}

// itemsArray is p's items when given as an array (even an empty one), else
// nil.
func itemsArray(p *schema.Props) *schema.PropsOrArray {
	if p.Items != nil && p.Items.Array != nil {
		return p.Items
	}
	return nil
}

// rulesKey is a key that equal rule lists share.
func rulesKey(rules []schema.ValidationRule) string {
	var b strings.Builder
	for i := range rules {
		r := &rules[i]
		for _, f := range [...]string{r.Rule, r.Message, r.MessageExpression, r.FieldPath} {
			b.WriteString(strconv.Itoa(len(f)))
			b.WriteByte(':')
			b.WriteString(f)
		}
	}
	return b.String()
}

// equalRules reports whether two rule lists are equal, field by field.
func equalRules(a, b []schema.ValidationRule) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Rule != y.Rule || x.Message != y.Message || x.MessageExpression != y.MessageExpression ||
			x.FieldPath != y.FieldPath || !equalPtr(x.Reason, y.Reason) || !equalPtr(x.OptionalOldSelf, y.OptionalOldSelf) {
			return false
		}
	}
	return true
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// expressionCost is an expression's cost times the node's cardinality:
// the schema's bound when the path from the root is bounded, else the
// number of times the node's smallest value fits in a request.
func (n *Node) expressionCost(cost, ruleCardinality uint64) uint64 {
	if n.card != nil {
		return mulCapped(cost, *n.card)
	}
	return mulCapped(cost, ruleCardinality)
}

func (c *SchemaCheck) observe(path *field.Path, cost uint64) {
	if math.MaxUint64-c.total < cost {
		c.total = math.MaxUint64
	} else {
		c.total += cost
	}
	if cost < StaticEstimatedCRDCostLimit/100 {
		return
	}
	c.expensive = append(c.expensive, ruleCost{path, cost})
	sort.SliceStable(c.expensive, func(i, j int) bool { return c.expensive[i].cost > c.expensive[j].cost })
	if len(c.expensive) > 4 {
		c.expensive = c.expensive[:4]
	}
}

// Finish returns the errors of the schema's total estimated cost; rootPath
// is the schema's openAPIV3Schema.
func (c *SchemaCheck) Finish(rootPath *field.Path) field.ErrorList {
	if c.total <= StaticEstimatedCRDCostLimit {
		return nil
	}
	var errs field.ErrorList
	for _, e := range c.expensive {
		errs = append(errs, field.Forbidden(e.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
	}
	return append(errs, field.Forbidden(rootPath, costErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", c.total, StaticEstimatedCRDCostLimit)))
}

// costErrorMessage says by how much a cost exceeds its limit.
func costErrorMessage(name string, cost, limit uint64) string {
	f := float64(cost) / float64(limit)
	var factor string
	switch {
	case f > 100:
		factor = "more than 100x"
	case f < 1.5:
		factor = fmt.Sprintf("%fx", f)
	default:
		factor = fmt.Sprintf("%.1fx", f)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", name, factor)
}

// nodeHasRules reports whether a parsed schema node has CEL rules.
func nodeHasRules(p *schema.Props) bool { return p != nil && len(p.XValidations) > 0 }
