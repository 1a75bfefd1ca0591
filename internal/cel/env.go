package cel

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"

	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/library"
)

// The apiserver builds two CEL environments from one list of versioned
// options: one for expressions being written now (a CRD create checks
// every rule with it), limited to what the cluster's compatibility version
// (1.36 for a 1.37 apiserver) offers, and one for expressions already
// stored (the runtime validator compiles with it), which holds every option
// not removed. The options here are that list for Kubernetes 1.37; it
// belongs to the pinned k8s.io/apiserver version and must be revised with
// it.

// compatibilityMinor is the minor version of Kubernetes 1.x whose
// environment new expressions get: the minimum compatibility version of a
// 1.37 apiserver.
const compatibilityMinor = 36

// versioned is a set of environment options introduced in 1.introduced and,
// when removed is non-zero, removed in 1.removed.
type versioned struct {
	introduced, removed uint
	env                 []celgo.EnvOption
	program             []celgo.ProgramOption
}

func baseOptions() []versioned {
	return []versioned{
		{
			introduced: 0,
			env: []celgo.EnvOption{
				celgo.HomogeneousAggregateLiterals(),
				celgo.EagerlyValidateDeclarations(true),
				celgo.DefaultUTCTimeZone(true),
				library.URLs(),
				library.Regex(),
				celgo.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
			},
			program: []celgo.ProgramOption{
				celgo.EvalOptions(celgo.OptOptimize, celgo.OptTrackCost),
				celgo.CostLimit(celconfig.PerCallLimit),
				celgo.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
			},
		},
		{introduced: 0, removed: 37, env: []celgo.EnvOption{library.Lists(library.ListsVersion(0))}},
		{introduced: 27, env: []celgo.EnvOption{library.Authz()}},
		{introduced: 28, env: []celgo.EnvOption{
			celgo.CrossTypeNumericComparisons(true),
			celgo.OptionalTypes(),
			library.Quantity(),
		}},
		{introduced: 29, env: []celgo.EnvOption{celgo.ASTValidators(
			celgo.ValidateDurationLiterals(),
			celgo.ValidateTimestampLiterals(),
			celgo.ValidateRegexLiterals(),
			celgo.ValidateHomogeneousAggregateLiterals(),
		)}},
		{introduced: 0, removed: 29, env: []celgo.EnvOption{ext.Strings(ext.StringsVersion(0))}},
		{introduced: 29, env: []celgo.EnvOption{ext.Strings(ext.StringsVersion(2))}},
		{introduced: 29, env: []celgo.EnvOption{ext.Sets()}},
		{introduced: 30, env: []celgo.EnvOption{library.IP(), library.CIDR()}},
		{introduced: 31, env: []celgo.EnvOption{library.Format()}},
		{introduced: 31, env: []celgo.EnvOption{library.AuthzSelectors()}},
		{introduced: 32, env: []celgo.EnvOption{ext.TwoVarComprehensions()}},
		{introduced: 33, env: []celgo.EnvOption{library.SemverLib(library.SemverVersion(1))}},
		{introduced: 34, env: []celgo.EnvOption{ext.Lists(ext.ListsVersion(3))}},
		{introduced: 37, env: []celgo.EnvOption{library.Lists(library.ListsVersion(1))}},
		{introduced: 0, program: []celgo.ProgramOption{celgo.CostTracking(&library.CostEstimator{})}},
	}
}

// allVersions stands for the stored-expressions environment's version:
// later than any option's introduction or removal.
const allVersions = ^uint(0)

// selects reports whether an environment for Kubernetes 1.minor has o.
func (o versioned) selects(minor uint) bool {
	return minor >= o.introduced && (o.removed == 0 || minor < o.removed)
}

// library bundles compile and program options as one cel.Library, the way
// the apiserver adds each step of its environment.
type lib struct {
	env     []celgo.EnvOption
	program []celgo.ProgramOption
}

func (l *lib) CompileOptions() []celgo.EnvOption     { return l.env }
func (l *lib) ProgramOptions() []celgo.ProgramOption { return l.program }

func optionsFor(minor uint, opts []versioned) celgo.EnvOption {
	l := &lib{}
	for _, o := range opts {
		if o.selects(minor) {
			l.env = append(l.env, o.env...)
			l.program = append(l.program, o.program...)
		}
	}
	return celgo.Lib(l)
}

// envKind selects one of the two base environments.
type envKind int

const (
	// newExpressions is the environment a CRD create compiles its rules
	// with.
	newExpressions envKind = iota
	// storedExpressions is the environment the runtime validator
	// compiles with.
	storedExpressions
)

var (
	baseOnce sync.Once
	baseEnvs [2]*celgo.Env
	// noTypes are, for each kind, the apiserver's type provider with no
	// types of its own over the base environment's: what a node's
	// provider (selfTypes) leaves to others.
	noTypes [2]*apiservercel.DeclTypeProvider
	baseErr error
)

// baseEnv returns the shared base environment of a kind. Building it takes
// milliseconds, so it is built once per process.
func baseEnv(kind envKind) (*celgo.Env, error) {
	baseOnce.Do(func() {
		opts := baseOptions()
		for i, minor := range [2]uint{compatibilityMinor, allVersions} {
			e, err := celgo.NewEnv()
			if err == nil {
				e, err = e.Extend(optionsFor(minor, opts))
			}
			if err == nil {
				e, err = sharedTypes(e)
			}
			var others *apiservercel.DeclTypeProvider
			if err == nil {
				others, err = noTypesOver(e)
			}
			if err != nil {
				baseErr = err
				return
			}
			baseEnvs[i], noTypes[i] = e, others
		}
	})
	if baseErr != nil {
		return nil, baseErr
	}
	return baseEnvs[kind], nil
}

// noTypesOver is the apiserver's type provider with no types of its own
// over e's, recognising keywords as field names as every environment of a
// 1.31 or later apiserver does.
func noTypesOver(e *celgo.Env) (*apiservercel.DeclTypeProvider, error) {
	p := apiservercel.NewDeclTypeProvider()
	p.SetRecognizeKeywordAsFieldName(true)
	return p.WithTypeProvider(e.CELTypeProvider())
}

// sharedTypes returns e with its type registry behind a wrapper: cel-go's
// Extend copies an environment's provider when it is a *types.Registry, and
// every checkEnv extends the base environment, only to replace the copy
// with a provider of its own over it (12% of building an environment).
// Behind the wrapper, the environments' providers share the base registry,
// which nothing changes once the base environment is built: a checkEnv
// adds variables and a provider of its own, never types to the registry.
func sharedTypes(e *celgo.Env) (*celgo.Env, error) {
	reg, ok := e.CELTypeProvider().(*types.Registry)
	if !ok {
		return e, nil
	}
	w := registryView{reg}
	return e.Extend(celgo.CustomTypeProvider(w), celgo.CustomTypeAdapter(w))
}

// registryView is a type registry that cel-go does not take for one, and so
// does not copy.
type registryView struct{ *types.Registry }

// A node's environment, as the apiserver builds it, is the base
// environment extended with self and oldSelf declared as the node's CEL
// type, named with a name generated for the node, and a provider of that
// type's named types. Extending the base environment makes cel-go add
// every function declaration to a new checker again (half a million
// instructions, for each of the 380 nodes with rules a load of every corpus
// CRD compiles). What a check reads of a node's environment is only the
// declared types of self and oldSelf and the provider's answers; the nodes
// whose types have the same shape (self named the same way: the name for
// an object, a list or map of a named object, a scalar type) declare the
// same variables when given the same name. So nodes of one shape share
// environments (checkEnv), each with a generated name, whose provider
// answers, while a node's expression is checked under the environment's
// lock, for that node's types (selfTypes) as its own environment's would.
// What else uses an environment reads nothing the current node decides:
// cost estimation reads only the checked expression, and making a program
// asks the provider only for the names a checked expression refers to
// (types it declares none of: an expression could name self's type only
// by copying the name from an earlier message of the process, and is then
// checked in an environment of another name, see acquireEnv) and for
// field accessors (which selfTypes never gives). A shape has as many
// environments as checks ran in it at once, each kept as long as the
// process, as the base environments are (about 20 KB of heap each). The
// shapes are few in practice (the corpus has a dozen) but not bounded
// (nesting lists and maps d deep, with rules at each level, makes d): the
// environments of at most maxKeptShapes shapes are kept, those of any
// other shape are built for one check and dropped, so that a process fed
// CRDs without end keeps a bounded heap.

// checkEnv is one shared environment of a shape.
type checkEnv struct {
	// mu is held while an expression is checked in env.
	mu  sync.Mutex
	env *celgo.Env
	// name is the name of self's type in env.
	name  string
	types *currentTypes
}

// currentTypes is the type provider of a checkEnv: the types of the node
// being checked (cur, nil between checks), every other name left to
// others.
type currentTypes struct {
	cur    atomic.Pointer[selfTypes]
	others *apiservercel.DeclTypeProvider
}

// envKey identifies the environments of a shape: self of CEL type shape,
// named "self", oldSelf optional or not.
type envKey struct {
	kind     envKind
	shape    string
	optional bool
}

// envPool holds the environments of one shape.
type envPool struct {
	mu   sync.Mutex
	envs []*checkEnv
}

var checkEnvs sync.Map // envKey → *envPool

// maxKeptShapes bounds the shapes whose environments checkEnvs keeps
// (keptShapes counts them; checks racing to add the last ones may add a
// few more). A variable for the tests.
var maxKeptShapes int32 = 256

var keptShapes atomic.Int32

// poolOf returns the environments kept for the shape k; nil when k is not
// kept and no more shapes may be.
func poolOf(k envKey) *envPool {
	if v, ok := checkEnvs.Load(k); ok {
		return v.(*envPool)
	}
	if keptShapes.Load() >= maxKeptShapes {
		return nil
	}
	v, loaded := checkEnvs.LoadOrStore(k, &envPool{})
	if !loaded {
		keptShapes.Add(1)
	}
	return v.(*envPool)
}

// shapeOf is the shape of a node's self of CEL type decl.
func shapeOf(decl *apiservercel.DeclType) string { return namedCELType(decl, "self").String() }

// inEnv calls f with an environment of a kind in which self is of the CEL
// type decl, whose shape is shape (oldSelf of the same type, or an
// optional of it), held for f alone: f checks text in it as in the node's
// own environment.
func inEnv(kind envKind, decl *apiservercel.DeclType, shape string, optional bool, text string, f func(*celgo.Env)) error {
	e, err := acquireEnv(envKey{kind, shape, optional}, decl, text)
	if err != nil {
		return err
	}
	defer e.mu.Unlock()
	e.types.cur.Store(newSelfTypes(decl, e.name, e.types.others))
	defer e.types.cur.Store(nil)
	f(e.env)
	return nil
}

// acquireEnv returns a locked environment of k to check text in, built
// when every one is in use; decl is the type of a node of that shape. An
// environment whose name text contains would let text name self's type,
// which the apiserver's name, new for each compilation, never does (the
// name is in an earlier message of the process): text then gets an
// environment that is not kept, as does a shape beyond maxKeptShapes.
func acquireEnv(k envKey, decl *apiservercel.DeclType, text string) (*checkEnv, error) {
	pool := poolOf(k)
	if pool == nil {
		return lockedEnv(k, decl)
	}
	pool.mu.Lock()
	defer pool.mu.Unlock()
	keep := true
	for _, e := range pool.envs {
		if strings.Contains(text, e.name) {
			keep = false
		} else if e.mu.TryLock() {
			return e, nil
		}
	}
	e, err := lockedEnv(k, decl)
	if err == nil && keep {
		pool.envs = append(pool.envs, e)
	}
	return e, err
}

// lockedEnv builds an environment of k (see newCheckEnv), locked.
func lockedEnv(k envKey, decl *apiservercel.DeclType) (*checkEnv, error) {
	e, err := newCheckEnv(k, decl)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	return e, nil
}

// newCheckEnv builds an environment of k; decl is the type of a node of
// that shape. Its self type gets a name of the apiserver's form, generated
// from the time, so that no rule can depend on it.
func newCheckEnv(k envKey, decl *apiservercel.DeclType) (*checkEnv, error) {
	base, err := baseEnv(k.kind)
	if err != nil {
		return nil, err
	}
	e := &checkEnv{name: fmt.Sprintf("selfType%d", time.Now().Nanosecond()), types: &currentTypes{others: noTypes[k.kind]}}
	self := namedCELType(decl, e.name)
	oldSelf := self
	if k.optional {
		oldSelf = types.NewOptionalType(self)
	}
	opts := []celgo.EnvOption{
		celgo.Variable(scopedVar, self),
		celgo.Variable(oldScopedVar, oldSelf),
		celgo.CustomTypeProvider(e.types),
		celgo.CustomTypeAdapter(e.types),
	}
	if e.env, err = base.Extend(celgo.Lib(&lib{env: opts})); err != nil {
		return nil, err
	}
	return e, nil
}

// FindStructType and FindStructFieldType answer for the node being
// checked, when one is.

func (p *currentTypes) FindStructType(typeName string) (*types.Type, bool) {
	if c := p.cur.Load(); c != nil {
		return c.FindStructType(typeName)
	}
	return p.others.FindStructType(typeName)
}

func (p *currentTypes) FindStructFieldType(typeName, fieldName string) (*types.FieldType, bool) {
	if c := p.cur.Load(); c != nil {
		return c.FindStructFieldType(typeName, fieldName)
	}
	return p.others.FindStructFieldType(typeName, fieldName)
}

// EnumValue, FindIdent, FindStructFieldNames, NewValue and NativeToValue
// know no self types.

func (p *currentTypes) EnumValue(enumName string) ref.Val { return p.others.EnumValue(enumName) }

func (p *currentTypes) FindIdent(identName string) (ref.Val, bool) {
	return p.others.FindIdent(identName)
}

func (p *currentTypes) FindStructFieldNames(typeName string) ([]string, bool) {
	return p.others.FindStructFieldNames(typeName)
}

func (p *currentTypes) NewValue(typeName string, fields map[string]ref.Val) ref.Val {
	return p.others.NewValue(typeName, fields)
}

func (p *currentTypes) NativeToValue(value any) ref.Val { return p.others.NativeToValue(value) }
