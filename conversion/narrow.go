package conversion

import (
	"maps"

	"github.com/crdschema/crdschema/structural"
)

// narrowed returns the schema Read's step 4 prunes with at version to
// after a read at version from, when only apiVersion changed on the way:
// to's schema with each subtree the same as from's (which step 1 pruned,
// and step 2 defaulted with from's pruned defaults) replaced by a node
// that prunes nothing and drops no null inside, so that step 4 walks only
// where the two versions differ. A subtree holding an embedded resource
// is kept (its metadata, coerced after step 1's pruning, is looked at
// again), and so are the implicit fields of the root. Built once per
// pair of versions.
func (s *Storage) narrowed(from, to string) *structural.Schema {
	k := [2]string{from, to}
	s.mu.Lock()
	n, ok := s.narrow[k]
	s.mu.Unlock()
	if ok {
		return n
	}
	t, f := s.versions[to].Schema, s.versions[from].Schema
	n = narrowNode(t, f, true)
	s.mu.Lock()
	s.narrow[k] = n
	s.mu.Unlock()
	return n
}

// narrowNode is narrowed for the node t of to's schema and f, the node at
// its place in from's; embedded says t is an embedded resource or the
// root, whose apiVersion, kind and metadata are kept.
func narrowNode(t, f *structural.Schema, embedded bool) *structural.Schema {
	if t == nil || f == nil {
		return t
	}
	if !embedded && !t.HasEmbeddedResource() && sameSchema(t, f) {
		return prunesNothing(t)
	}
	props, changed := narrowProperties(t, f, embedded || t.EmbeddedResource)
	items := narrowNode(t.Items, f.Items, false)
	ap := t.AdditionalProperties
	if ap != nil && ap.Schema != nil && f.AdditionalProperties != nil {
		if n := narrowNode(ap.Schema, f.AdditionalProperties.Schema, false); n != ap.Schema {
			ap = &structural.AdditionalProperties{Allows: ap.Allows, Schema: n}
		}
	}
	if !changed && items == t.Items && ap == t.AdditionalProperties {
		return t
	}
	return t.Derive(func(c *structural.Schema) {
		c.Properties, c.Items, c.AdditionalProperties = props, items, ap
	})
}

// narrowProperties is narrowNode for the properties of t: t.Properties
// when no property changes, else a new map.
func narrowProperties(t, f *structural.Schema, embedded bool) (map[string]*structural.Schema, bool) {
	props, changed := t.Properties, false
	for k, c := range t.Properties {
		if embedded && (k == "apiVersion" || k == "kind" || k == "metadata") {
			continue
		}
		if n := narrowNode(c, f.Properties[k], false); n != c {
			if !changed {
				props, changed = maps.Clone(t.Properties), true
			}
			props[k] = n
		}
	}
	return props, changed
}

// prunesNothing is a node in place of t that pruning passes over (one
// that keeps unknown fields and specifies nothing below), whose value is
// still dropped where it is a null t would drop.
func prunesNothing(t *structural.Schema) *structural.Schema {
	return (&structural.Schema{}).Derive(func(c *structural.Schema) {
		c.PreserveUnknownFields, c.Nullable, c.HasDefault = true, t.Nullable, t.HasDefault
	})
}
