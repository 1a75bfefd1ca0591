package gen

import (
	"fmt"
	"maps"
	"slices"
)

// UpdateBatch returns a batch of n update cases (apply --old): random CRDs,
// often with the status subresource and CEL transition rules; stored
// objects shaped after their schemas (often invalid, so that ratcheting
// matters); and, per stored object, a new object that is unchanged, changed
// in a few subtrees (values replaced, list items reordered, fields added or
// dropped, metadata edited) or entirely new. Some objects have no stored
// object (creates), some stored objects no update. A fifth of the batches
// are status updates (--subresource status).
func (g *Gen) UpdateBatch(n int) *Batch {
	b := &Batch{Verb: "update", Status: g.chance(0.2)}
	var crds []*CRD
	for i := g.r.Intn(4) + 2; i > 0; i-- {
		c := g.CRD()
		g.forUpdates(c)
		crds = append(crds, c)
		in := &Input{Name: fmt.Sprintf("crds/crd%03d", len(crds)-1), Docs: []any{c.Doc}}
		g.fileStyle(in)
		b.CRDs = append(b.CRDs, in)
	}
	old := &Input{Name: "old"}
	serial := 0
	for i := 0; i < n; i++ {
		in := &Input{Name: fmt.Sprintf("objs%03d", i)}
		for d := g.r.Intn(4) + 1; d > 0; d-- {
			c := pick(g, crds...)
			stored := g.Object(c)
			serial++
			if m, ok := stored["metadata"].(map[string]any); ok && g.chance(0.85) {
				// Mostly distinct names, so that updates meet their own
				// stored object.
				m["name"] = fmt.Sprintf("obj-%d", serial)
			}
			switch {
			case g.chance(0.1):
				// a create
				in.Docs = append(in.Docs, stored)
				continue
			case g.chance(0.05):
				// a stored object nobody updates
				old.Docs = append(old.Docs, stored)
				in.Docs = append(in.Docs, g.Object(c))
				continue
			}
			old.Docs = append(old.Docs, stored)
			in.Docs = append(in.Docs, g.updated(c, stored))
		}
		g.fileStyle(in)
		b.Cases = append(b.Cases, in)
	}
	if len(old.Docs) == 0 {
		old.Docs = append(old.Docs, g.Object(crds[0]))
	}
	b.Old = old
	return b
}

// forUpdates makes a CRD an update target: the status subresource on most
// v1 versions, and transition rules and plain rules at random nodes.
func (g *Gen) forUpdates(c *CRD) {
	spec, _ := c.Doc["spec"].(map[string]any)
	if c.Doc["apiVersion"] == "apiextensions.k8s.io/v1" {
		versions, _ := spec["versions"].([]any)
		for _, v := range versions {
			if vm, ok := v.(map[string]any); ok && g.chance(0.6) {
				vm["subresources"] = map[string]any{"status": map[string]any{}}
			}
		}
	}
	seen := map[string]bool{}
	for _, s := range c.Schemas {
		if s == nil {
			continue
		}
		if p := fmt.Sprintf("%p", s); seen[p] {
			continue
		} else {
			seen[p] = true
		}
		if g.chance(0.6) {
			g.addRules(s, 4)
		}
	}
}

// transitionRules are rules using oldSelf, for any type.
var transitionRules = []map[string]any{
	{"rule": "self == oldSelf", "message": "immutable"},
	{"rule": "self == oldSelf", "messageExpression": "'was changed'"},
	{"rule": "!oldSelf.hasValue() || self == oldSelf.value()", "optionalOldSelf": true},
	{"rule": "oldSelf.hasValue()", "optionalOldSelf": true, "message": "cannot be set on create"},
}

// addRules adds rules to s and, at random, to nodes below it.
func (g *Gen) addRules(s Schema, depth int) {
	if depth == 0 {
		return
	}
	if g.chance(0.35) {
		var rule map[string]any
		switch typ, _ := s["type"].(string); {
		case typ == "string" && g.chance(0.5):
			rule = map[string]any{"rule": "self.size() <= 3", "message": "too long for the rule"}
		case typ == "integer" && g.chance(0.5):
			rule = map[string]any{"rule": "self <= 50", "message": "too big for the rule"}
		default:
			rule = maps.Clone(pick(g, transitionRules...))
		}
		rules, _ := s["x-kubernetes-validations"].([]any)
		s["x-kubernetes-validations"] = append(rules, rule)
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(props)) {
			if c, ok := props[k].(map[string]any); ok && g.chance(0.4) {
				g.addRules(c, depth-1)
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok && g.chance(0.4) {
		g.addRules(items, depth-1)
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok && g.chance(0.4) {
		g.addRules(ap, depth-1)
	}
}

// updated returns a new version of the stored object: the same apiVersion,
// kind, namespace and name, and content unchanged, partly changed or new.
func (g *Gen) updated(c *CRD, stored map[string]any) map[string]any {
	var obj map[string]any
	switch r := g.r.Float64(); {
	case r < 0.3:
		obj = deepCopy(stored).(map[string]any)
	case r < 0.85:
		obj = deepCopy(stored).(map[string]any)
		s := c.schemaFor(stored)
		for k := 0; k < 1+g.r.Intn(3); k++ {
			if m, ok := g.mutate(obj, s, 5).(map[string]any); ok {
				obj = m
			}
		}
	default:
		obj = g.Object(c)
	}
	for _, k := range []string{"apiVersion", "kind"} {
		if v, ok := stored[k]; ok {
			obj[k] = v
		} else {
			delete(obj, k)
		}
	}
	sm, _ := stored["metadata"].(map[string]any)
	if sm == nil {
		obj["metadata"] = stored["metadata"]
		return obj
	}
	m := deepCopy(sm).(map[string]any)
	switch g.r.Intn(12) {
	case 0:
		m["labels"] = map[string]any{"app": pick[any](g, "changed", "Bad Value!")}
	case 1:
		m["uid"] = "0000-1111"
	case 2:
		m["generation"] = int64(g.r.Intn(3))
	case 3:
		m["finalizers"] = []any{"example.com/f"}
	case 4:
		m["annotations"] = map[string]any{"note": "x"}
	}
	obj["metadata"] = m
	return obj
}

// schemaFor is the schema of the version a stored object is routed to (nil
// when none or unknown).
func (c *CRD) schemaFor(obj map[string]any) Schema {
	av, _ := obj["apiVersion"].(string)
	for i, v := range c.Versions {
		if c.Group+"/"+v == av {
			return c.Schemas[i]
		}
	}
	return nil
}

// mutate returns v with a few subtrees changed: a value replaced by a
// fresh one of its schema, a field dropped or added, list items swapped.
// v is not changed.
func (g *Gen) mutate(v any, s Schema, depth int) any {
	if depth == 0 || g.chance(0.15) {
		return g.value(s, 3)
	}
	switch x := v.(type) {
	case map[string]any:
		out := maps.Clone(x)
		keys := slices.Sorted(maps.Keys(x))
		props, _ := s["properties"].(map[string]any)
		if len(keys) > 0 {
			k := pick(g, keys...)
			switch {
			case g.chance(0.15):
				delete(out, k)
			default:
				out[k] = g.mutate(x[k], childSchema(s, props, k), depth-1)
			}
		}
		if len(props) > 0 && g.chance(0.2) {
			k := pick(g, slices.Sorted(maps.Keys(props))...)
			ps, _ := props[k].(map[string]any)
			out[k] = g.value(ps, 3)
		}
		return out
	case []any:
		out := slices.Clone(x)
		items, _ := s["items"].(map[string]any)
		if len(out) > 1 && g.chance(0.4) {
			i, j := g.r.Intn(len(out)), g.r.Intn(len(out))
			out[i], out[j] = out[j], out[i]
		}
		if len(out) > 0 && g.chance(0.5) {
			i := g.r.Intn(len(out))
			out[i] = g.mutate(out[i], items, depth-1)
		}
		if g.chance(0.15) {
			out = append(out, g.value(items, 2))
		}
		return out
	}
	if g.chance(0.6) {
		return g.value(s, 1)
	}
	return v
}

// childSchema is the schema of field k of an object with schema s.
func childSchema(s Schema, props map[string]any, k string) Schema {
	if c, ok := props[k].(map[string]any); ok {
		return c
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		return ap
	}
	return nil
}

// deepCopy copies a generated JSON-like value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}
