// Package prune drops the fields of an object that its structural schema does
// not specify, exactly as the Kubernetes apiserver prunes custom resources on
// every request and on every read from storage.
//
// The rules, in the apiserver's words and order:
//
//   - an object key that is neither in properties nor covered by
//     additionalProperties is removed; known keys are pruned recursively by
//     their schema, list items by items, map values by additionalProperties
//     (a bare additionalProperties: true or false prunes everything inside
//     the values, keeping the keys);
//   - at the resource root and at every x-kubernetes-embedded-resource node,
//     apiVersion, kind and metadata are implicitly specified and never
//     pruned (metadata is handled by package embedded);
//   - x-kubernetes-preserve-unknown-fields: true keeps the unknown keys of
//     its node, and everything below them that has no schema of its own, but
//     pruning starts again inside every nested properties or
//     additionalProperties schema that is specified.
//
// Prune changes the object in place. It can also report where it removed
// fields, as structured Paths that render themselves as the apiserver's
// warnings (spec.list[0].bar); asking for nothing costs nothing: pruning an
// object that needs no change allocates no memory.
package prune

import (
	"sort"

	"github.com/crdschema/crdschema/structural"
)

// Options says how Prune treats an object.
type Options struct {
	// ResourceRoot is set when the object is a whole resource, so that its
	// apiVersion, kind and metadata are implicitly specified.
	ResourceRoot bool
	// ReturnPaths asks Prune to return the paths of the removed fields.
	ReturnPaths bool
}

// Prune removes, in place, every field of obj that s does not specify, and
// returns the paths of the removed fields when opts.ReturnPaths is set
// (sorted by their rendered form, as the apiserver sorts its warnings; nil
// otherwise). obj is a JSON value: map[string]any, []any or a scalar. A nil
// schema specifies nothing: everything below obj's top-level keys is
// removed (and, unless obj is a resource root, those keys too). s is never
// changed.
//
// Unknown fields under the root's metadata are not pruned here; package
// embedded coerces metadata and reports its unknown fields.
func Prune(obj any, s *structural.Schema, opts Options) []Path {
	var t *tracker
	if opts.ReturnPaths {
		t = &tracker{}
	}
	embedded := opts.ResourceRoot
	if s == nil && opts.ResourceRoot {
		s = &structural.Schema{}
	}
	if s != nil && s.EmbeddedResource {
		embedded = true
	}
	prune(obj, s, embedded, t)
	if t == nil {
		return nil
	}
	sortPaths(t.out)
	return t.out
}

// sortPaths sorts ps by their rendered form.
func sortPaths(ps []Path) {
	if len(ps) < 2 {
		return
	}
	keys := make([]string, len(ps))
	for i, p := range ps {
		keys[i] = p.String()
	}
	sort.Sort(byKey{keys, ps})
}

type byKey struct {
	keys  []string
	paths []Path
}

func (b byKey) Len() int           { return len(b.keys) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
	b.paths[i], b.paths[j] = b.paths[j], b.paths[i]
}

// isMetaField reports the keys an embedded resource specifies implicitly.
func isMetaField(k string) bool {
	return k == "apiVersion" || k == "kind" || k == "metadata"
}

// tracker records the removed fields' paths. A nil tracker records nothing,
// so the walk is the same code with and without paths.
type tracker struct {
	stack []Element
	out   []Path
}

func (t *tracker) push(e Element) {
	if t != nil {
		t.stack = append(t.stack, e)
	}
}

func (t *tracker) pop() {
	if t != nil {
		t.stack = t.stack[:len(t.stack)-1]
	}
}

// record notes the removal of key k of the object at the current path. The
// apiserver does not report apiVersion, kind and metadata removed from the
// top level of a value that is not a resource root.
func (t *tracker) record(k string) {
	if t == nil || (len(t.stack) == 0 && isMetaField(k)) {
		return
	}
	p := make(Path, len(t.stack)+1)
	copy(p, t.stack)
	p[len(t.stack)] = Field(k)
	t.out = append(t.out, p)
}

func isEmbedded(s *structural.Schema) bool { return s != nil && s.EmbeddedResource }

// prune prunes x against s; embedded says x's node is an embedded resource
// (or the resource root).
func prune(x any, s *structural.Schema, embedded bool, t *tracker) {
	if s != nil && s.PreserveUnknownFields {
		if !embedded && s.PruneNoop() {
			return
		}
		keep(x, s, embedded, t)
		return
	}
	switch x := x.(type) {
	case map[string]any:
		if s == nil {
			for k := range x {
				t.record(k)
				delete(x, k)
			}
			return
		}
		for k, v := range x {
			if embedded && isMetaField(k) {
				continue
			}
			if c, ok := s.Properties[k]; ok {
				t.push(Field(k))
				prune(v, c, isEmbedded(c), t)
				t.pop()
			} else if ap := s.AdditionalProperties; ap != nil {
				t.push(Field(k))
				prune(v, ap.Schema, isEmbedded(ap.Schema), t)
				t.pop()
			} else {
				t.record(k)
				delete(x, k)
			}
		}
	case []any:
		var items *structural.Schema
		if s != nil {
			items = s.Items
		}
		for i, v := range x {
			t.push(Index(i))
			prune(v, items, isEmbedded(items), t)
			t.pop()
		}
	}
}

// keep walks x under a preserve-unknown-fields node s: unknown keys stay,
// specified ones are pruned by their schemas, and list items are walked the
// same way with the items schema, as the apiserver does.
func keep(x any, s *structural.Schema, embedded bool, t *tracker) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			if embedded && isMetaField(k) {
				continue
			}
			if c, ok := s.Properties[k]; ok {
				t.push(Field(k))
				prune(v, c, isEmbedded(c), t)
				t.pop()
			} else if ap := s.AdditionalProperties; ap != nil {
				t.push(Field(k))
				prune(v, ap.Schema, isEmbedded(ap.Schema), t)
				t.pop()
			}
		}
	case []any:
		if s.Items == nil {
			return
		}
		for i, v := range x {
			t.push(Index(i))
			keep(v, s.Items, isEmbedded(s.Items), t)
			t.pop()
		}
	}
}
