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
// fields, as the apiserver's warnings name them (spec.list[0].bar); asking
// for nothing costs nothing: pruning an object that needs no change
// allocates no memory.
//
// Objects are read as the JSON that encoding/json writes for them, the
// rule of every package of this module: the plain JSON values
// (map[string]any, []any, string, bool, int64, float64, nil) as they are,
// a nil map or slice as null, and any other Go value (a map[string]string,
// a []string, an int32, a json.Number, a nil pointer, a struct or a value
// with a MarshalJSON method) as its JSON form. A whole float64 stays a
// float, as the apiserver's decoder holds "2.0" (the module root, whose
// callers decode with encoding/json, reads it as the integer "2" instead).
// A value with no JSON form (a channel, NaN, a map with int keys) is an
// error naming its path and Go type wherever an entry point that returns
// errors reads it.
//
// Prune and DropNulls work in place: a Go value they must look into or
// test for null is replaced, in the object, by its JSON form (a new
// map[string]any, []any or nil, pruned as such; the caller's typed value
// itself is not changed). Scalars of other Go types are not read and stay
// as they are, and so does a value with no JSON form, since they return no
// error (package validation reports it). The value they are called with
// must be a map[string]any or a []any to be changed at all.
package prune

import (
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/structural"
)

// Options says how Prune treats an object.
type Options struct {
	// ResourceRoot is set when the object is a whole resource, so that its
	// apiVersion, kind and metadata are implicitly specified.
	ResourceRoot bool
	// ReturnPaths asks Prune to return the paths of the removed fields.
	ReturnPaths bool
	// DropNulls also removes, in the same walk, the null object fields
	// whose schema is neither nullable nor has a default, as the apiserver
	// does right after pruning a request: the result is that of Prune
	// followed by dropping the non-nullable nulls without default
	// (what defaulting.DropNullsAndDefault does before defaulting). Removed nulls are not
	// reported as pruned.
	DropNulls bool
}

// Prune removes, in place, every field of obj that s does not specify, and
// returns the paths of the removed fields when opts.ReturnPaths is set,
// rendered as the apiserver's warnings name them (keys joined by ".", list
// indices as "[i]") and sorted as it sorts them; nil otherwise or when
// nothing was removed. obj is a JSON value (see the package doc for Go
// values of other types). A nil schema specifies nothing: everything below
// obj's top-level keys is removed (and, unless obj is a resource root,
// those keys too). s is never changed.
//
// Unknown fields under the root's metadata are not pruned here; package
// embedded coerces metadata and reports its unknown fields.
//
// Without paths, and with paths until the first removed field, Prune
// allocates nothing.
func Prune(obj any, s *structural.Schema, opts Options) []string {
	return objpath.SortedStrings(prunePaths(obj, s, opts))
}

// prunePaths is Prune returning the removed fields' paths unsorted.
func prunePaths(obj any, s *structural.Schema, opts Options) []objpath.Path {
	w := walker{track: opts.ReturnPaths, dropNulls: opts.DropNulls}
	embedded := opts.ResourceRoot
	if s == nil && opts.ResourceRoot {
		s = &structural.Schema{}
	}
	if s != nil && s.EmbeddedResource {
		embedded = true
	}
	switch x := obj.(type) {
	case map[string]any:
		w.object(x, s, embedded, true)
	case []any:
		w.list(x, s, embedded)
	}
	return w.paths.Paths()
}

// isMetaField reports the keys an embedded resource specifies implicitly.
func isMetaField(k string) bool {
	return k == "apiVersion" || k == "kind" || k == "metadata"
}

func isEmbedded(s *structural.Schema) bool { return s != nil && s.EmbeddedResource }

// walker holds what a Prune call needs throughout the walk.
//
// Paths are tracked with an objpath.Tracker (see there): nothing is
// allocated until a field is removed.
type walker struct {
	track     bool
	dropNulls bool
	// paths are the removed fields' paths.
	paths objpath.Tracker
}

// record notes the removal of key k of an object; top says the object is
// the value Prune was called with. The apiserver does not report
// apiVersion, kind and metadata removed from the top level of a value that
// is not a resource root.
func (w *walker) record(k string, top bool) {
	if !w.track || (top && isMetaField(k)) {
		return
	}
	w.paths.Removed(objpath.Field(k))
}

// object prunes the object x against s; embedded says x is an embedded
// resource (or the resource root).
func (w *walker) object(x map[string]any, s *structural.Schema, embedded, top bool) {
	if s == nil {
		if !w.track {
			clear(x)
			return
		}
		for k := range x {
			w.record(k, top)
			delete(x, k)
		}
		return
	}
	if s.PreserveUnknownFields {
		if embedded || !s.PruneNoop() {
			w.keepObject(x, s, embedded)
		}
		return
	}
	ap := s.AdditionalProperties
	for k, v := range x {
		c, ok := s.Property(k)
		if !ok {
			if embedded && isMetaField(k) {
				w.metaField(x, k, v, s)
				continue
			}
			if ap == nil {
				w.record(k, top)
				delete(x, k)
				continue
			}
			c = ap.Schema
		} else if embedded && isMetaField(k) {
			w.metaField(x, k, v, s)
			continue
		}
		w.field(x, k, v, c)
	}
}

// keepObject walks the object x below a preserve-unknown-fields node s (not
// nil): unknown keys stay, specified ones are pruned by their schemas.
func (w *walker) keepObject(x map[string]any, s *structural.Schema, embedded bool) {
	ap := s.AdditionalProperties
	for k, v := range x {
		if embedded && isMetaField(k) {
			w.metaField(x, k, v, s)
			continue
		}
		c, ok := s.Property(k)
		if !ok {
			if ap == nil {
				continue
			}
			c = ap.Schema
		}
		w.field(x, k, v, c)
	}
}

// field prunes the value v of key k of the object x against its
// schema c, and drops it if it is a droppable null.
func (w *walker) field(x map[string]any, k string, v any, c *structural.Schema) {
	switch v := v.(type) {
	case nil:
		if w.dropNulls && droppable(c) {
			delete(x, k)
		}
	case map[string]any:
		if v == nil {
			w.typedField(x, k, v, c)
			return
		}
		n := w.paths.Mark()
		w.object(v, c, isEmbedded(c), false)
		w.paths.Up(n, objpath.Field(k))
	case []any:
		if v == nil {
			w.typedField(x, k, v, c)
			return
		}
		n := w.paths.Mark()
		w.list(v, c, isEmbedded(c))
		w.paths.Up(n, objpath.Field(k))
	case string, bool, int64, float64:
	default:
		w.typedField(x, k, v, c)
	}
}

// typedField is field for a value that is not a plain JSON value: one
// whose JSON form is an object, a list or null replaces it in x and is
// pruned as such (see the package doc).
func (w *walker) typedField(x map[string]any, k string, v any, c *structural.Schema) {
	if n, ok, _ := jsonvalue.Container(v); ok {
		x[k] = n
		w.field(x, k, n, c)
	}
}

// typedItem is typedField for the item i of a list.
func typedItem(x []any, i int) (any, bool) {
	n, ok, _ := jsonvalue.Container(x[i])
	if ok {
		x[i] = n
	}
	return n, ok
}

// metaField handles the implicitly specified key k of an embedded resource
// x with schema s: never pruned, but its nulls are dropped as anywhere else.
func (w *walker) metaField(x map[string]any, k string, v any, s *structural.Schema) {
	if !w.dropNulls {
		return
	}
	c := s.Field(k)
	if c == nil {
		return
	}
	if n, ok, _ := jsonvalue.Container(v); ok {
		x[k], v = n, n
	}
	if v == nil {
		if droppable(c) {
			delete(x, k)
		}
		return
	}
	DropNulls(v, c)
}

// list prunes the items of the list x against s's items; embedded says s
// is an embedded resource (or the resource root).
func (w *walker) list(x []any, s *structural.Schema, embedded bool) {
	var items *structural.Schema
	if s != nil {
		if s.PreserveUnknownFields {
			if embedded || !s.PruneNoop() {
				w.keepList(x, s)
			}
			return
		}
		items = s.Items
	}
	emb := isEmbedded(items)
	for i, v := range x {
		w.item(x, i, v, items, emb, false)
	}
}

// item prunes the item v at index i of the list x with the schema items
// (keeping unknown fields when keep is set), replacing a value that is not
// plain JSON by its JSON form first when that is an object or a list.
func (w *walker) item(x []any, i int, v any, items *structural.Schema, emb, keep bool) {
	switch v := v.(type) {
	case map[string]any:
		n := w.paths.Mark()
		if keep {
			w.keepObject(v, items, emb)
		} else {
			w.object(v, items, emb, false)
		}
		w.paths.Up(n, objpath.Index(i))
	case []any:
		n := w.paths.Mark()
		if keep {
			w.keepList(v, items)
		} else {
			w.list(v, items, emb)
		}
		w.paths.Up(n, objpath.Index(i))
	case nil, string, bool, int64, float64:
	default:
		if n, ok := typedItem(x, i); ok {
			w.item(x, i, n, items, emb, keep)
		}
	}
}

// keepList walks the items of the list x below a preserve-unknown-fields
// node s (not nil) as the apiserver does: with s's items schema, still
// keeping unknown keys.
func (w *walker) keepList(x []any, s *structural.Schema) {
	items := s.Items
	if items == nil {
		return
	}
	emb := isEmbedded(items)
	for i, v := range x {
		w.item(x, i, v, items, emb, true)
	}
}
