// Package revdiff finds the changes between the structural schemas of one
// CRD version in two revisions of the CRD, and proposes for each the probes
// that show what the apiserver does about it: values (or absences) the old
// schema accepts at the changed field and the new one may not. It only
// proposes; the root package runs every probe through the engine (storage
// under the old revision, read, create and update under the new one) and
// classifies the change by what happens. It links no CEL.
//
// Every change kind is found by its own method of the walker (one per
// kind, run on every pair of nodes the two schemas share); loosenings are
// not reported, except the removal of a default.
package revdiff

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/crdschema/crdschema/internal/sample"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// StepKind says how a Step descends from a node.
type StepKind uint8

const (
	// Prop is a property of an object node.
	Prop StepKind = iota
	// Item is the items of a list node.
	Item
	// Value is the additionalProperties of a map node.
	Value
)

// Step is one step from a schema node to a child.
type Step struct {
	Kind StepKind
	// Name is the property name of a Prop step.
	Name string
}

// Path is where a node sits below the schema's root.
type Path []Step

// String writes the path as the apiserver writes field paths, with [*] for
// any list item or map value: spec.containers[*].name.
func (p Path) String() string {
	var b strings.Builder
	for _, st := range p {
		if st.Kind != Prop {
			b.WriteString("[*]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(st.Name)
	}
	return b.String()
}

// child is p with st appended, in a slice of its own.
func (p Path) child(st Step) Path {
	out := make(Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, st)
}

// Probe is one edit of an object valid under the old schema that may
// show a change: Value set at the change's path, or (Delete) the field
// removed from its parent, or (Keep) the object left as generated.
type Probe struct {
	Value  any
	Delete bool
	Keep   bool
}

// Change is one change of a version's schema.
type Change struct {
	// Kind names the change (see the root package's Change.Kind).
	Kind string
	// Path is the changed node.
	Path Path
	// Detail says what changed in the schema: "maxLength 63 → 10".
	Detail string
	// Rule is the new rule of a rule-added or rule-changed change (the
	// errors it can cause are its own: its message, its
	// messageExpression's, "failed rule: <rule>", its runtime errors).
	Rule schema.ValidationRule
	// Probes are the edits to try, best first; none when no probe can be
	// built.
	Probes []Probe
	// Constructive is set when the probes are built to break the new
	// schema (a removed enum value, a string one longer than the new
	// maxLength): when the engine accepts them all, the change is safe.
	// Otherwise (sampled values for a pattern or a CEL rule), probes the
	// engine accepts prove nothing, and the class is StaticClass.
	Constructive bool
	// StaticClass is the class to report when no probe decides, with
	// StaticWhy saying why it is the likely one.
	StaticClass, StaticWhy string
}

// maxSamples is how many sampled values a non-constructive change tries.
const maxSamples = 6

// Diff returns the changes from old to new, the schemas of one version in
// two revisions, in walk order (the caller sorts). seed fixes the sampled
// probe values. The root's apiVersion, kind and metadata are not compared
// (the apiserver handles them itself).
func Diff(old, new *structural.Schema, seed uint64) []Change {
	if old == nil || new == nil {
		return nil
	}
	w := &walker{seed: seed}
	w.detectors = w.checks()
	w.node(nil, old, new)
	return w.out
}

// walker collects the changes of one pair of schemas.
type walker struct {
	seed      uint64
	calls     uint64
	out       []Change
	detectors []func(Path, *structural.Schema, *structural.Schema) bool
}

// rand is a source for one change's sampled values: the same for the same
// schemas and seed.
func (w *walker) rand() *rand.Rand {
	w.calls++
	return rand.New(rand.NewPCG(w.seed, w.calls))
}

// add records a change.
func (w *walker) add(c Change) { w.out = append(w.out, c) }

// checks are the walker's detectors, one per change kind, each run on
// every pair of nodes at the same path. A detector that reports a change
// below which comparing makes no sense (the type changed) returns false.
func (w *walker) checks() []func(Path, *structural.Schema, *structural.Schema) bool {
	return []func(Path, *structural.Schema, *structural.Schema) bool{
		w.typeChanged,
		w.enumNarrowed,
		w.requiredAdded,
		w.numberBounds,
		w.lengthBounds,
		w.itemBounds,
		w.propertyBounds,
		w.multipleOf,
		w.patternChanged,
		w.formatChanged,
		w.defaultChanged,
		w.nullableRemoved,
		w.preserveRemoved,
		w.listTypeChanged,
		w.mapTypeChanged,
		w.rulesChanged,
		w.embeddedChanged,
		w.intOrStringRemoved,
	}
}

// node compares two nodes at path and descends into their children.
func (w *walker) node(path Path, o, n *structural.Schema) {
	if o == nil || n == nil {
		return
	}
	descend := true
	for _, check := range w.detectors {
		if !check(path, o, n) {
			descend = false
		}
	}
	if !descend {
		return
	}
	w.fieldsRemoved(path, o, n)
	for _, k := range slices.Sorted(maps.Keys(o.Properties)) {
		if len(path) == 0 && isRootField(k) {
			continue
		}
		if np, ok := n.Properties[k]; ok {
			w.node(path.child(Step{Kind: Prop, Name: k}), o.Properties[k], np)
		}
	}
	if o.Items != nil && n.Items != nil {
		w.node(path.child(Step{Kind: Item}), o.Items, n.Items)
	}
	if oa, na := apSchema(o), apSchema(n); oa != nil && na != nil {
		w.node(path.child(Step{Kind: Value}), oa, na)
	}
}

// apSchema is a node's additionalProperties schema, nil without one.
func apSchema(s *structural.Schema) *structural.Schema {
	if s.AdditionalProperties == nil {
		return nil
	}
	return s.AdditionalProperties.Schema
}

// samples are up to maxSamples values the old node may hold, as probes.
func (w *walker) samples(o *structural.Schema) []Probe {
	var out []Probe
	r := w.rand()
	for i := 0; i < maxSamples; i++ {
		if v, ok := sample.Value(o, r); ok {
			out = append(out, Probe{Value: v})
		}
	}
	return out
}

// quote writes a schema value for a Detail.
func quote(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}
