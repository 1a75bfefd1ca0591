package embedded

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/structural"
)

// CoerceOptions says how metadata is coerced.
type CoerceOptions struct {
	// DropMalformed drops what cannot be decoded — metadata fields of the
	// wrong type or with an unparsable time, non-string apiVersion and kind
	// of embedded resources — as the apiserver does when it reads an object
	// from storage. Without it they are reported as FieldValueInvalid
	// errors, as the apiserver rejects a create or update request carrying
	// them, and the metadata concerned is left unchanged.
	DropMalformed bool
	// ReturnPaths asks for the paths of the unknown metadata fields that
	// coercion drops (metadata.foo, spec.template.metadata.foo).
	ReturnPaths bool
	// Base is where obj sits (a default value inside a CRD, say): errors
	// are reported below it, as field.Path builds paths, so that a key
	// such as "[x]" keeps its dot (default.[x].metadata). Nil reports them
	// relative to obj. Returned paths stay relative to obj.
	Base *field.Path
}

// CoerceResourceMeta replaces, in place, obj's metadata with what a round
// trip through the ObjectMeta type makes of it (see roundTripObjectMeta), as
// the apiserver does for the root of every custom resource. Absent metadata
// stays absent; metadata the round trip gives back as it is stays in
// place, not copied.
//
// Metadata that is not an object is always an error (FieldValueInvalid at
// metadata), as the apiserver fails both the request and the storage read;
// so is a malformed field unless opts.DropMalformed is set. On error obj is
// unchanged.
func CoerceResourceMeta(obj map[string]any, opts CoerceOptions) ([]string, *field.Error) {
	ps, err := coerceMeta(obj, objpath.Path{}, opts, true)
	return rendered(ps), err
}

// rendered renders paths as the apiserver's warnings name them; nil for
// none.
func rendered(ps []objpath.Path) []string {
	if len(ps) == 0 {
		return nil
	}
	return objpath.Strings(ps)
}

// coerceMeta coerces obj["metadata"]; at is the path of obj. rootRules says
// non-object metadata is an error even when dropping malformed fields.
func coerceMeta(obj map[string]any, at objpath.Path, opts CoerceOptions, rootRules bool) ([]objpath.Path, *field.Error) {
	v, found := obj["metadata"]
	if !found {
		return nil, nil
	}
	// Go values that encoding/json writes as the same JSON (labels as a
	// map[string]string, finalizers as a []string, an int generation) are
	// taken as that JSON, as the apiserver takes the object's JSON.
	if !jsonvalue.IsPlain(v, jsonvalue.MaxDepth) {
		n, err := jsonvalue.Plain(v, jsonvalue.MaxDepth)
		if err != nil {
			return nil, jsonvalue.InputError(err, fieldPath(opts.Base, at.Append(objpath.Child("metadata"))))
		}
		v = n
	}
	if m, ok := v.(map[string]any); ok && asWritten(m, objectMetaSpec) {
		// Metadata read from storage usually is as the round trip writes
		// it: obj keeps it, uncopied.
		obj["metadata"] = m
		return nil, nil
	}
	meta, unknown, err := roundTripObjectMeta(v, opts.DropMalformed)
	if err != nil {
		if opts.DropMalformed && !rootRules {
			// An embedded resource's unusable metadata is left as it is.
			return nil, nil
		}
		return nil, field.Invalid(fieldPath(opts.Base, at.Append(objpath.Child("metadata"))), v, err.Error())
	}
	obj["metadata"] = meta
	if !opts.ReturnPaths || len(unknown) == 0 {
		return nil, nil
	}
	prefix := at.Append(objpath.Child("metadata"))
	out := make([]objpath.Path, len(unknown))
	for i, u := range unknown {
		out[i] = prefix.Concat(u)
	}
	return out, nil
}

// roundTripObjectMeta returns what a round trip through the ObjectMeta Go
// type makes of metadata value v, as the apiserver's decoding does: unknown
// fields dropped (their paths, relative to metadata, returned), empty values
// dropped (labels {}, finalizers [], generation 0, name ""), timestamps in UTC
// RFC 3339 with a zero creationTimestamp removed, and nothing added. v is not
// changed; the result shares nothing with it.
//
// A malformed field (wrong JSON type, unparsable time) is dropped when
// dropMalformed is set, and otherwise makes the error encoding/json would
// return for the whole value ("json: cannot unmarshal number into Go struct
// field ObjectMeta.labels of type string"). A v that is neither an object
// nor null is always an error ("invalid metadata: expected object, got
// string" when dropping, else encoding/json's).
func roundTripObjectMeta(v any, dropMalformed bool) (map[string]any, []objpath.Path, error) {
	var m map[string]any
	switch x := v.(type) {
	case nil:
	case map[string]any:
		m = x
	default:
		if dropMalformed {
			return nil, nil, fmt.Errorf("invalid metadata: expected object, got %T", v)
		}
		return nil, nil, &typeError{value: jsonvalue.DecodeWords.Of(v), goType: "v1.ObjectMeta"}
	}
	r := roundTrip(m, true)
	if r.err != nil && !dropMalformed {
		return nil, nil, r.err
	}
	return r.meta, r.unknown, nil
}

// CoerceEmbedded coerces, in place, every x-kubernetes-embedded-resource
// value in obj (obj itself included when s is one) as the apiserver does:
// apiVersion and kind must be strings, and metadata becomes what a round
// trip through ObjectMeta makes of it. With opts.DropMalformed, non-string
// apiVersion and kind are removed and metadata that is not an object is
// left as it is; without it, they are reported as FieldValueInvalid (at
// spec.template.kind: "must be a string"; at spec.template.metadata: the
// decoding error). The apiserver stops at the first error it meets, in
// map order; CoerceEmbedded reports all of them, in key order.
func CoerceEmbedded(obj any, s *structural.Schema, opts CoerceOptions) ([]string, field.ErrorList) {
	c := coercer{opts: opts}
	c.walk(obj, s)
	return rendered(c.paths), c.errs
}

type coercer struct {
	opts  CoerceOptions
	at    objpath.Path
	paths []objpath.Path
	errs  field.ErrorList
}

func (c *coercer) walk(x any, s *structural.Schema) {
	if !s.HasEmbeddedResource() {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		c.object(x, s)
	case []any:
		if !s.Items.HasEmbeddedResource() {
			return
		}
		for i, v := range x {
			c.at = c.at.Append(objpath.Index(i))
			if n, ok := c.plain(v); ok {
				x[i], v = n, n
			}
			c.walk(v, s.Items)
			c.at = c.at.Parent()
		}
	}
}

// object is walk for an object x.
func (c *coercer) object(x map[string]any, s *structural.Schema) {
	keys := sortedKeys(x)
	var before map[string]any
	if s.EmbeddedResource {
		// The apiserver walks on below apiVersion, kind and metadata
		// with their values as they were before coercion.
		before = map[string]any{}
		for _, k := range [...]string{"apiVersion", "kind", "metadata"} {
			if v, ok := x[k]; ok {
				before[k] = v
			}
		}
		c.resource(x)
	}
	for _, k := range keys {
		v, ok := before[k]
		if !ok {
			v = x[k]
		}
		if p, found := s.Properties[k]; found {
			c.child(x, k, v, !ok, p, objpath.Child(k))
		} else if ap := s.AdditionalProperties; ap != nil {
			c.child(x, k, v, !ok, ap.Schema, objpath.Key(k))
		}
	}
}

// child walks the value v of key k of the object x with the schema cs,
// reached by the step e; current says v is x[k] (not a value from before
// the coercion of x), which a Go value that is not plain JSON then
// replaces in x by its JSON form.
func (c *coercer) child(x map[string]any, k string, v any, current bool, cs *structural.Schema, e objpath.Element) {
	if !cs.HasEmbeddedResource() {
		return
	}
	c.at = c.at.Append(e)
	if n, ok := c.plain(v); ok {
		v = n
		if current {
			x[k] = n
		}
	}
	c.walk(v, cs)
	c.at = c.at.Parent()
}

// plain is the JSON form of the value v at c.at when it is a Go value that
// is not plain JSON and its form is an object, a list or null (see
// jsonvalue.Container); a value with no JSON form is an error.
func (c *coercer) plain(v any) (any, bool) {
	n, ok, err := jsonvalue.Container(v)
	if err != nil {
		c.errs = append(c.errs, jsonvalue.InputError(err, fieldPath(c.opts.Base, c.at)))
	}
	return n, ok
}

// resource coerces the apiVersion, kind and metadata of embedded resource x.
func (c *coercer) resource(x map[string]any) {
	for _, k := range [...]string{"apiVersion", "kind"} {
		v, ok := x[k]
		if !ok {
			continue
		}
		if _, isString := v.(string); isString {
			continue
		}
		if c.opts.DropMalformed {
			delete(x, k)
			continue
		}
		c.errs = append(c.errs, field.Invalid(fieldPath(c.opts.Base, c.at.Append(objpath.Child(k))), v, "must be a string"))
	}
	paths, err := coerceMeta(x, c.at, c.opts, false)
	if err != nil {
		c.errs = append(c.errs, err)
	}
	c.paths = append(c.paths, paths...)
}

// fieldPath converts p, made of Child, Key and Index elements, to a
// field.Path.
func fieldPath(base *field.Path, p objpath.Path) *field.Path {
	fp := base
	for _, e := range p.Elements() {
		switch {
		case e.IsIndex():
			fp = fp.Index(e.Position())
		case e.IsKey():
			fp = fp.Key(e.Name())
		default:
			fp = fp.Child(e.Name())
		}
	}
	return fp
}
