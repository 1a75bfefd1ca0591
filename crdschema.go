package crdschema

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"weak"

	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/conversion"
	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/check"
	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/kubeversion"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/sample"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// CRD is a loaded CustomResourceDefinition: its internal form, the errors
// the apiserver would report when it is created, and its versions' compiled
// schemas, built on first use; and the converter it converts through, if
// any (WithConverter). A CRD is safe for concurrent use.
type CRD struct {
	*loaded
	// conv is the conversion webhook of a CRD with strategy Webhook (nil:
	// none).
	conv *conversion.Converter
}

// loaded is what a CRD holds apart from its converter: shared by the CRDs
// WithConverter makes of it, so that they compile and check once.
type loaded struct {
	crd *model.CRD
	pos schema.Position

	checkOnce sync.Once
	errs      field.ErrorList
	// built is what the check built when a version's compilation ran it:
	// the versions' structural models and compiled rules, which
	// compiledVersion takes over (guarded by mu). A check that Errors
	// runs keeps none of it: most loaded CRDs are checked and never
	// compiled, and what a check builds is about as large as the CRD.
	// It holds it weakly instead (dropped): a caller that asks for
	// Errors and then compiles or publishes the versions (the command's
	// jsonschema and openapi, a CRD defined twice, crdfake) takes it over
	// as long as no garbage collection came between; after one, the
	// versions are built again (a new Built), and nothing of it stays
	// live in the meantime.
	built   *check.Built
	dropped weak.Pointer[check.Built]
	// warns are the warnings of a create of the CRD had it no errors
	// (built on first use).
	warnOnce sync.Once
	warns    []string

	mu       sync.Mutex
	versions map[string]*Schema
	// store is the storage read path's view of the CRD (guarded by mu),
	// built on first use.
	store *conversion.Storage
}

// LoadCRD reads a CustomResourceDefinition (apiextensions.k8s.io/v1 or
// v1beta1) from YAML or JSON, as kubectl reads it. data must hold exactly
// one document, a CRD (a List holding one counts); a document that is not
// a CRD is a *NotCRDError. For inputs with many documents, see LoadCRDs.
func LoadCRD(data []byte) (*CRD, error) {
	docs, err := readDocuments("crd", data, false)
	if err != nil {
		return nil, err
	}
	switch len(docs) {
	case 0:
		return nil, errors.New("no CustomResourceDefinition")
	case 1:
		return docs[0].CRD()
	}
	for i := range docs {
		if _, err := docs[i].CRD(); err != nil {
			return nil, err
		}
	}
	return nil, errors.New("more than one CustomResourceDefinition")
}

// newCRD wraps a decoded CRD, which must not be changed afterwards. It is
// checked on the first call of Errors.
func newCRD(crd *model.CRD) *CRD {
	return &CRD{loaded: &loaded{crd: crd, versions: map[string]*Schema{}}}
}

// WithConverter returns the CRD converting through conv, the conversion
// webhook of a CRD with strategy Webhook (nil: none, and every read or
// write at a version other than the one an object is at fails for such a
// CRD). It shares c's checks and compiled schemas: nothing is compiled
// again. Read, ReadJSON, Write, Decode and Convert call conv as the
// apiserver calls the webhook, and check and restore its answers as the
// apiserver does; their ctx bounds each call. c is not changed.
func (c *CRD) WithConverter(conv *conversion.Converter) *CRD {
	if conv == c.conv {
		return c
	}
	return &CRD{loaded: c.loaded, conv: conv}
}

// Converter is the converter c converts through (WithConverter), nil
// when it has none: then a CRD with strategy Webhook reads and writes only
// at its storage version.
func (c *CRD) Converter() *conversion.Converter { return c.conv }

// Name is the CRD's metadata.name.
func (c *CRD) Name() string { return c.crd.Metadata.Name }

// GroupKind is the group and kind of the CRD's custom resources.
func (c *CRD) GroupKind() kschema.GroupKind {
	return kschema.GroupKind{Group: c.crd.Spec.Group, Kind: c.crd.Spec.Names.Kind}
}

// Position is where the CRD was read (LoadCRDs, Document.CRD); zero for
// LoadCRD.
func (c *CRD) Position() schema.Position { return c.pos }

// Errors returns the errors `kubectl create` of this CRD would report,
// sorted by field, type and detail; nil when the apiserver would accept it.
// The caller may change the returned list. The check runs once; what it
// builds on its way (the versions' structural models and compiled rules)
// is not kept live, so that many checked CRDs cost little more than
// their documents: a compilation or publication of the versions right
// after (Version, JSONSchema, OpenAPI) takes it over, unless a garbage
// collection came between.
func (c *CRD) Errors() field.ErrorList {
	return copyErrors(c.check())
}

// check checks the CRD once and returns its errors, which the caller
// must not change; what the check built is dropped, held only weakly.
func (c *loaded) check() field.ErrorList {
	c.checkOnce.Do(func() {
		var b *check.Built
		c.errs, b = check.CRD(c.crd)
		c.dropped = weak.Make(b)
	})
	return c.errs
}

// builtForVersions returns what the versions are compiled with (the
// caller holds mu): what the check built, when this call runs the check
// or the garbage collector has not yet reclaimed what it dropped, or else
// a new Built.
func (c *loaded) builtForVersions() *check.Built {
	c.checkOnce.Do(func() { c.errs, c.built = check.CRD(c.crd) })
	if c.built == nil {
		c.built = c.dropped.Value()
	}
	if c.built == nil {
		c.built = check.NewBuilt()
	}
	c.dropped = weak.Pointer[check.Built]{}
	return c.built
}

// copyErrors is a copy of errs the caller may change, nil when empty.
func copyErrors(errs field.ErrorList) field.ErrorList {
	if len(errs) == 0 {
		return nil
	}
	return append(field.ErrorList(nil), errs...)
}

// ServedVersions returns the names of the served versions, highest priority
// first, as the apiserver lists them in discovery (the first is the
// group's preferred version).
func (c *CRD) ServedVersions() []string {
	var out []string
	for _, v := range c.crd.Spec.Versions {
		if v.Served {
			out = append(out, v.Name)
		}
	}
	kubeversion.Sort(out)
	return out
}

// Deprecation returns the warning the apiserver sends with every request
// to the named version: its deprecationWarning, or "group/version Kind is
// deprecated" pointing at the highest-priority served version that is not
// deprecated and ranks above it; "" when the version is not deprecated or
// not defined.
func (c *CRD) Deprecation(version string) string { return c.deprecation(version) }

// StorageVersion returns the name of the version objects are stored as
// (storage: true); "" when the CRD marks none.
func (c *CRD) StorageVersion() string {
	for _, v := range c.crd.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

// Version returns the compiled schema of a version the CRD defines: for a
// served version, what a request for it is pruned, defaulted and validated
// with; for one that is not served, what objects stored under it are still
// read with. Compiled once, then shared.
//
// Its error says when the schema is not one to serve requests with:
//   - a *NotServedError with Defined false, and no schema, when the CRD
//     does not define the version;
//   - a *RejectedError, and no schema, when the version's schema cannot
//     be compiled at all;
//   - a *RejectedError holding Errors together with the schema, when the
//     apiserver would reject the CRD (Errors is not empty): such a CRD
//     serves nothing, so that no caller uses the schema without being
//     told. This error wins over the next: a rejected CRD has no served
//     version to name, whatever its served flags say;
//   - a *NotServedError with Defined true together with the schema, when
//     the CRD defines the version with served: false.
//
// A caller that wants the schema anyway (to show what it would do, or to
// read stored data) checks the error with errors.As; Route refuses both.
func (c *CRD) Version(name string) (*Schema, error) {
	served, defined := c.serves(name)
	if !defined {
		return nil, &NotServedError{CRD: c.Name(), APIVersion: name, Kind: c.crd.Spec.Names.Kind, Version: name, Served: c.ServedVersions()}
	}
	s, err := c.compiledVersion(name)
	if err != nil {
		return nil, err
	}
	if errs := c.Errors(); len(errs) > 0 {
		return s, &RejectedError{CRD: c.Name(), Errors: errs}
	}
	if !served {
		return s, &NotServedError{CRD: c.Name(), APIVersion: name, Kind: c.crd.Spec.Names.Kind, Version: name, Defined: true, Served: c.ServedVersions()}
	}
	return s, nil
}

// compiledVersion compiles the schema of a version the CRD defines, once,
// taking over what the CRD's check built: the version's structural model
// and the compile results of rules (shared by versions with the same
// rules on nodes of the same type).
func (c *CRD) compiledVersion(name string) (*Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.versions[name]; ok {
		return s, nil
	}
	built := c.builtForVersions()
	p := c.crd.SchemaFor(name)
	s, err := compile(p, built.Structural(p), c.crd.Spec.PreserveUnknownFields != nil && *c.crd.Spec.PreserveUnknownFields, built.Rules)
	if err != nil {
		return nil, c.rejectedBy(err)
	}
	s.crd, s.version, s.rootPath = c, name, c.schemaPath(name)
	s.namespaced = c.crd.Spec.Scope != "Cluster"
	s.deprecation = c.deprecation(name)
	if sub := c.crd.SubresourcesFor(name); sub != nil {
		s.scale = sub.Scale
		s.status = sub.Status != nil
	}
	c.versions[name] = s
	return s, nil
}

// structuralOf is the structural model of the CRD's schema p: the one its
// versions are compiled with, or the check's if still at hand, or else a
// new one. The CRD has been checked (its callers ask Errors first).
func (c *loaded) structuralOf(p *model.Props) (*structural.Schema, error) {
	c.check()
	c.mu.Lock()
	b := c.built
	if b == nil {
		b = c.dropped.Value()
	}
	s := b.Structural(p)
	c.mu.Unlock()
	if s != nil {
		return s, nil
	}
	return structural.New(p)
}

// serves reports whether the CRD serves and whether it defines a version.
func (c *CRD) serves(name string) (served, defined bool) {
	for _, v := range c.crd.Spec.Versions {
		if v.Name == name {
			return v.Served, true
		}
	}
	return false, false
}

// schemaPath is where the apiserver's errors place a version's schema in
// the internal form: the version's own, or the one shared by all versions.
func (c *CRD) schemaPath(name string) *field.Path {
	for i, v := range c.crd.Spec.Versions {
		if v.Name == name && v.Schema != nil {
			return field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")
		}
	}
	return field.NewPath("spec", "validation", "openAPIV3Schema")
}

// Schema is the compiled schema of one CRD version, or of a bare schema
// treated as a resource root. It is immutable and safe for concurrent use
// by any number of goroutines.
type Schema struct {
	props *model.Props
	s     *structural.Schema

	// crd and version are set for CRD versions; rootPath is where the
	// schema's root sits in the CRD (nil for a bare schema).
	crd      *CRD
	version  string
	rootPath *field.Path

	preserveUnknownFields bool
	namespaced            bool
	scale                 *model.Scale
	// status is set when the version has the status subresource.
	status bool
	// deprecation is the warning requests to a deprecated version get.
	deprecation string

	checkOnce sync.Once
	errs      field.ErrorList

	v *validators
}

// compileSchema compiles a bare schema as ParseSchema does. p must not be
// changed afterwards.
func compileSchema(p *model.Props) (*Schema, error) {
	s, err := compile(p, nil, false, cel.NewCompileCache())
	if err != nil {
		return nil, &RejectedError{Errors: check.BareSchema(p)}
	}
	return s, nil
}

// ParseSchema reads a bare OpenAPI v3 schema from one YAML or JSON document
// and compiles it, to be applied to objects as the schema of a resource
// root (their apiVersion, kind and metadata are kept and handled as the
// apiserver handles them). A schema that cannot be compiled at all ($ref,
// items as an array, …) is a *RejectedError; one that compiles may still be
// one the apiserver would reject: check Schema.Errors.
func ParseSchema(data []byte) (*Schema, error) {
	p, err := schema.Parse(data)
	if err != nil {
		return nil, err
	}
	return compileSchema(p)
}

// compile builds a schema's structural model (unless s, when not nil, is
// it) and validators, whose rules are compiled with cache when values
// first reach them: the caller is done with cache otherwise (see
// cel.CompileCache).
func compile(p *model.Props, s *structural.Schema, preserveUnknownFields bool, cache *cel.CompileCache) (*Schema, error) {
	if s == nil {
		var err error
		if s, err = structural.New(p); err != nil {
			return nil, err
		}
	}
	return &Schema{props: p, s: s, preserveUnknownFields: preserveUnknownFields, namespaced: true, v: newValidators(s, preserveUnknownFields, cache)}, nil
}

// Errors returns the errors the apiserver would report for the schema,
// sorted; nil when it would accept it. For a bare schema these are the
// errors of a minimal CRD holding it, with paths relative to the schema
// root (what `crdschema check` reports for a schema document); for a CRD
// version, the CRD's errors (CRD.Errors), as a rejected CRD serves no
// version. The caller may change the returned list.
func (s *Schema) Errors() field.ErrorList {
	if s.crd != nil {
		return s.crd.Errors()
	}
	s.checkOnce.Do(func() { s.errs = check.BareSchema(s.props) })
	return copyErrors(s.errs)
}

// StructuralErrors returns only the errors of the structural-schema rules
// (the apiserver's NonStructuralSchema condition: types specified, logical
// junctors carrying only value validations, metadata restricted to name
// and generateName, …), sorted; nil for a structural schema. Paths are
// relative to the schema root for a bare schema and inside the CRD for a
// CRD version.
func (s *Schema) StructuralErrors() field.ErrorList {
	errs := structural.Validate(s.rootPath, s.s)
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// Structural returns the structural model the schema was compiled to (nil
// for a version without schema). Treat it as read-only.
func (s *Schema) Structural() *structural.Schema { return s.s }

// triesPerSample bounds the candidates Samples builds for one object.
const triesPerSample = 8

// Samples returns up to n example objects that a create with the schema
// accepts (Apply reports no error, CEL rules included), generated from it:
// every required field and some optional ones, values of their type,
// format, enum, bounds and pattern (built from the regular expression and
// checked against it; an optional field whose pattern defeats the
// generator is left out), unique set items and map keys, embedded
// resources, int-or-string values and a small extra field where unknown
// fields are preserved. Each is named sample-0, sample-1, ... and, for a
// CRD version, carries the version's apiVersion (GROUP/VERSION) and kind;
// a bare schema names no group, version or kind, and its samples carry
// no apiVersion and no kind. A candidate the create refuses is repaired
// with the engine's own errors: at an error's field (and up to two of its
// ancestors) it is left out where the schema allows, given new values of
// its schema, or values at the boundary of its CEL rules built from their
// syntax (the literals they compare with, strings passing the functions
// they apply, the fields they read present and absent); a singleton's
// rule may name the object (metadata.name 'cluster'). The same seed gives
// the same objects. Fewer than n come back when candidates keep failing
// validation (at most 8 tries per object, 32 repairs each). The objects
// are the caller's.
func (s *Schema) Samples(seed uint64, n int) []map[string]any {
	var apiVersion, kind string
	if s.crd != nil {
		gk := s.crd.GroupKind()
		apiVersion, kind = s.version, gk.Kind
		if gk.Group != "" {
			apiVersion = gk.Group + "/" + s.version
		}
	}
	var out []map[string]any
	for try := 0; len(out) < n && try < triesPerSample*n; try++ {
		r := rand.New(rand.NewPCG(seed, uint64(try)))
		obj, ok := sample.Object(s.s, apiVersion, kind, fmt.Sprintf("sample-%d", len(out)), r)
		if !ok {
			continue
		}
		if s.crd == nil {
			delete(obj, "apiVersion")
			delete(obj, "kind")
		}
		if obj, ok := s.accepted(obj, r); ok {
			out = append(out, obj)
		}
	}
	return out
}

// Result is what a pipeline call makes of one object.
type Result struct {
	// Object is the resulting object, a new value sharing nothing with the
	// input. It is nil only when the apiserver would reject the request
	// while decoding it (malformed metadata). It is set when validation
	// fails: the request is rejected exactly when Errors is not empty, so
	// an admission webhook allows a request on len(Errors) == 0, never on
	// Object != nil.
	Object map[string]any
	// Pruned lists the unknown fields that were dropped, sorted and without
	// duplicates, as the apiserver's warnings name them: keys joined by
	// ".", list indices as "[i]" (spec.list[0].bar, metadata.foo).
	Pruned []string
	// Errors are the errors the apiserver would report, sorted by field,
	// type and detail.
	//
	// An object nested more than 10,000 levels deep (the readers' limit),
	// or one that contains itself (a map that is its own element, which no
	// decoded document is), is refused without a stack overflow: no
	// Object, one FieldValueInvalid error with field "".
	Errors field.ErrorList
	// Duplicates lists the fields the request body holds twice (the last
	// value is kept), as the apiserver's strict decoder names them:
	// warnings under its default fieldValidation=Warn (see Warnings),
	// errors under Strict (see Strict). ApplyJSON sets it; Apply, which
	// takes a decoded object, cannot see them: for a Document, set it from
	// Document.Duplicates. Ignored when Object is nil.
	Duplicates []string
	// Deprecation is the warning the apiserver sends with every request to
	// a version marked deprecated (its deprecationWarning, or the default
	// "GROUP/VERSION KIND is deprecated; use ..."); "" otherwise.
	// Warnings lists it first.
	Deprecation string
}

// Apply does to obj what the apiserver does to a create request
// (fieldValidation=Warn; a request to a deprecated version gets
// Result.Deprecation): prune, drop non-nullable nulls without default,
// coerce metadata (rejecting malformed metadata), default, drop .status
// when the version has the status subresource, validate. Result.Object is
// what the response shows: the stored object read back through the
// defaulting storage codec (a .status whose schema has a default
// reappears defaulted). obj is not changed.
//
// The steps are the create path of the apiserver's custom resource
// handler: decode (s.coerce), default (s.applyDefaults), prepare
// (s.prepareForCreate), validate (s.validate, the registry strategy's
// create validation, where CEL rule evaluation joins the value
// validation), read back. An update takes the same decode and default
// steps for the new object and validates it against the old one; it is a
// sibling of Apply taking the old object as well.
func (s *Schema) Apply(obj map[string]any) Result {
	obj, err := copyObject(obj)
	if err != nil {
		return refused(err)
	}
	return s.apply(obj)
}

// apply is Apply on an object of its own, changed in place.
func (s *Schema) apply(obj map[string]any) Result {
	if obj == nil {
		obj = map[string]any{}
	}
	pruned, rejected := s.coerce(obj)
	if len(rejected) > 0 {
		errorsort.Sort(rejected)
		return Result{Pruned: []string{}, Errors: rejected, Deprecation: s.deprecation}
	}
	r := Result{Object: obj, Pruned: sortedUnique(pruned), Deprecation: s.deprecation}
	s.applyDefaults(obj)
	dropped := s.prepareForCreate(obj)
	r.Errors = s.validate(obj)
	errorsort.Sort(r.Errors)
	if dropped {
		s.readBack(obj)
	}
	return r
}

// ApplyJSON is Apply for one object given as a request body: JSON (or
// YAML), decoded as the apiserver decodes a request (integers as int64).
// It saves Apply's copy of the object, as the decoded object is the
// Result's. It fails when data is not exactly one mapping document.
func (s *Schema) ApplyJSON(data []byte) (Result, error) {
	docs, err := schema.ReadDocuments("object", data)
	if err != nil {
		return Result{}, err
	}
	if len(docs) != 1 || docs[0].Object == nil {
		return Result{}, errors.New("the object is not exactly one mapping document")
	}
	r := s.apply(docs[0].Object)
	if r.Object != nil {
		r.Duplicates = docs[0].Duplicates // found while decoding
	}
	return r, nil
}

// Prune drops what the schema does not specify, as the apiserver does when
// it reads an object from storage: unknown fields are dropped and reported,
// the metadata of the root and of embedded resources is coerced through
// ObjectMeta, and malformed metadata fields are dropped rather than
// rejected. Only root metadata that is not an object at all fails (nil
// Object, one error at metadata). obj is not changed.
func (s *Schema) Prune(obj map[string]any) Result {
	obj, err := copyObject(obj)
	if err != nil {
		return refused(err)
	}
	if obj == nil {
		obj = map[string]any{}
	}
	pruned, errs := s.pruneAndCoerce(obj)
	if len(errs) > 0 {
		errorsort.Sort(errs)
		return Result{Pruned: []string{}, Errors: errs}
	}
	return Result{Object: obj, Pruned: sortedUnique(pruned)}
}

// Default drops null values of non-nullable fields without default and
// applies the schema's defaults, without pruning. obj is not changed;
// Result.Pruned is always empty, and so is Result.Errors unless obj cannot
// be taken at all (too deep, or a value with no JSON form).
func (s *Schema) Default(obj map[string]any) Result {
	obj, err := copyObject(obj)
	if err != nil {
		return refused(err)
	}
	if obj == nil {
		obj = map[string]any{}
	}
	s.dropNullsAndDefault(obj)
	return Result{Object: obj, Pruned: []string{}}
}

// Validate validates obj as the apiserver validates a created object after
// pruning and defaulting: OpenAPI value validation, ObjectMeta of the root
// and of embedded resources, list-type set/map uniqueness, the scale
// subresource's paths, then the x-kubernetes-validations (CEL) rules. The
// errors are sorted; obj is not changed.
func (s *Schema) Validate(obj map[string]any) field.ErrorList {
	// One walk for a normal object; a too deep one is copyObject's error.
	if !jsonvalue.IsNormal(obj, jsonvalue.MaxDepth) {
		c, err := copyObject(obj)
		if err != nil {
			return field.ErrorList{err}
		}
		obj = c
	}
	errs := s.validate(obj)
	errorsort.Sort(errs)
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

// Objects reach the pipeline decoded in many ways. Every entry point that
// takes a map (Apply, Prune, Default, Validate, ApplyUpdate,
// ApplyStatusUpdate) first turns what encoding/json (float64,
// json.Number), sigs.k8s.io/yaml, runtime.DefaultUnstructuredConverter and
// hand-written Go (map[string]string labels, []string lists, int replicas,
// types with a MarshalJSON method) produce into the values the apiserver's
// JSON decoder produces, so that the answer is the apiserver's for the same
// JSON text: integers as int64, other numbers as float64. A float64 that is
// a whole number is taken as the integer its JSON text ("3") decodes to;
// the apiserver keeps the text "3.0" a float, which the scale subresource's
// replica paths tell apart. ApplyJSON decodes text exactly; the readers
// (ReadDocuments, Documents), whose objects all come from that decoder,
// hand their whole floats over as json.Number with a fraction ("3.0";
// jsonvalue.KeepFloats), which every entry point takes for the float that
// text is.

// copyObject copies an object a caller gives, so that nothing is shared
// with it, in the values the apiserver's JSON decoder produces (see
// above): the same answer for an object however it was decoded. An
// object nested deeper than the readers' limit, or containing itself, is
// refused with an error saying so; a value with no JSON form, with an
// error naming it.
func copyObject(m map[string]any) (map[string]any, *field.Error) {
	if m == nil {
		return nil, nil
	}
	c, err := jsonvalue.Normalize(m, jsonvalue.MaxDepth)
	if err != nil {
		return nil, jsonvalue.InputError(err, nil)
	}
	return c.(map[string]any), nil
}

// refused is the Result for an object that cannot be taken at all.
func refused(err *field.Error) Result {
	return Result{Pruned: []string{}, Errors: field.ErrorList{err}}
}

// deepCopyMap copies a JSON object so that nothing is shared with it.
func deepCopyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out, _ := jsonvalue.DeepCopy(m).(map[string]any)
	return out
}
