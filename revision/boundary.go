package revision

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/crdschema/crdschema/internal/celhint"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/sample"
	"github.com/crdschema/crdschema/revision/internal/revdiff"
	"github.com/crdschema/crdschema/structural"
)

// maxBoundaryProbes bounds the boundary probes of one rule.
const maxBoundaryProbes = 64

// maxPresenceFields bounds the fields whose presence is combined (2^n
// combinations).
const maxPresenceFields = 4

// boundaryProbes are values of a rule's node at the rule's boundary, as
// far as the old schema allows them: built from base (the node's value in
// a probe object, or a sample) by setting the fields the rules read
// present and absent (every combination of up to four), to the literals
// the rules compare them with and their neighbours, to every value of
// their old enum, to sizes around those the rules compare, and to strings
// that pass and fail the functions the rules apply (startsWith, matches,
// isURL, ...). Fields the old schema does not have are left out: no
// object stored under it holds them. The probes still have to pass the
// old revision (the prober stores them, repairing what it must); those
// that do and pass the new rule are what makes it safe.
func boundaryProbes(o *structural.Schema, base any, rules []string, r *rand.Rand) []revdiff.Probe {
	if o == nil {
		return nil
	}
	if base == nil {
		base, _ = sample.Value(o, r)
	}
	b := &boundary{node: o, base: base, r: r, seen: map[string]bool{}}
	var hints []celhint.Hints
	for _, rule := range rules {
		if h, ok := celhint.Parse(rule); ok {
			hints = append(hints, h)
		}
	}
	fields := b.oldFields(hints)
	b.presence(fields)
	for _, h := range hints {
		b.values(h)
		b.calls(h)
	}
	b.enums(fields)
	b.pairs()
	return b.out
}

// boundary collects one node's boundary probes.
type boundary struct {
	node *structural.Schema
	base any
	r    *rand.Rand
	seen map[string]bool
	out  []revdiff.Probe
	// set are the single-field values tried (literals, enum values),
	// combined in pairs last.
	set []assignment
}

// assignment is one field set to one value.
type assignment struct {
	path  celhint.Path
	value any
}

// assign tries v at f alone, and keeps it for the pairs.
func (b *boundary) assign(f celhint.Path, x any) {
	b.set = append(b.set, assignment{f, x})
	b.with(func(v any) (any, bool) { return setHint(v, f, x, b.node, b.r), true })
}

// pairs sets two fields at once, each pair of assignments to different
// fields (a rule that constrains one field when another holds a value:
// protocol HTTPS with tls.mode Passthrough), until the probes run out.
func (b *boundary) pairs() {
	for i, a := range b.set {
		for _, c := range b.set[i+1:] {
			if a.path.String() == c.path.String() || len(b.out) == maxBoundaryProbes {
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
	if len(b.out) == maxBoundaryProbes {
		return
	}
	key, err := json.Marshal(v)
	if err != nil || b.seen[string(key)] {
		return
	}
	b.seen[string(key)] = true
	b.out = append(b.out, revdiff.Probe{Value: v})
}

// with is a copy of the base value edited by f (false: no probe).
func (b *boundary) with(f func(v any) (any, bool)) {
	if v, ok := f(jsonvalue.DeepCopy(b.base)); ok {
		b.add(v)
	}
}

// oldFields are the fields the rules read that the old schema has, first
// mention first.
func (b *boundary) oldFields(hints []celhint.Hints) []celhint.Path {
	var out []celhint.Path
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
func (b *boundary) presence(fields []celhint.Path) {
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
// the old schema.
func (b *boundary) ensure(v any, f celhint.Path) any {
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
func (b *boundary) values(h celhint.Hints) {
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
// items sampled from the old schema.
func (b *boundary) sized(v any, f celhint.Path, s *structural.Schema, n int64) (any, bool) {
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

// enums sets each field to every value of its old enum.
func (b *boundary) enums(fields []celhint.Path) {
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
func (b *boundary) calls(h celhint.Hints) {
	for _, c := range h.Calls {
		s := nodeAt(b.node, c.Path)
		if s == nil || (s.Type != "string" && !s.IntOrString) {
			continue
		}
		for _, x := range callStrings(c, b.r) {
			b.with(func(v any) (any, bool) { return setHint(v, c.Path, x, b.node, b.r), true })
		}
	}
}

// callStrings are strings that pass a function (as far as its literal
// arguments tell) and strings that do not.
func callStrings(c celhint.Call, r *rand.Rand) []any {
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
	}
	return nil
}

// nodeAt is the schema node at a path below s, nil when there is none.
func nodeAt(s *structural.Schema, p celhint.Path) *structural.Schema {
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
func getHint(v any, p celhint.Path) (any, bool) {
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
func setHint(v any, p celhint.Path, x any, s *structural.Schema, r *rand.Rand) any {
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
func removeHint(v any, p celhint.Path, s *structural.Schema) any {
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
