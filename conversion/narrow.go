package conversion

import (
	"maps"

	"github.com/crdschema/crdschema/structural"
)

// step4 is how step 4 of Read coerces an object read from version from at
// version to. When the object comes from step 1 unchanged but for its
// apiVersion (strategy None, or a read at the stored version) and step 2's
// defaults, it is narrowed: between versions of the same schemas (schemaClasses) it does
// not prune (there is nothing left to prune), otherwise it prunes with
// narrowed; and the root's metadata, which step 1 coerced into the form
// the ObjectMeta round trip writes, is not coerced again unless from's
// defaults specify something in it. Built once per pair of versions, under
// the storage's lock (taken once per call).
func (s *Storage) step4(from, to string) coercion {
	if s.webhook && from != to { // the webhook's answer is coerced whole
		return coercion{prune: true, pruneWith: s.versions[to].Schema, rootMeta: true}
	}
	k := [2]string{from, to}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.narrow[k]; ok {
		return st
	}
	st := coercion{prune: s.class[from] != s.class[to], rootMeta: defaultsInMeta(s.versions[from].Defaults)}
	if st.prune {
		st.pruneWith = narrowed(s.versions[to].Schema, s.versions[from].Schema)
	}
	s.narrow[k] = st
	return st
}

// defaultsInMeta reports whether the defaults sch applies specify
// something inside the root's metadata.
func defaultsInMeta(sch *structural.Schema) bool {
	c, ok := sch.Property("metadata")
	if !ok && sch != nil && sch.AdditionalProperties != nil {
		c = sch.AdditionalProperties.Schema
	}
	return c != nil && (c.HasDefault || c.HasDefaultsBelow())
}

// narrowed returns the schema step 4 prunes with at a version whose
// schema is t after a read at a version whose schema is f (step4): t with
// each subtree the same as f's (which step 1 pruned, and step 2 defaulted
// with f's pruned defaults) replaced by a node that prunes nothing and
// drops no null inside, so that step 4 walks only where the two versions
// differ. A subtree holding an embedded resource is kept (its metadata,
// coerced after step 1's pruning, is looked at again), and so are the
// implicit fields of the root.
func narrowed(t, f *structural.Schema) *structural.Schema {
	return narrowNode(t, f, true)
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
