package cel

import (
	"sync"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
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
// every node's environment extends the base environment, only to replace the
// copy with its own declared-type provider over it (12% of building a node's
// environment). Behind the wrapper, the nodes' providers share the base
// registry, which nothing changes once the base environment is built: a
// node's environment adds variables and a provider of its own, never types
// to the registry.
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

// selfEnvs are the environments of one schema node's rules: self typed as
// the node, and oldSelf as the node or, for optionalOldSelf rules, as an
// optional of it.
type selfEnvs struct {
	kind     envKind
	types    *selfTypes
	plain    *celgo.Env
	optional *celgo.Env
	optErr   error
	optOnce  sync.Once
}

// nodeTypes are the types of a node of CEL type self in an environment of
// a kind, self named name (see selfTypes).
func nodeTypes(kind envKind, self *apiservercel.DeclType, name string) (*selfTypes, error) {
	if _, err := baseEnv(kind); err != nil {
		return nil, err
	}
	return newSelfTypes(self, name, noTypes[kind]), nil
}

// extendEnv declares self (and oldSelf, of oldSelfType) on a base
// environment, with the node's types p.
func extendEnv(kind envKind, p *selfTypes, oldSelfType *celgo.Type) (*celgo.Env, error) {
	base, err := baseEnv(kind)
	if err != nil {
		return nil, err
	}
	opts := []celgo.EnvOption{
		celgo.Variable(scopedVar, p.self),
		celgo.Variable(oldScopedVar, oldSelfType),
		celgo.CustomTypeProvider(p),
		celgo.CustomTypeAdapter(p),
	}
	return base.Extend(celgo.Lib(&lib{env: opts}))
}
