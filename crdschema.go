package crdschema

import (
	"errors"
	"fmt"
	"sort"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/check"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// CRD is a loaded CustomResourceDefinition: its internal form, the errors
// the apiserver would report when it is created, and its versions' compiled
// schemas, built on first use. A CRD is safe for concurrent use.
type CRD struct {
	crd *schema.CRD

	checkOnce sync.Once
	errs      field.ErrorList

	mu       sync.Mutex
	versions map[string]*Schema
}

// LoadCRD reads a CustomResourceDefinition (apiextensions.k8s.io/v1 or
// v1beta1) from YAML or JSON, as kubectl reads it. data must hold exactly
// one CRD document (a List holding one counts); other documents are an
// error.
func LoadCRD(data []byte) (*CRD, error) {
	docs, err := schema.ReadDocuments("crd", data)
	if err != nil {
		return nil, err
	}
	var found *schema.Document
	for i := range docs {
		d := &docs[i]
		if d.Object == nil || !schema.IsCRD(d.Object) {
			return nil, fmt.Errorf("document %d is not a CustomResourceDefinition", d.Index)
		}
		if found != nil {
			return nil, errors.New("more than one CustomResourceDefinition")
		}
		found = d
	}
	if found == nil {
		return nil, errors.New("no CustomResourceDefinition")
	}
	crd, err := schema.DecodeCRDDocument(*found)
	if err != nil {
		return nil, fmt.Errorf("cannot decode CustomResourceDefinition: %w", err)
	}
	return NewCRD(crd), nil
}

// NewCRD wraps a parsed CRD. The CRD must not be changed afterwards. It is
// checked on the first call of Errors.
func NewCRD(crd *schema.CRD) *CRD {
	return &CRD{crd: crd, versions: map[string]*Schema{}}
}

// Name is the CRD's metadata.name.
func (c *CRD) Name() string { return c.crd.Metadata.Name }

// Internal returns the CRD in the apiserver's internal form. Treat it as
// read-only.
func (c *CRD) Internal() *schema.CRD { return c.crd }

// Errors returns the errors `kubectl create` of this CRD would report,
// sorted by field, type and detail; nil when the apiserver would accept it.
// The caller may change the returned list.
func (c *CRD) Errors() field.ErrorList {
	c.checkOnce.Do(func() {
		c.errs = check.CRD(c.crd)
		check.SortErrors(c.errs)
	})
	if len(c.errs) == 0 {
		return nil
	}
	return append(field.ErrorList(nil), c.errs...)
}

// Versions returns the names of the served versions, in the CRD's order.
func (c *CRD) Versions() []string {
	var out []string
	for _, v := range c.crd.Spec.Versions {
		if v.Served {
			out = append(out, v.Name)
		}
	}
	return out
}

// Version returns the compiled schema of the named version. It fails when
// the CRD does not define or does not serve that version, or when the
// version's schema cannot be built at all; it does not fail because of
// other CRD errors (see Errors).
func (c *CRD) Version(name string) (*Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.versions[name]; ok {
		return s, nil
	}
	served := false
	for _, v := range c.crd.Spec.Versions {
		if v.Name == name && v.Served {
			served = true
		}
	}
	if !served {
		return nil, fmt.Errorf("CustomResourceDefinition %q does not serve version %q", c.Name(), name)
	}
	s, err := compile(c.crd.SchemaFor(name), c.crd.Spec.PreserveUnknownFields != nil && *c.crd.Spec.PreserveUnknownFields)
	if err != nil {
		return nil, err
	}
	s.group, s.version, s.kind = c.crd.Spec.Group, name, c.crd.Spec.Names.Kind
	s.namespaced = c.crd.Spec.Scope != "Cluster"
	if sub := c.crd.SubresourcesFor(name); sub != nil {
		s.scale = sub.Scale
		s.status = sub.Status != nil
	}
	c.versions[name] = s
	return s, nil
}

// Schema is the compiled schema of one CRD version, or of a bare schema
// treated as a resource root. It is immutable and safe for concurrent use
// by any number of goroutines.
type Schema struct {
	props *schema.Props
	s     *structural.Schema

	// set for CRD versions
	group, version, kind  string
	preserveUnknownFields bool
	namespaced            bool
	scale                 *schema.Scale
	// status is set when the version has the status subresource.
	status bool

	v *validators
}

// CompileSchema compiles a bare OpenAPI v3 schema, to be applied to objects
// as the schema of a resource root (their apiVersion, kind and metadata are
// kept and handled as the apiserver handles them). p must not be changed
// afterwards.
func CompileSchema(p *schema.Props) (*Schema, error) {
	return compile(p, false)
}

// ParseSchema reads a bare OpenAPI v3 schema from one YAML or JSON document
// and compiles it with CompileSchema.
func ParseSchema(data []byte) (*Schema, error) {
	docs, err := schema.ReadDocuments("schema", data)
	if err != nil {
		return nil, err
	}
	if len(docs) != 1 || docs[0].Object == nil {
		return nil, errors.New("a schema is exactly one mapping document")
	}
	p := &schema.Props{}
	if err := schema.DecodeProps(docs[0].JSON, p); err != nil {
		return nil, fmt.Errorf("cannot decode schema: %w", err)
	}
	return compile(p, false)
}

func compile(p *schema.Props, preserveUnknownFields bool) (*Schema, error) {
	s, err := structural.New(p)
	if err != nil {
		return nil, err
	}
	return &Schema{props: p, s: s, preserveUnknownFields: preserveUnknownFields, namespaced: true, v: newValidators(s, preserveUnknownFields)}, nil
}

// Structural returns the structural model the schema was compiled to (nil
// for a version without schema). Treat it as read-only.
func (s *Schema) Structural() *structural.Schema { return s.s }

// Props returns the parsed schema. Treat it as read-only.
func (s *Schema) Props() *schema.Props { return s.props }

// Result is what a pipeline call makes of one object.
type Result struct {
	// Object is the resulting object, a new value sharing nothing with the
	// input. It is nil when the apiserver would reject the request while
	// decoding it (malformed metadata).
	Object map[string]any
	// Pruned lists the unknown fields that were dropped, sorted and without
	// duplicates, as the apiserver's warnings name them: keys joined by
	// ".", list indices as "[i]" (spec.list[0].bar, metadata.foo).
	Pruned []string
	// Errors are the errors the apiserver would report, sorted by field,
	// type and detail.
	Errors field.ErrorList
}

// Apply does to obj what the apiserver does to a create request
// (fieldValidation=Warn): prune, drop non-nullable nulls without default,
// coerce metadata (rejecting malformed metadata), default, drop .status
// when the version has the status subresource, validate. Result.Object is
// what the response shows: the stored object read back through the
// defaulting storage codec (a .status whose schema has a default
// reappears defaulted). obj is not changed.
func (s *Schema) Apply(obj map[string]any) Result {
	return s.ApplyInPlace(deepCopyMap(obj))
}

// ApplyInPlace is Apply working on obj itself: obj is changed, and
// Result.Object is obj or nil. Use it to save a copy when obj is yours.
func (s *Schema) ApplyInPlace(obj map[string]any) Result {
	var r Result
	if obj == nil {
		obj = map[string]any{}
	}
	pruned, rejected := s.coerce(obj)
	if len(rejected) > 0 {
		check.SortErrors(rejected)
		return Result{Pruned: []string{}, Errors: rejected}
	}
	r.Pruned = sortedUnique(pruned)
	s.applyDefaults(obj)
	dropped := s.prepareForCreate(obj)
	r.Object = obj
	r.Errors = s.validate(obj)
	check.SortErrors(r.Errors)
	if dropped {
		s.readBack(obj)
	}
	return r
}

// Prune drops what the schema does not specify, as the apiserver does when
// it reads an object from storage: unknown fields are dropped and reported,
// the metadata of the root and of embedded resources is coerced through
// ObjectMeta, and malformed metadata fields are dropped rather than
// rejected. Only root metadata that is not an object at all fails (nil
// Object, one error at metadata). obj is not changed.
func (s *Schema) Prune(obj map[string]any) Result {
	obj = deepCopyMap(obj)
	if obj == nil {
		obj = map[string]any{}
	}
	pruned, errs := s.pruneAndCoerce(obj)
	if len(errs) > 0 {
		check.SortErrors(errs)
		return Result{Pruned: []string{}, Errors: errs}
	}
	return Result{Object: obj, Pruned: sortedUnique(pruned)}
}

// Default drops null values of non-nullable fields without default and
// applies the schema's defaults, without pruning. obj is not changed;
// Result.Pruned and Result.Errors are always empty.
func (s *Schema) Default(obj map[string]any) Result {
	obj = deepCopyMap(obj)
	if obj == nil {
		obj = map[string]any{}
	}
	s.dropNullsAndDefault(obj)
	return Result{Object: obj, Pruned: []string{}}
}

// Validate validates obj as the apiserver validates a created object after
// pruning and defaulting: OpenAPI value validation, ObjectMeta of the root
// and of embedded resources, list-type set/map uniqueness, the scale
// subresource's paths. CEL rules are not evaluated. The errors are sorted;
// obj is not changed.
func (s *Schema) Validate(obj map[string]any) field.ErrorList {
	errs := s.validate(obj)
	check.SortErrors(errs)
	return errs
}

func sortedUnique(in []string) []string {
	out := make([]string, 0, len(in))
	out = append(out, in...)
	sort.Strings(out)
	n := 0
	for i, p := range out {
		if i > 0 && p == out[n-1] {
			continue
		}
		out[n] = p
		n++
	}
	return out[:n]
}

// deepCopyMap copies a JSON object so that nothing is shared with it.
func deepCopyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out, _ := defaulting.DeepCopy(m).(map[string]any)
	return out
}
