package celhint

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/sample"
	"github.com/crdschema/crdschema/structural"
)

// MaxVariants bounds the variants Variants returns.
const MaxVariants = 64

// maxPresenceFields bounds the fields whose presence is combined (2^n
// combinations).
const maxPresenceFields = 4

// Variants are values of a rule's node at the boundary of its rules
// (hints: ParseAll of them),
// as far as the node's schema allows them: built from base (the node's
// value in an object, or a sample when nil) by setting the fields the
// rules read present and absent (every combination of up to four), to the
// literals the rules compare them with and their neighbours, to every
// value of their enum, to sizes around those the rules compare, and to
// strings that pass and fail the functions the rules apply (startsWith,
// matches, isURL, ..., and a string whose split parts pass them: one per
// separator). Fields the schema does not have are left out. At most
// MaxVariants come back, each a new value (base is not changed); the
// engine still has to check them.
func Variants(node *structural.Schema, base any, hints []Hints, r *rand.Rand) []any {
	b := sampledBoundary(node, base, r)
	if b == nil {
		return nil
	}
	fields := b.oldFields(hints)
	b.presence(fields)
	for _, h := range hints {
		b.values(h)
		b.calls(h)
	}
	b.splits(hints)
	b.affixes(hints)
	b.enums(fields)
	b.pairs()
	return b.out
}

// sampledBoundary starts the variants of node from base, or from a sample
// of node (drawn from r) when base is nil; nil when there is no node.
func sampledBoundary(node *structural.Schema, base any, r *rand.Rand) *boundary {
	if node == nil {
		return nil
	}
	if base == nil {
		base, _ = sample.Value(node, r)
	}
	return &boundary{node: node, base: base, r: r, seen: map[string]bool{}}
}

// boundary collects one node's boundary probes.
type boundary struct {
	node *structural.Schema
	base any
	r    *rand.Rand
	seen map[string]bool
	out  []any
	// set are the single-field values tried (literals, enum values),
	// combined in pairs last.
	set []assignment
}

// assignment is one field set to one value.
type assignment struct {
	path  Path
	value any
}

// assign tries v at f alone, and keeps it for the pairs.
func (b *boundary) assign(f Path, x any) {
	b.set = append(b.set, assignment{f, x})
	b.with(func(v any) (any, bool) { return setHint(v, f, x, b.node, b.r), true })
}

// pairs sets two fields at once, each pair of assignments to different
// fields (a rule that constrains one field when another holds a value:
// protocol HTTPS with tls.mode Passthrough), until the probes run out.
func (b *boundary) pairs() {
	for i, a := range b.set {
		for _, c := range b.set[i+1:] {
			if a.path.String() == c.path.String() || len(b.out) == MaxVariants {
				continue
			}
			b.with(func(v any) (any, bool) {
				return setHint(setHint(v, a.path, a.value, b.node, b.r), c.path, c.value, b.node, b.r), true
			})
		}
	}
}

// add records a probe value once.
func (b *boundary) add(v any) {
	if len(b.out) == MaxVariants {
		return
	}
	key, err := json.Marshal(v)
	if err != nil || b.seen[string(key)] {
		return
	}
	b.seen[string(key)] = true
	b.out = append(b.out, v)
}

// with is a copy of the base value edited by f (false: no probe).
func (b *boundary) with(f func(v any) (any, bool)) {
	if v, ok := f(jsonvalue.DeepCopy(b.base)); ok {
		b.add(v)
	}
}

// oldFields are the fields the rules read that the schema has, first
// mention first.
func (b *boundary) oldFields(hints []Hints) []Path {
	var out []Path
	seen := map[string]bool{}
	for _, h := range hints {
		for _, f := range h.Fields {
			if len(f) == 0 || seen[f.String()] || nodeAt(b.node, f) == nil {
				continue
			}
			seen[f.String()] = true
			out = append(out, f)
		}
	}
	return out
}

// presence sets every combination of the fields present and absent
// (required fields stay present).
func (b *boundary) presence(fields []Path) {
	if len(fields) > maxPresenceFields {
		fields = fields[:maxPresenceFields]
	}
	for mask := 0; mask < 1<<len(fields); mask++ {
		b.with(func(v any) (any, bool) {
			for i, f := range fields {
				if mask&(1<<i) != 0 {
					v = b.ensure(v, f)
				} else {
					v = removeHint(v, f, b.node)
				}
			}
			return v, true
		})
	}
}

// ensure is v with a value at f: the one it holds, else one sampled from
// the schema.
func (b *boundary) ensure(v any, f Path) any {
	if _, ok := getHint(v, f); ok {
		return v
	}
	s := nodeAt(b.node, f)
	x, ok := sample.Value(s, b.r)
	if !ok {
		return v
	}
	return setHint(v, f, x, b.node, b.r)
}

// values sets each field to the literals it is compared with, and to
// their neighbours; a size to the sizes around the literal.
func (b *boundary) values(h Hints) {
	for _, val := range h.Values {
		s := nodeAt(b.node, val.Path)
		if s == nil {
			continue
		}
		if val.Size {
			n, ok := val.Value.(int64)
			if !ok {
				continue
			}
			for _, size := range []int64{n - 1, n, n + 1} {
				b.with(func(v any) (any, bool) { return b.sized(v, val.Path, s, size) })
			}
			continue
		}
		for _, x := range neighbours(val.Value, s) {
			b.assign(val.Path, x)
		}
	}
}

// neighbours are a literal and the values next to it of the field's type.
func neighbours(lit any, s *structural.Schema) []any {
	switch l := lit.(type) {
	case int64:
		if s.Type == "number" {
			return []any{float64(l), float64(l) - 0.5, float64(l) + 0.5}
		}
		return []any{l, l - 1, l + 1}
	case float64:
		return []any{l, l - 1, l + 1}
	case string:
		return []any{l, "", l + "x"}
	}
	return []any{lit}
}

// sized is v with the list, map or string at f of size n (n >= 0),
// items sampled from the schema.
func (b *boundary) sized(v any, f Path, s *structural.Schema, n int64) (any, bool) {
	if n < 0 || n > 64 {
		return nil, false
	}
	var x any
	switch {
	case s.Type == "array" && s.Items != nil:
		l := make([]any, 0, n)
		for i := int64(0); i < n; i++ {
			item, ok := sample.Value(s.Items, b.r)
			if !ok {
				return nil, false
			}
			l = append(l, item)
		}
		x = l
	case s.Type == "string":
		x = string(make([]byte, 0, n)) + repeatA(n)
	case s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
		m := map[string]any{}
		for i := int64(0); i < n; i++ {
			item, ok := sample.Value(s.AdditionalProperties.Schema, b.r)
			if !ok {
				return nil, false
			}
			m["k"+strconv.FormatInt(i, 10)] = item
		}
		x = m
	default:
		return nil, false
	}
	return setHint(v, f, x, b.node, b.r), true
}

func repeatA(n int64) string {
	out := make([]byte, n)
	for i := range out {
		out[i] = 'a'
	}
	return string(out)
}

// enums sets each field to every value of its enum.
func (b *boundary) enums(fields []Path) {
	for _, f := range fields {
		s := nodeAt(b.node, f)
		if s == nil || s.Source == nil {
			continue
		}
		for _, e := range s.Source.Enum {
			b.assign(f, e.Value)
		}
	}
}

// calls sets strings that pass and fail the functions the rules apply.
func (b *boundary) calls(h Hints) {
	for _, c := range h.Calls {
		s := nodeAt(b.node, c.Path)
		if c.Func == "hasKey" {
			b.withKey(c, s)
			continue
		}
		if s == nil || (s.Type != "string" && !s.IntOrString) {
			continue
		}
		for _, x := range callStrings(c, b.r) {
			b.with(func(v any) (any, bool) { return setHint(v, c.Path, x, b.node, b.r), true })
		}
	}
}

// withKey adds the key a rule tests ('key' in self) to the map at the
// call's path (s its schema), with a value sampled from the schema.
func (b *boundary) withKey(c Call, s *structural.Schema) {
	key, ok := firstString(c.Args)
	if !ok || s == nil || s.AdditionalProperties == nil || s.AdditionalProperties.Schema == nil {
		return
	}
	b.withMapKey(c.Path, key, s.AdditionalProperties.Schema)
}

// withMapKey adds the base with one more key in the map at p, its value
// sampled from values (the map's additionalProperties); false when no
// value can be sampled.
func (b *boundary) withMapKey(p Path, key string, values *structural.Schema) bool {
	x, ok := sample.Value(values, b.r)
	if !ok {
		return false
	}
	b.with(func(v any) (any, bool) {
		m, _ := getHint(v, p)
		mm, isMap := m.(map[string]any)
		if !isMap {
			mm = map[string]any{}
		}
		mm[key] = x
		return setHint(v, p, mm, b.node, b.r), true
	})
	return true
}

// splits sets, for each field split at a separator whose parts the rules
// test (self.split('@')[1].matches(...)), one string joining a passing
// string for every part.
func (b *boundary) splits(hints []Hints) {
	for _, sp := range splitFields(hints, b.r) {
		s := nodeAt(b.node, sp.path)
		if s == nil || (s.Type != "string" && !s.IntOrString) {
			continue
		}
		joined := strings.Join(sp.parts, sp.sep)
		b.with(func(v any) (any, bool) { return setHint(v, sp.path, joined, b.node, b.r), true })
	}
}

// affixes sets, for each field several functions test (startsWith and
// endsWith, contains), one string passing all of them: the prefixes, the
// contained strings, then the suffixes.
func (b *boundary) affixes(hints []Hints) {
	type affix struct {
		path                   Path
		prefix, middle, suffix string
		n                      int
	}
	var all []*affix
	for _, h := range hints {
		for _, c := range h.Calls {
			arg, ok := firstString(c.Args)
			if !ok || c.Sep != "" || (c.Func != "startsWith" && c.Func != "endsWith" && c.Func != "contains") {
				continue
			}
			i := slices.IndexFunc(all, func(a *affix) bool { return a.path.String() == c.Path.String() })
			if i < 0 {
				i = len(all)
				all = append(all, &affix{path: c.Path})
			}
			a := all[i]
			a.n++
			switch c.Func {
			case "startsWith":
				a.prefix += arg
			case "endsWith":
				a.suffix = arg + a.suffix
			default:
				a.middle += arg
			}
		}
	}
	for _, a := range all {
		if a.n < 2 {
			continue
		}
		x := a.prefix + "a" + a.middle + "a" + a.suffix
		b.with(func(v any) (any, bool) { return setHint(v, a.path, x, b.node, b.r), true })
	}
}

// firstString is the first argument when it is a string.
func firstString(args []any) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	s, ok := args[0].(string)
	return s, ok
}

// split is a field split at sep, with a passing string for each part
// ("a" for a part no function tests).
type split struct {
	path  Path
	sep   string
	parts []string
}

// splitFields are the fields the rules split, first mention first.
func splitFields(hints []Hints, r *rand.Rand) []*split {
	var out []*split
	for _, h := range hints {
		for _, c := range h.Calls {
			if c.Sep == "" || c.Part < 0 || c.Part > 8 {
				continue
			}
			i := slices.IndexFunc(out, func(sp *split) bool { return sp.sep == c.Sep && sp.path.String() == c.Path.String() })
			if i < 0 {
				i = len(out)
				out = append(out, &split{path: c.Path, sep: c.Sep})
			}
			sp := out[i]
			for len(sp.parts) <= c.Part {
				sp.parts = append(sp.parts, "a")
			}
			if x, ok := passing(c, r); ok {
				sp.parts[c.Part] = x
			}
		}
	}
	return out
}

// passing is a string that passes a function (the first of
// callStrings; a pattern's string for matches and find).
func passing(c Call, r *rand.Rand) (string, bool) {
	xs := callStrings(c, r)
	if (c.Func == "matches" || c.Func == "find") && len(xs) > 1 {
		xs = xs[1:]
	}
	if len(xs) == 0 {
		return "", false
	}
	x, ok := xs[0].(string)
	return x, ok
}

// callStrings are strings that pass a function (as far as its literal
// arguments tell) and strings that do not.
func callStrings(c Call, r *rand.Rand) []any {
	arg := ""
	if len(c.Args) > 0 {
		arg, _ = c.Args[0].(string)
	}
	switch c.Func {
	case "startsWith":
		return []any{arg + "a", "a"}
	case "endsWith":
		return []any{"a" + arg, "a"}
	case "contains":
		return []any{"a" + arg + "a", "a"}
	case "matches", "find":
		out := []any{""}
		if s, ok := sample.FromPattern(arg, r); ok {
			out = append(out, s)
		}
		return out
	case "isURL", "url":
		return []any{"https://example.com/a", "a b"}
	case "quantity", "isQuantity":
		return []any{"1Gi", "1", "x"}
	case "ip", "isIP":
		return []any{"10.0.0.1", "::1", "x"}
	case "cidr", "isCIDR":
		return []any{"10.0.0.0/24", "x"}
	case "duration":
		return []any{"1s", "0s", "x"}
	case "validate": // format.dns1123Label().validate(self), ...
		return []any{"abc", "-x"}
	}
	return nil
}

// nodeAt is the schema node at a path below s, nil when there is none.
func nodeAt(s *structural.Schema, p Path) *structural.Schema {
	for _, name := range p {
		if s == nil {
			return nil
		}
		switch {
		case name == "*" && s.Items != nil:
			s = s.Items
		case s.Properties[name] != nil:
			s = s.Properties[name]
		case s.AdditionalProperties != nil:
			s = s.AdditionalProperties.Schema
		default:
			return nil
		}
	}
	return s
}

// getHint is the value at a path inside v (the first item for "*").
func getHint(v any, p Path) (any, bool) {
	for _, name := range p {
		switch c := v.(type) {
		case map[string]any:
			if name == "*" {
				return nil, false
			}
			x, ok := c[name]
			if !ok {
				return nil, false
			}
			v = x
		case []any:
			if len(c) == 0 {
				return nil, false
			}
			v = c[0]
		default:
			return nil, false
		}
	}
	return v, true
}

// setHint is v with x at a path (the first item for "*", created when the
// list is empty), containers made where missing; v itself when the path
// cannot be placed.
func setHint(v any, p Path, x any, s *structural.Schema, r *rand.Rand) any {
	if len(p) == 0 {
		return x
	}
	child := nodeAt(s, p[:1])
	switch c := v.(type) {
	case map[string]any:
		if p[0] == "*" {
			return v
		}
		c[p[0]] = setHint(c[p[0]], p[1:], x, child, r)
		return c
	case []any:
		if len(c) == 0 {
			return []any{setHint(nil, p[1:], x, child, r)}
		}
		c[0] = setHint(c[0], p[1:], x, child, r)
		return c
	case nil:
		if s != nil && s.Type == "array" {
			return []any{setHint(nil, p[1:], x, child, r)}
		}
		return setHint(map[string]any{}, p, x, s, r)
	}
	return v
}

// removeHint is v without the field at a path, unless the schema requires
// it (nothing removed then).
func removeHint(v any, p Path, s *structural.Schema) any {
	if len(p) == 0 {
		return v
	}
	switch c := v.(type) {
	case map[string]any:
		if len(p) == 1 {
			if s == nil || s.Source == nil || !slices.Contains(s.Source.Required, p[0]) {
				delete(c, p[0])
			}
			return c
		}
		if x, ok := c[p[0]]; ok {
			c[p[0]] = removeHint(x, p[1:], nodeAt(s, p[:1]))
		}
	case []any:
		if len(c) > 0 {
			c[0] = removeHint(c[0], p[1:], nodeAt(s, p[:1]))
		}
	}
	return v
}
