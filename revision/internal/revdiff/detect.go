package revdiff

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// The static classes, the root package's Change.Class values.
const (
	classBreaking  = "breaking"
	classRatcheted = "ratcheted"
	classDataLoss  = "data-loss"
	classSafe      = "safe"
	// classDefaultChanged: the same manifest stores another value.
	classDefaultChanged = "default-changed"
)

// props is a node's schema as written (never nil).
func props(s *structural.Schema) *schema.Props {
	if s.Source == nil {
		return &schema.Props{}
	}
	return s.Source
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// typeChanged: a value of the old type is of the wrong type now. Nothing
// below is compared.
func (w *walker) typeChanged(path Path, o, n *structural.Schema) bool {
	if n.Type == "" || o.Type == n.Type || o.IntOrString || n.IntOrString {
		return true
	}
	w.add(Change{Kind: "type-changed", Path: path, Detail: fmt.Sprintf("type %s → %s", orAny(o.Type), n.Type),
		Probes: w.samples(o), Constructive: true, StaticClass: classBreaking,
		StaticWhy: "a value of the old type fails the new type"})
	return false
}

func orAny(t string) string {
	if t == "" {
		return "any"
	}
	return t
}

// enumNarrowed: values the old schema allowed are not in the new enum.
func (w *walker) enumNarrowed(path Path, o, n *structural.Schema) bool {
	ne := props(n).Enum
	if len(ne) == 0 {
		return true
	}
	inNew := func(v any) bool {
		return slices.ContainsFunc(ne, func(e schema.JSON) bool { return jsonvalue.Equal(e.Value, v) })
	}
	var removed []Probe
	var names []string
	detail := "enum values removed: "
	if oe := props(o).Enum; len(oe) > 0 {
		for _, e := range oe {
			if !inNew(e.Value) {
				removed = append(removed, Probe{Value: e.Value})
				names = append(names, quote(e.Value))
			}
		}
	} else {
		detail = "enum added: "
		for _, e := range ne {
			names = append(names, quote(e.Value))
		}
		for _, s := range w.samples(o) {
			if !inNew(s.Value) {
				removed = append(removed, s)
			}
		}
		if len(removed) == 0 {
			return true
		}
	}
	if len(names) == 0 {
		return true
	}
	w.add(Change{Kind: "enum-narrowed", Path: path, Detail: detail + strings.Join(names, ", "),
		Probes: removed, Constructive: true, StaticClass: classRatcheted,
		StaticWhy: "enum is ratcheted for unchanged values"})
	return true
}

// requiredAdded: an object that omits the field now fails. Where the old
// schema's values are not objects (a type changed to object), no value
// it accepts is refused for a missing field: that is the type change's.
func (w *walker) requiredAdded(path Path, o, n *structural.Schema) bool {
	notObjects := o.Type != "" && o.Type != "object" && !o.IntOrString && !o.PreserveUnknownFields
	for _, k := range props(n).Required {
		if slices.Contains(props(o).Required, k) {
			continue
		}
		c := Change{Kind: "required-added", Path: path.child(Step{Kind: Prop, Name: k}), Detail: "required: " + k,
			Probes: []Probe{{Delete: true}}, Constructive: true, StaticClass: classBreaking,
			StaticWhy: "an object without the field fails"}
		if notObjects {
			c.Probes, c.Constructive, c.StaticClass = nil, false, classSafe
			c.StaticWhy = "the old schema's values here are of type " + o.Type + ", never objects: none lacks the field (they fail the type change)"
		}
		w.add(c)
	}
	return true
}

// bound is one tightened bound and the probes that cross it; implied,
// when the old schema already refuses every value it does (said why).
// A count bound (countFound) also carries its new value (limit), and
// whether it is the max<what> (upper) or the min<what>.
type bound struct {
	detail  string
	probes  []Probe
	implied string
	upper   bool
	limit   int64
}

// numberBounds: minimum, maximum and their exclusive flags.
func (w *walker) numberBounds(path Path, o, n *structural.Schema) bool {
	op, np := props(o), props(n)
	var found []bound
	// Beyond the new limit first; then the old limits and samples, for a
	// new limit that leaves no value the old schema accepts beyond it.
	old := oldNumbers(n.Type, op)
	if lim, ok := tighterLimit(op.Maximum, np.Maximum, op.ExclusiveMaximum, np.ExclusiveMaximum, 1); ok {
		detail := limitDetail("maximum", op.Maximum, np.Maximum, op.ExclusiveMaximum, np.ExclusiveMaximum)
		found = append(found, bound{detail: detail, probes: append(numberProbes(n.Type, lim, np.ExclusiveMaximum, 1), old...),
			implied: enumAdmits(o, "the new maximum", numberAdmits(np, true))})
	}
	if lim, ok := tighterLimit(op.Minimum, np.Minimum, op.ExclusiveMinimum, np.ExclusiveMinimum, -1); ok {
		detail := limitDetail("minimum", op.Minimum, np.Minimum, op.ExclusiveMinimum, np.ExclusiveMinimum)
		found = append(found, bound{detail: detail, probes: append(numberProbes(n.Type, lim, np.ExclusiveMinimum, -1), old...),
			implied: enumAdmits(o, "the new minimum", numberAdmits(np, false))})
	}
	w.addBounds(path, found)
	return true
}

// oldNumbers are the old schema's own limits as probes (the old
// schema rejects an exclusive one; the engine finds out).
func oldNumbers(typ string, op *schema.Props) []Probe {
	var out []Probe
	for _, l := range []*float64{op.Minimum, op.Maximum} {
		switch {
		case l == nil:
		case typ != "number" && *l == math.Trunc(*l) && math.Abs(*l) <= 1<<53:
			out = append(out, Probe{Value: int64(*l)})
		case typ != "integer":
			out = append(out, Probe{Value: *l})
		}
	}
	return out
}

// tighterLimit reports whether the new limit (dir 1: a maximum, -1: a
// minimum) excludes values the old one allowed, and returns it.
func tighterLimit(o, n *float64, oex, nex bool, dir float64) (float64, bool) {
	if n == nil {
		return 0, false
	}
	if o == nil {
		return *n, true
	}
	if *n*dir < *o*dir || (*n == *o && nex && !oex) {
		return *n, true
	}
	return 0, false
}

func limitDetail(name string, o, n *float64, oex, nex bool) string {
	ex := func(e bool) string {
		if e {
			return " (exclusive)"
		}
		return ""
	}
	if o == nil {
		return changeDetail(name, "", num(*n)+ex(nex), false)
	}
	return changeDetail(name, num(*o)+ex(oex), num(*n)+ex(nex), true)
}

// changeDetail is "name to added", or "name from → to" when there was
// an old value.
func changeDetail(name, from, to string, hadOld bool) string {
	if !hadOld {
		return name + " " + to + " added"
	}
	return name + " " + from + " → " + to
}

// numberProbes are values just beyond a limit (dir 1: above a maximum).
func numberProbes(typ string, lim float64, exclusive bool, dir float64) []Probe {
	var vals []float64
	if exclusive {
		vals = append(vals, lim)
	}
	vals = append(vals, math.Floor(lim)+dir, lim+dir*0.5, lim+dir*1000)
	var out []Probe
	for _, v := range vals {
		if typ == "integer" || (typ == "" && v == math.Trunc(v)) {
			if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
				continue
			}
			out = append(out, Probe{Value: int64(v)})
			continue
		}
		out = append(out, Probe{Value: v})
	}
	return out
}

// lengthBounds: minLength and maxLength. Under an old pattern, the
// probes start with the shortest string the pattern matches across the
// new bound; a bound no string of the old pattern crosses is implied.
func (w *walker) lengthBounds(path Path, o, n *structural.Schema) bool {
	op, np := props(o), props(n)
	found := countFound("Length", 1<<16, [2]*int64{op.MaxLength, np.MaxLength}, [2]*int64{op.MinLength, np.MinLength},
		func(size int) []Probe { return w.stringProbes(o, size) })
	for i := range found {
		b := &found[i]
		what := "the new minLength"
		if b.upper {
			what = "the new maxLength"
		}
		if b.implied = enumAdmits(o, what, lengthAdmits(np, b.upper)); b.implied != "" || op.Pattern == "" {
			continue
		}
		lo, hi := lengthRange(op)
		if b.upper {
			lo = max(lo, int(b.limit)+1)
		} else {
			hi = int(b.limit) - 1
		}
		var answer patternAnswer
		if b.probes, answer = patternProbe(b.probes, op.Pattern, "", lo, hi); answer == patternNone {
			b.implied = "the old pattern " + strconv.Quote(op.Pattern) + " matches no string the new bound refuses"
		}
	}
	w.addBounds(path, found)
	return true
}

// lengthRange is the range of lengths a schema allows (hi -1: no bound).
func lengthRange(p *schema.Props) (lo, hi int) {
	hi = -1
	if p.MinLength != nil {
		lo = int(*p.MinLength)
	}
	if p.MaxLength != nil {
		hi = int(*p.MaxLength)
	}
	return lo, hi
}

// patternProbe is probes with, first, the shortest string of lo to hi
// runes (hi < 0: no bound) that pattern a matches and pattern b does not
// ("" for b: none; patternWitness), and whether there is one: probes
// unchanged when there is none (an empty range of lengths has none) or
// the search cannot tell.
func patternProbe(probes []Probe, a, b string, lo, hi int) ([]Probe, patternAnswer) {
	if hi >= 0 && lo > hi {
		return probes, patternNone
	}
	witness, answer := patternWitness(a, b, lo, hi)
	if answer == patternFound {
		probes = append([]Probe{{Value: witness}}, probes...)
	}
	return probes, answer
}

// countBounds records a tightened max<what> (when the new one is below
// limit) and min<what> (old, new pointers each), with probes of one more
// and one fewer than the new bound; max first.
func (w *walker) countBounds(path Path, what string, limit int64, maxes, mins [2]*int64, probes func(size int) []Probe) {
	w.addBounds(path, countFound(what, limit, maxes, mins, probes))
}

// countFound are the tightened bounds countBounds records.
func countFound(what string, limit int64, maxes, mins [2]*int64, probes func(size int) []Probe) []bound {
	var found []bound
	if tighterMax(maxes[0], maxes[1]) && *maxes[1] < limit {
		found = append(found, bound{detail: countDetail("max"+what, maxes[0], maxes[1]), probes: probes(int(*maxes[1]) + 1), upper: true, limit: *maxes[1]})
	}
	if tighterMin(mins[0], mins[1]) {
		found = append(found, bound{detail: countDetail("min"+what, mins[0], mins[1]), probes: probes(int(*mins[1]) - 1), limit: *mins[1]})
	}
	return found
}

func tighterMax(o, n *int64) bool { return n != nil && (o == nil || *n < *o) }

func tighterMin(o, n *int64) bool { return n != nil && *n > 0 && (o == nil || *n > *o) }

func countDetail(name string, o, n *int64) string {
	if o == nil {
		return changeDetail(name, "", strconv.FormatInt(*n, 10), false)
	}
	return changeDetail(name, strconv.FormatInt(*o, 10), strconv.FormatInt(*n, 10), true)
}

// stringProbes are strings of length size: runs of one character, and
// the old schema's sampled strings cut or stretched to it.
func (w *walker) stringProbes(o *structural.Schema, size int) []Probe {
	out := []Probe{{Value: strings.Repeat("a", size)}, {Value: strings.Repeat("0", size)}}
	for _, s := range w.samples(o) {
		str, ok := s.Value.(string)
		if !ok || str == "" {
			continue
		}
		r := []rune(strings.Repeat(str, size/len([]rune(str))+1))
		out = append(out, Probe{Value: string(r[:size])})
	}
	return out
}

// itemBounds: minItems and maxItems.
func (w *walker) itemBounds(path Path, o, n *structural.Schema) bool {
	op, np := props(o), props(n)
	w.countBounds(path, "Items", 1<<12, [2]*int64{op.MaxItems, np.MaxItems}, [2]*int64{op.MinItems, np.MinItems},
		func(size int) []Probe { return w.listProbes(o, size) })
	return true
}

// listProbes are lists of size items of the old schema. The items of a
// set or a map list are distinct (itemIdentity), as the old revision
// wants them: a list with a duplicate is never stored, and a long one
// of sampled short keys nearly always has one. A list that cannot get
// size distinct items within 4×size draws is no probe.
func (w *walker) listProbes(o *structural.Schema, size int) []Probe {
	if o.Items == nil {
		return nil
	}
	var out []Probe
	for try := 0; try < 2; try++ {
		r := w.rand()
		items := make([]any, 0, size)
		seen := map[string]bool{}
		for draws := 0; len(items) < size && draws < 4*size; draws++ {
			v, ok := sampleValue(o.Items, r)
			if !ok {
				break
			}
			if id, distinct := itemIdentity(o, v); distinct {
				if seen[id] {
					continue
				}
				seen[id] = true
			}
			items = append(items, v)
		}
		if len(items) == size {
			out = append(out, Probe{Value: items})
		}
	}
	return out
}

// itemIdentity is what must differ between two items of a list with
// schema o: the item itself in a set, its map keys' values in a map list
// (as JSON); false for other lists, whose items may repeat.
func itemIdentity(o *structural.Schema, item any) (string, bool) {
	var id any
	switch m, isMap := item.(map[string]any); {
	case o.ListType == "set":
		id = item
	case o.ListType == "map" && isMap:
		keys := map[string]any{}
		for _, k := range o.ListMapKeys {
			if v, ok := m[k]; ok {
				keys[k] = v
			}
		}
		id = keys
	default:
		return "", false
	}
	b, err := json.Marshal(id)
	return string(b), err == nil
}

// propertyBounds: minProperties and maxProperties of a map.
func (w *walker) propertyBounds(path Path, o, n *structural.Schema) bool {
	op, np := props(o), props(n)
	w.countBounds(path, "Properties", 1<<12, [2]*int64{op.MaxProperties, np.MaxProperties}, [2]*int64{op.MinProperties, np.MinProperties},
		func(size int) []Probe { return w.mapProbes(o, size) })
	return true
}

// mapProbes are maps of size entries of the old schema's
// additionalProperties (none for other objects: their properties are not
// free to add).
func (w *walker) mapProbes(o *structural.Schema, size int) []Probe {
	ap := apSchema(o)
	if ap == nil && !o.PreserveUnknownFields {
		return nil
	}
	r := w.rand()
	m := map[string]any{}
	for i := 0; i < size; i++ {
		var v any = "value"
		if ap != nil {
			var ok bool
			if v, ok = sampleValue(ap, r); !ok {
				return nil
			}
		}
		m[fmt.Sprintf("key-%d", i)] = v
	}
	return []Probe{{Value: m}}
}

// addBounds records each tightened bound as a change.
func (w *walker) addBounds(path Path, found []bound) {
	for _, b := range found {
		if b.implied != "" {
			w.add(Change{Kind: "bounds-tightened", Path: path, Detail: b.detail, StaticClass: classSafe, StaticWhy: b.implied})
			continue
		}
		w.add(Change{Kind: "bounds-tightened", Path: path, Detail: b.detail, Probes: b.probes,
			Constructive: true, StaticClass: classRatcheted,
			StaticWhy: "value validations are ratcheted for unchanged values"})
	}
}

// multipleOf: a multipleOf added, or changed to one the old does not
// divide.
func (w *walker) multipleOf(path Path, o, n *structural.Schema) bool {
	om, nm := props(o).MultipleOf, props(n).MultipleOf
	if nm == nil || *nm == 0 {
		return true
	}
	candidates := []float64{1, 2, 3, *nm / 2, *nm * 1.5, *nm + 1}
	if om != nil {
		if q := *om / *nm; q == math.Trunc(q) {
			return true
		}
		candidates = []float64{*om, *om * 2, *om * 3, *om * 5, *om * 7}
	}
	integer := n.Type == "integer" || o.Type == "integer"
	var probes []Probe
	for _, v := range candidates {
		if q := v / *nm; q == math.Trunc(q) {
			continue
		}
		switch {
		case !integer:
			probes = append(probes, Probe{Value: v})
		case v == math.Trunc(v) && math.Abs(v) < 1<<53:
			probes = append(probes, Probe{Value: int64(v)})
		}
	}
	old := ""
	if om != nil {
		old = num(*om)
	}
	w.addBounds(path, []bound{{detail: changeDetail("multipleOf", old, num(*nm), om != nil), probes: probes}})
	return true
}

// patternChanged: a pattern added or changed. The probes are the old
// schema's sampled strings the new pattern does not match; when none is
// found, the change is classified statically.
func (w *walker) patternChanged(path Path, o, n *structural.Schema) bool {
	op, np := props(o), props(n)
	if np.Pattern == "" || np.Pattern == op.Pattern {
		return true
	}
	detail := changeDetail("pattern", strconv.Quote(op.Pattern), strconv.Quote(np.Pattern), op.Pattern != "")
	c := Change{Kind: "pattern-changed", Path: path, Detail: detail, StaticClass: classRatcheted,
		StaticWhy: "no string the old schema accepts and the new pattern rejects was found; pattern is ratcheted for unchanged values"}
	re, err := regexp.Compile(np.Pattern)
	candidates := append(w.samples(o), Probe{Value: ""}, Probe{Value: "a"}, Probe{Value: "-"}, Probe{Value: "A b/c"}, Probe{Value: "0"}, Probe{Value: strings.Repeat("a", 300)})
	for _, s := range candidates {
		if str, ok := s.Value.(string); ok && err == nil && !re.MatchString(str) {
			c.Probes = append(c.Probes, s)
		}
	}
	c.Constructive = len(c.Probes) > 0
	// A pattern added (none before) is probed as it was: the old schema's
	// strings are any, and its samples and the fixed candidates cross it.
	if lo, hi := lengthRange(op); err == nil && op.Pattern != "" {
		switch probes, answer := patternProbe(c.Probes, op.Pattern, np.Pattern, lo, hi); answer {
		case patternFound:
			c.Probes, c.Constructive = probes, true
		case patternNone:
			c.Probes, c.Constructive = nil, false
			c.StaticClass, c.StaticWhy = classSafe, "every string of the old lengths that the old pattern matches, the new pattern matches too (the two patterns' automata compared)"
		}
	}
	if err == nil {
		enumProof(&c, enumAdmits(o, "the new pattern", patternAdmits(re)))
	}
	w.add(c)
	return true
}

// enumProof makes c safe, with no probes, for the reason why gives (from
// enumAdmits: the old enum's values all pass the new constraint); c is
// unchanged when why is "".
func enumProof(c *Change, why string) {
	if why != "" {
		c.Probes, c.Constructive = nil, false
		c.StaticClass, c.StaticWhy = classSafe, why
	}
}

// formatChanged: a format added or changed. A format the apiserver does
// not know validates nothing, so probes it accepts show a safe change.
func (w *walker) formatChanged(path Path, o, n *structural.Schema) bool {
	of, nf := props(o).Format, props(n).Format
	if nf == "" || nf == of {
		return true
	}
	detail := changeDetail("format", of, nf, of != "")
	probes := append([]Probe{{Value: "not a " + nf + "!"}, {Value: "-1"}}, w.samples(o)...)
	c := Change{Kind: "format-changed", Path: path, Detail: detail, Probes: probes, Constructive: true,
		StaticClass: classRatcheted, StaticWhy: "format is ratcheted for unchanged values"}
	enumProof(&c, enumAdmits(o, "the new format", formatAdmits(nf)))
	w.add(c)
	return true
}

// defaultChanged: a default added, changed or removed. Probed with the
// field absent: a read applies the new default. Without a probe, the
// schemas alone still tell a default added (the field appears, no value
// changes: safe) from one changed or removed (a manifest leaving the
// field out stores the old default under the old revision and not under
// the new one: default-changed).
func (w *walker) defaultChanged(path Path, o, n *structural.Schema) bool {
	var detail string
	class, why := classDefaultChanged, "a create leaving the field out stores the old default under the old revision only"
	switch {
	case n.HasDefault && !o.HasDefault:
		detail = "default " + compact(n.Default) + " added"
		class, why = classSafe, "defaults apply on read and write"
	case o.HasDefault && !n.HasDefault:
		detail = "default " + compact(o.Default) + " removed"
	case n.HasDefault && !jsonvalue.Equal(o.Default, n.Default):
		detail = "default " + compact(o.Default) + " → " + compact(n.Default)
	default:
		return true
	}
	w.add(Change{Kind: "default-changed", Path: path, Detail: detail, Probes: []Probe{{Delete: true}},
		Constructive: true, StaticClass: class, StaticWhy: why})
	return true
}

// compact writes a JSON value on one line.
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// nullableRemoved: a stored null is no longer a value of the field.
func (w *walker) nullableRemoved(path Path, o, n *structural.Schema) bool {
	if !o.Nullable || n.Nullable {
		return true
	}
	w.add(Change{Kind: "nullable-removed", Path: path, Detail: "nullable removed", Probes: []Probe{{Value: nil}},
		Constructive: true, StaticClass: classDataLoss, StaticWhy: "nulls of a non-nullable field are dropped on read"})
	return true
}

// probeField is the unknown field the preserve-unknown-fields probe sets.
const probeField = "crdschemaProbe"

// preserveRemoved: unknown fields the old schema kept are pruned now.
func (w *walker) preserveRemoved(path Path, o, n *structural.Schema) bool {
	if !o.PreserveUnknownFields || n.PreserveUnknownFields {
		return true
	}
	// The unknown field's value: one of additionalProperties where the
	// node has them (every key is then known: the change is safe).
	var unknown any = "probe"
	if ap := apSchema(o); ap != nil {
		if v, ok := sampleValue(ap, w.rand()); ok {
			unknown = v
		}
	}
	var probes []Probe
	for _, s := range w.samples(o) {
		if m, ok := s.Value.(map[string]any); ok {
			m[probeField] = unknown
			probes = append(probes, Probe{Value: m})
		}
	}
	probes = append(probes, Probe{Value: map[string]any{probeField: unknown}})
	w.add(Change{Kind: "preserve-unknown-fields-removed", Path: path, Detail: "x-kubernetes-preserve-unknown-fields removed",
		Probes: probes, Constructive: true, StaticClass: classDataLoss, StaticWhy: "unknown fields are pruned on read"})
	return true
}

// listTypeChanged: a list becomes a set or a map, or its map keys change:
// items that were distinct may be duplicates now.
func (w *walker) listTypeChanged(path Path, o, n *structural.Schema) bool {
	if n.ListType != "set" && n.ListType != "map" {
		if o.ListType == "set" || o.ListType == "map" {
			w.add(Change{Kind: "list-type-changed", Path: path, Detail: "x-kubernetes-list-type " + o.ListType + " → atomic",
				StaticClass: classBreaking, StaticWhy: ssaAtomic("list", o.ListType)})
		}
		return true
	}
	if o.ListType == n.ListType && slices.Equal(o.ListMapKeys, n.ListMapKeys) {
		return true
	}
	if o.ListType == "map" && n.ListType == "map" && isSubset(o.ListMapKeys, n.ListMapKeys) {
		return true // more keys: fewer duplicates
	}
	detail := "x-kubernetes-list-type " + orAtomic(o.ListType) + " → " + n.ListType
	if o.ListType == n.ListType {
		detail = "x-kubernetes-list-map-keys [" + strings.Join(o.ListMapKeys, ", ") + "] → [" + strings.Join(n.ListMapKeys, ", ") + "]"
	}
	w.add(Change{Kind: "list-type-changed", Path: path, Detail: detail, Probes: w.duplicateProbes(o, n),
		Constructive: true, StaticClass: classBreaking, StaticWhy: "lists with duplicate items (or keys) fail"})
	return true
}

func orAtomic(t string) string {
	if t == "" {
		return "atomic"
	}
	return t
}

// isSubset reports whether every element of a is in b.
func isSubset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// duplicateProbes are two-item lists duplicate under the new list type:
// the same item twice, and (for a map) two items sharing the new keys.
func (w *walker) duplicateProbes(o, n *structural.Schema) []Probe {
	if o.Items == nil {
		return nil
	}
	var out []Probe
	r := w.rand()
	for i := 0; i < 3; i++ {
		x, ok := sampleValue(o.Items, r)
		if !ok {
			continue
		}
		out = append(out, Probe{Value: []any{x, jsonvalue.DeepCopy(x)}})
		y, ok := sampleValue(o.Items, r)
		xm, xok := x.(map[string]any)
		ym, yok := y.(map[string]any)
		if ok && xok && yok && n.ListType == "map" {
			for _, k := range n.ListMapKeys {
				if v, has := xm[k]; has {
					ym[k] = jsonvalue.DeepCopy(v)
				} else {
					delete(ym, k)
				}
			}
			out = append(out, Probe{Value: []any{x, ym}})
		}
	}
	return out
}

// ssaAtomic says what server-side apply does to a list or map that
// becomes atomic (what the apiserver merges by its field managers, not
// by validation: no object probe shows it).
func ssaAtomic(what, was string) string {
	return "server-side apply now owns the " + what + " as one value (it merged " + was + " entries per field manager): a second manager's apply of other entries conflicts, or, forced, replaces the first manager's; stored objects and their validation are unchanged"
}

// mapTypeChanged: an object whose fields server-side apply merged one by
// one (x-kubernetes-map-type granular, the default) becomes atomic.
func (w *walker) mapTypeChanged(path Path, o, n *structural.Schema) bool {
	if n.MapType == "atomic" && o.MapType != "atomic" && o.Type == "object" {
		w.add(Change{Kind: "map-type-changed", Path: path, Detail: "x-kubernetes-map-type granular → atomic",
			StaticClass: classBreaking, StaticWhy: ssaAtomic("map", "granular")})
	}
	return true
}

// rulesChanged: CEL rules (x-kubernetes-validations) added or changed.
// A rule at an index whose old rule is gone is a changed rule.
func (w *walker) rulesChanged(path Path, o, n *structural.Schema) bool {
	ors, nrs := props(o).XValidations, props(n).XValidations
	has := func(rs []schema.ValidationRule, rule string) bool {
		return slices.ContainsFunc(rs, func(r schema.ValidationRule) bool { return r.Rule == rule })
	}
	for i, r := range nrs {
		if has(ors, r.Rule) {
			continue
		}
		kind, detail := "rule-added", "rule added: "+oneLine(r.Rule)
		if i < len(ors) && !has(nrs, ors[i].Rule) {
			kind, detail = "rule-changed", "rule "+oneLine(ors[i].Rule)+" → "+oneLine(r.Rule)
		}
		probes := append([]Probe{{Keep: true}}, edgeProbes(o)...)
		c := Change{Kind: kind, Path: path, Detail: detail, Rule: r, Probes: append(probes, w.samples(o)...),
			StaticClass: classRatcheted, StaticWhy: "no value the old schema accepts and the rule rejects was found; rules without oldSelf are ratcheted for unchanged values"}
		if strings.Contains(r.Rule, "oldSelf") {
			// A transition rule runs only on updates, unratcheted: the
			// unchanged update of the probes shows what it does.
			c.Constructive = true
			c.StaticClass, c.StaticWhy = classSafe, "a transition rule (oldSelf) runs only on updates and is not ratcheted; unchanged objects pass it when it holds for self == oldSelf"
		}
		w.add(c)
	}
	return true
}

// oneLine is a rule on one line, shortened for a Detail.
func oneLine(rule string) string {
	s := strings.Join(strings.Fields(rule), " ")
	if r := []rune(s); len(r) > 120 {
		s = string(r[:117]) + "..."
	}
	return strconv.Quote(s)
}

// embeddedChanged: x-kubernetes-embedded-resource added or removed.
func (w *walker) embeddedChanged(path Path, o, n *structural.Schema) bool {
	if o.EmbeddedResource == n.EmbeddedResource {
		return true
	}
	detail := "x-kubernetes-embedded-resource added"
	if o.EmbeddedResource {
		detail = "x-kubernetes-embedded-resource removed"
	}
	w.add(Change{Kind: "embedded-resource-changed", Path: path, Detail: detail,
		Probes: append(w.samples(o), Probe{Value: map[string]any{}}), Constructive: true,
		StaticClass: classBreaking, StaticWhy: "embedded resources need apiVersion, kind and valid metadata"})
	return true
}

// intOrStringRemoved: x-kubernetes-int-or-string removed.
func (w *walker) intOrStringRemoved(path Path, o, n *structural.Schema) bool {
	if !o.IntOrString || n.IntOrString {
		return true
	}
	w.add(Change{Kind: "int-or-string-changed", Path: path, Detail: "x-kubernetes-int-or-string removed (type " + orAny(n.Type) + ")",
		Probes: []Probe{{Value: int64(1)}, {Value: "a"}, {Value: "1"}}, Constructive: true,
		StaticClass: classBreaking, StaticWhy: "a value of the other type fails"})
	return true
}

// fieldsRemoved: properties (and map values) the new schema no longer
// specifies.
func (w *walker) fieldsRemoved(path Path, o, n *structural.Schema) {
	static, why := classDataLoss, "fields the schema does not specify are pruned on read"
	if n.PreserveUnknownFields {
		static, why = classSafe, "the new schema keeps unknown fields"
	}
	for _, k := range slices.Sorted(maps.Keys(o.Properties)) {
		if _, ok := n.Properties[k]; ok || (len(path) == 0 && (k == "apiVersion" || k == "kind" || k == "metadata")) {
			continue
		}
		w.add(Change{Kind: "field-removed", Path: path.child(Step{Kind: Prop, Name: k}), Detail: "field " + k + " removed",
			Probes: w.samples(o.Properties[k]), Constructive: true, StaticClass: static, StaticWhy: why})
	}
	if oa := apSchema(o); oa != nil && apSchema(n) == nil && (n.AdditionalProperties == nil || !n.AdditionalProperties.Allows) {
		w.add(Change{Kind: "field-removed", Path: path.child(Step{Kind: Value}), Detail: "additionalProperties removed",
			Probes: w.samples(oa), Constructive: true, StaticClass: static, StaticWhy: why})
	}
}

// edgeProbes are values at the edges of a node's type, which sampled
// values rarely reach: empty and long strings, zero, negative and large
// numbers, an empty list or map.
func edgeProbes(o *structural.Schema) []Probe {
	switch o.Type {
	case "string":
		return []Probe{{Value: ""}, {Value: strings.Repeat("a", 300)}, {Value: "A b/c"}}
	case "integer":
		return []Probe{{Value: int64(0)}, {Value: int64(-1)}, {Value: int64(1) << 40}}
	case "number":
		return []Probe{{Value: 0.0}, {Value: -1.5}, {Value: 1e12}}
	case "array":
		return []Probe{{Value: []any{}}}
	case "object":
		return []Probe{{Value: map[string]any{}}}
	}
	return nil
}
