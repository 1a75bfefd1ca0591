// Package sample generates objects for a structural schema: every type,
// format, enum, bound, pattern (where a string can be built from the
// regular expression's syntax tree), required field, list type and map
// key, embedded resource, int-or-string and preserve-unknown-fields
// subtree. It proposes candidates only; the root package keeps those its
// create validation (CEL rules included) accepts, repairing the others
// with internal/celhint. It links no CEL.
//
// Generation is deterministic: the same schema and the same random source
// give the same object.
package sample

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// maxDepth bounds the nesting of a generated object; optional fields
// below it are left out.
const maxDepth = 24

// Object returns a candidate object for root, the schema of one version,
// with the given apiVersion, kind and metadata.name; false when a required
// field cannot be generated.
func Object(root *structural.Schema, apiVersion, kind, name string, r *rand.Rand) (map[string]any, bool) {
	g := &gen{r: r}
	obj := map[string]any{}
	if root != nil {
		v, ok := g.object(root, 0, map[string]bool{"apiVersion": true, "kind": true, "metadata": true})
		if !ok {
			return nil, false
		}
		obj = v
	}
	obj["apiVersion"], obj["kind"] = apiVersion, kind
	obj["metadata"] = map[string]any{"name": name}
	return obj, true
}

// gen is one generation's random source.
type gen struct {
	r *rand.Rand
}

// value generates a value for s; false when it cannot.
func (g *gen) value(s *structural.Schema, depth int) (any, bool) {
	p := s.Source
	if p != nil && len(p.Enum) > 0 {
		return g.enum(p.Enum)
	}
	if s.Nullable && g.r.IntN(12) == 0 {
		return nil, true
	}
	if s.IntOrString {
		if g.r.IntN(2) == 0 {
			if v, ok := g.integer(p); ok {
				return v, true
			}
		}
		return g.str(p)
	}
	switch s.Type {
	case "object":
		return g.objectValue(s, depth)
	case "array":
		return g.array(s, p, depth)
	case "string":
		return g.str(p)
	case "integer":
		return g.integer(p)
	case "number":
		return g.number(p)
	case "boolean":
		return g.r.IntN(2) == 0, true
	case "":
		if s.PreserveUnknownFields {
			return map[string]any{"extra": "value"}, true
		}
	}
	return nil, false
}

// objectValue is value for an object node: an embedded resource gets
// apiVersion, kind and metadata.name.
func (g *gen) objectValue(s *structural.Schema, depth int) (any, bool) {
	skip := map[string]bool{}
	if s.EmbeddedResource {
		skip = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}
	}
	m, ok := g.object(s, depth, skip)
	if !ok {
		return nil, false
	}
	if s.EmbeddedResource {
		m["apiVersion"], m["kind"] = "v1", "ConfigMap"
		m["metadata"] = map[string]any{"name": fmt.Sprintf("embedded-%d", g.r.IntN(100))}
	}
	return m, true
}

// object generates the properties of an object node (those in skip
// excepted): every required one, the others at random, a few entries of
// additionalProperties, a small extra field where unknown fields are kept.
// At the root (spec, status, …) every property is generated.
func (g *gen) object(s *structural.Schema, depth int, skip map[string]bool) (map[string]any, bool) {
	p := s.Source
	m := map[string]any{}
	if !g.properties(m, s, depth, skip) {
		return nil, false
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil && depth < maxDepth {
		g.additional(m, ap.Schema, p, depth)
	}
	if s.PreserveUnknownFields && len(s.Properties) == 0 && s.AdditionalProperties == nil && g.r.IntN(2) == 0 {
		m["extra"] = "value"
	}
	if p != nil && p.MaxProperties != nil && int64(len(m)) > *p.MaxProperties {
		return nil, false
	}
	return m, true
}

// properties generates into m the properties of s (those in skip
// excepted), in key order: every required one, the others at random below
// the root. It reports false when a required one cannot be generated.
func (g *gen) properties(m map[string]any, s *structural.Schema, depth int, skip map[string]bool) bool {
	required := map[string]bool{}
	if s.Source != nil {
		for _, k := range s.Source.Required {
			required[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		if skip[k] {
			continue
		}
		if !required[k] && depth > 0 && (depth >= maxDepth || g.r.IntN(3) == 0) {
			continue
		}
		v, ok := g.value(s.Properties[k], depth+1)
		switch {
		case ok:
			m[k] = v
		case required[k]:
			return false
		}
	}
	return true
}

// additional generates into m a few entries of additionalProperties (the
// node ap), at least minProperties of p when it has one.
func (g *gen) additional(m map[string]any, ap *structural.Schema, p *schema.Props, depth int) {
	n := g.r.IntN(3)
	if p != nil && p.MinProperties != nil && int(*p.MinProperties) > n {
		n = int(*p.MinProperties)
	}
	for i := 0; i < n; i++ {
		if v, ok := g.value(ap, depth+1); ok {
			m[fmt.Sprintf("key-%d", i)] = v
		}
	}
}

// enum picks one non-null value of an enum.
func (g *gen) enum(values []schema.JSON) (any, bool) {
	var ok []any
	for _, v := range values {
		if v.Value != nil {
			ok = append(ok, v.Value)
		}
	}
	if len(ok) == 0 {
		return nil, false
	}
	return jsonvalue.DeepCopy(ok[g.r.IntN(len(ok))]), true // generated objects share nothing with the schema
}

// bounds are an integer range [lo, hi] from a node's minimum and maximum.
func bounds(p *schema.Props, defLo, defHi float64) (lo, hi float64) {
	lo, hi = defLo, defHi
	if p == nil {
		return lo, hi
	}
	if p.Minimum != nil {
		lo = *p.Minimum
		if p.ExclusiveMinimum {
			lo = math.Floor(lo) + 1
		}
		if p.Maximum == nil {
			hi = lo + defHi - defLo
		}
	}
	if p.Maximum != nil {
		hi = *p.Maximum
		if p.ExclusiveMaximum {
			hi = math.Ceil(hi) - 1
		}
		if p.Minimum == nil {
			lo = math.Min(lo, hi-(defHi-defLo))
		}
	}
	return math.Ceil(lo), math.Floor(hi)
}

// integer generates an integer within the bounds, a multiple of
// multipleOf when given.
func (g *gen) integer(p *schema.Props) (any, bool) {
	lo, hi := bounds(p, 0, 100)
	if lo > hi || hi-lo > 1<<52 {
		if lo <= hi {
			return int64(lo), true
		}
		return nil, false
	}
	v := lo + float64(g.r.Int64N(int64(hi-lo)+1))
	if p != nil && p.MultipleOf != nil && *p.MultipleOf >= 1 {
		m := *p.MultipleOf
		first, last := math.Ceil(lo/m), math.Floor(hi/m)
		if first > last {
			return nil, false
		}
		v = (first + float64(g.r.Int64N(int64(min(last-first, 1<<20))+1))) * m
	}
	return int64(v), true
}

// number generates a number within the bounds: an integer value, or one
// with a half when that fits.
func (g *gen) number(p *schema.Props) (any, bool) {
	v, ok := g.integer(p)
	if !ok {
		return nil, false
	}
	if p == nil || p.MultipleOf == nil {
		if f := float64(v.(int64)) + 0.5; g.r.IntN(2) == 0 && (p == nil || p.Maximum == nil || f < *p.Maximum) {
			return f, true
		}
	}
	return v, true
}

// array generates a list of between minItems and maxItems items, unique
// where the list type or uniqueItems asks for it (whole items for a set,
// the key fields for a map).
func (g *gen) array(s *structural.Schema, p *schema.Props, depth int) (any, bool) {
	lo, hi := 0, 2
	if p != nil && p.MinItems != nil {
		lo = int(*p.MinItems)
		hi = lo + 2
	}
	if p != nil && p.MaxItems != nil && int(*p.MaxItems) < hi {
		hi = int(*p.MaxItems)
	}
	if s.Items == nil {
		return []any{}, lo == 0
	}
	if lo > hi || lo > 64 {
		return nil, false
	}
	if depth >= maxDepth {
		hi = lo
	}
	n := lo + g.r.IntN(hi-lo+1)
	unique := s.ListType == "set" || (p != nil && p.UniqueItems)
	var out []any
	seen := map[string]bool{}
	for tries := 0; len(out) < n && tries < 4*n+4; tries++ {
		v, ok := g.value(s.Items, depth+1)
		if !ok {
			continue
		}
		key := ""
		switch {
		case s.ListType == "map":
			key = mapKey(v, s.ListMapKeys)
		case unique:
			key = fmt.Sprintf("%#v", v)
		default:
			out = append(out, v)
			continue
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, v)
		}
	}
	if len(out) < lo {
		return nil, false
	}
	if out == nil {
		out = []any{}
	}
	return out, true
}

// mapKey is the identity of an item of a map list: its key fields.
func mapKey(v any, keys []string) string {
	m, _ := v.(map[string]any)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%#v|", m[k])
	}
	return b.String()
}
