package revdiff

import (
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/sample"
	"github.com/crdschema/crdschema/structural"
)

// sampleValue is sample.Value, retried a few times for a non-null value.
func sampleValue(s *structural.Schema, r *rand.Rand) (any, bool) {
	for try := 0; try < 4; try++ {
		if v, ok := sample.Value(s, r); ok && v != nil {
			return v, true
		}
	}
	return nil, false
}

// isRootField reports the fields of a resource root a probe never
// replaces.
func isRootField(k string) bool {
	return k == "apiVersion" || k == "kind" || k == "metadata"
}

// Set applies probe p at path inside obj, an object valid under root (the
// old schema), in place: ancestors obj lacks (or holds with another
// shape) are generated from root's nodes with r; a list's first item and
// a map's first key (sorted) are the ones descended into (an empty list
// or map gets one generated entry). At the root, a map value replaces
// every field but apiVersion, kind and metadata. It returns false when
// the probe cannot be applied. p's value is copied, never shared.
func Set(obj map[string]any, root *structural.Schema, path Path, p Probe, r *rand.Rand) bool {
	if p.Keep {
		return true
	}
	value := jsonvalue.DeepCopy(p.Value)
	if len(path) == 0 {
		return setRoot(obj, value)
	}
	var cur any = obj
	node := root
	for i, st := range path {
		container := cur
		next, put, ok := step(cur, st)
		if !ok {
			return false
		}
		if i == len(path)-1 {
			if p.Delete {
				return deleteAt(container, st)
			}
			put(value)
			return true
		}
		if node = childNode(node, st); node == nil {
			return false
		}
		if cur, ok = shapedOrNew(next, put, node, r); !ok {
			return false
		}
	}
	return true
}

// setRoot replaces every field of obj but apiVersion, kind and metadata
// with those of value, a map.
func setRoot(obj map[string]any, value any) bool {
	m, ok := value.(map[string]any)
	if !ok {
		return false
	}
	for k := range obj {
		if !isRootField(k) {
			delete(obj, k)
		}
	}
	for k, v := range m {
		if !isRootField(k) {
			obj[k] = v
		}
	}
	return true
}

// shapedOrNew is v when it can be descended into as node, else a new
// smallest value of node put in its place.
func shapedOrNew(v any, put func(any), node *structural.Schema, r *rand.Rand) (any, bool) {
	if shaped(v, node) {
		return v, true
	}
	v, ok := minimal(node, r, true, 1)
	if !ok || !shaped(v, node) {
		return nil, false
	}
	put(v)
	return v, true
}

// step descends from container cur by st: the child's value (nil when
// absent) and how to replace it in cur.
func step(cur any, st Step) (any, func(any), bool) {
	switch st.Kind {
	case Prop:
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, nil, false
		}
		return m[st.Name], func(v any) { m[st.Name] = v }, true
	case Item:
		l, ok := cur.([]any)
		if !ok || len(l) == 0 {
			return nil, nil, false
		}
		return l[0], func(v any) { l[0] = v }, true
	default:
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, nil, false
		}
		key := firstKey(m)
		return m[key], func(v any) { m[key] = v }, true
	}
}

// deleteAt removes the field of a Prop step from its object.
func deleteAt(cur any, st Step) bool {
	m, ok := cur.(map[string]any)
	if !ok || st.Kind != Prop {
		return false
	}
	delete(m, st.Name)
	return true
}

// NodeAt is the node of root at path (a property, else the map's
// values; a list's items), nil when root has none.
func NodeAt(root *structural.Schema, path Path) *structural.Schema {
	s := root
	for _, st := range path {
		if s = childNode(s, st); s == nil {
			return nil
		}
	}
	return s
}

// childNode is the node a step leads to, nil when the schema has none.
func childNode(s *structural.Schema, st Step) *structural.Schema {
	if s == nil {
		return nil
	}
	switch st.Kind {
	case Prop:
		if c, ok := s.Properties[st.Name]; ok {
			return c
		}
		return apSchema(s)
	case Item:
		return s.Items
	}
	return apSchema(s)
}

// firstKey is the first key of a map in sorted order, "probe-key" for an
// empty one.
func firstKey(m map[string]any) string {
	if len(m) == 0 {
		return "probe-key"
	}
	return slices.Min(slices.Collect(maps.Keys(m)))
}

// shaped reports whether v can be descended into as the node s: an object
// for an object node, a non-empty list for a list node.
func shaped(v any, s *structural.Schema) bool {
	switch s.Type {
	case "array":
		l, ok := v.([]any)
		return ok && len(l) > 0
	case "object":
		_, ok := v.(map[string]any)
		return ok
	}
	_, isMap := v.(map[string]any)
	return isMap
}
