package gen

import (
	"maps"
	"slices"
	"strings"
)

// junk returns an arbitrary JSON value, depth levels deep at most.
func (g *Gen) junk(depth int) any {
	switch k := g.r.Intn(10); {
	case k < 4 || depth <= 0:
		return g.scalarFor(pick(g, "string", "integer", "number", "boolean"), nil)
	case k < 5:
		return nil
	case k < 8:
		m := map[string]any{}
		for i := g.r.Intn(3); i >= 0; i-- {
			m[g.key()] = g.junk(depth - 1)
		}
		return m
	default:
		var l []any
		for i := g.r.Intn(3); i >= 0; i-- {
			l = append(l, g.junk(depth-1))
		}
		return l
	}
}

// value returns a value for schema s, mostly valid, sometimes with nulls,
// wrong types, unknown fields and duplicates.
func (g *Gen) value(s Schema, depth int) any {
	if s == nil {
		return g.junk(depth)
	}
	if g.chance(0.05) {
		return nil
	}
	if g.chance(0.03) {
		return g.junk(1)
	}
	if s["x-kubernetes-int-or-string"] == true {
		return pick[any](g, int64(3), "50%", "abc", int64(-1), 1.5, true)
	}
	typ, _ := s["type"].(string)
	if s["x-kubernetes-embedded-resource"] == true {
		return g.embeddedValue(s, depth)
	}
	switch typ {
	case "object":
		return g.objectValue(s, depth)
	case "array":
		it, _ := s["items"].(Schema)
		var l []any
		for i := g.r.Intn(4); i > 0; i-- {
			l = append(l, g.value(it, depth-1))
		}
		if len(l) > 0 && (s["x-kubernetes-list-type"] != nil && g.chance(0.4) || g.chance(0.05)) {
			l = append(l, l[g.r.Intn(len(l))]) // duplicate
		}
		if l == nil && g.chance(0.5) {
			return []any{}
		}
		return l
	case "":
		if s["x-kubernetes-preserve-unknown-fields"] == true || s["properties"] != nil {
			return g.objectValue(s, depth)
		}
		return g.junk(depth)
	default:
		return g.scalarFor(typ, s)
	}
}

// objectValue returns an object for an object schema.
func (g *Gen) objectValue(s Schema, depth int) map[string]any {
	m := map[string]any{}
	if depth < 0 {
		return m
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(props)) {
			if g.chance(0.7) {
				ps, _ := props[k].(Schema)
				m[k] = g.value(ps, depth-1)
			}
		}
	}
	switch ap := s["additionalProperties"].(type) {
	case Schema:
		for i := g.r.Intn(4); i > 0; i-- {
			m[g.key()] = g.value(ap, depth-1)
		}
	case bool:
		if ap {
			m[g.key()] = g.junk(depth - 1)
		}
	}
	// unknown fields, kept or pruned
	p := 0.15
	if s["x-kubernetes-preserve-unknown-fields"] == true {
		p = 0.5
	}
	if g.chance(p) {
		m[g.key()] = g.junk(depth)
	}
	return m
}

// embeddedValue returns a value for an x-kubernetes-embedded-resource node.
func (g *Gen) embeddedValue(s Schema, depth int) any {
	m := g.objectValue(s, depth)
	switch g.r.Intn(10) {
	case 0: // nothing
	case 1:
		m["apiVersion"] = pick[any](g, int64(1), true, "")
		m["kind"] = "Pod"
	default:
		m["apiVersion"] = pick[any](g, "v1", "apps/v1", "example.com/v1beta1")
		if g.chance(0.9) {
			m["kind"] = pick[any](g, "Pod", "ConfigMap", "Thing", "")
		}
	}
	if g.chance(0.6) {
		m["metadata"] = g.Metadata()
	}
	return m
}

// Metadata returns an object's metadata: mostly well formed, sometimes with
// invalid values, unknown fields, nulls or wrong types.
func (g *Gen) Metadata() any {
	if g.chance(0.04) {
		return pick[any](g, "meta", int64(1), []any{"a"}, nil, true)
	}
	m := map[string]any{}
	switch g.r.Intn(10) {
	case 0:
	case 1:
		m["generateName"] = pick[any](g, "gen-", "Bad_", "x")
	case 2:
		m["name"] = pick[any](g, "Bad_Name", "UPPER", strings.Repeat("a", 254), "a..b", "", "-x")
	case 3:
		m["name"] = pick[any](g, int64(1), true, nil, map[string]any{})
	default:
		m["name"] = pick[any](g, "obj-1", "obj-2", "a.b.c", "web-x", "name-with-dash", "x")
	}
	if g.chance(0.2) {
		m["namespace"] = pick[any](g, "default", "Bad_NS", "", int64(3))
	}
	if g.chance(0.2) {
		switch g.r.Intn(5) {
		case 0:
			m["labels"] = map[string]any{"a": int64(1)}
		case 1:
			m["labels"] = map[string]any{"bad key!": "v", "app": "x"}
		case 2:
			m["labels"] = map[string]any{}
		case 3:
			m["labels"] = "app=x"
		default:
			m["labels"] = map[string]any{"app": pick[any](g, "front", "gamma", "cache", strings.Repeat("v", 64), Raw("yes"))}
		}
	}
	if g.chance(0.15) {
		m["annotations"] = pick[any](g,
			map[string]any{"example.com/x": "", "note": "ünïcödé text"},
			map[string]any{"a": nil},
			map[string]any{Raw("yes"): ""},
			map[string]any{"-bad-": "x"},
		)
	}
	if g.chance(0.1) {
		m["finalizers"] = pick[any](g, []any{"example.com/finalizer"}, []any{}, []any{"bad finalizer"}, []any{int64(1)})
	}
	if g.chance(0.1) {
		m["ownerReferences"] = pick[any](g,
			[]any{map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "owner", "uid": "123e4567-e89b-12d3-a456-426614174000"}},
			[]any{map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "owner", "uid": "u", "extra": "x"}},
			[]any{map[string]any{"name": int64(1)}},
			[]any{map[string]any{}},
		)
	}
	if g.chance(0.1) {
		m["creationTimestamp"] = pick[any](g, "2020-01-01T00:00:00Z", "2021-06-01T12:30:00+02:00", "not-a-time", nil, int64(5))
	}
	if g.chance(0.08) {
		m["generation"] = pick[any](g, int64(0), int64(3), "x")
	}
	if g.chance(0.08) {
		m["uid"] = pick[any](g, "0000-1111", int64(1))
	}
	if g.chance(0.08) {
		m["resourceVersion"] = pick[any](g, "12", int64(12))
	}
	if g.chance(0.1) {
		m[pick(g, "foo", "nested", "spec")] = pick[any](g, int64(1), map[string]any{"a": map[string]any{"b": "c"}}, nil)
	}
	if g.chance(0.04) {
		m["deletionGracePeriodSeconds"] = pick[any](g, int64(30), "30")
	}
	if g.chance(0.04) {
		m["managedFields"] = []any{map[string]any{"manager": "m", "operation": "Apply"}}
	}
	return m
}
