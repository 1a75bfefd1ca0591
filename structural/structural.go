// Package structural holds the structural model of a CRD schema: the tree of
// types, properties, items and additionalProperties that the apiserver's
// pruning, defaulting and validation walk, built once from a parsed schema
// (New), and the apiserver's rules for a structural schema (Validate).
//
//	p, err := schema.Parse(data)          // the schema as written
//	s, err := structural.New(p)           // its structural model
//	errs := structural.Validate(nil, s)   // rules 1–4, the apiserver's paths
//	prune.Prune(obj, s, prune.Options{ResourceRoot: true})
//
// The model is immutable and safe for concurrent use. Each node keeps the
// node it was built from (Source), from which validation reads the value
// validations, junctors and CEL rules. A Schema may also be written by hand:
// every package that reads the model reads only its exported fields, so a
// hand-built tree prunes, defaults and validates as the same tree built by
// New (New precomputes a few facts per node for speed; a node New did not
// build computes them when asked).
package structural

import (
	"errors"
	"fmt"
	"sort"

	"github.com/crdschema/crdschema/schema"
)

// Schema is one node of a structural schema. It is built by New (or by
// hand, or by Derive), never changed afterwards, and safe for concurrent
// use by any number of goroutines. Children are held by pointer.
type Schema struct {
	// Type is the node's type: object, array, string, integer, number,
	// boolean, or "" (only with IntOrString or PreserveUnknownFields).
	Type string
	// Nullable is nullable: true.
	Nullable bool
	// Default is the default value; meaningful only when HasDefault.
	Default any
	// HasDefault reports a non-null default.
	HasDefault bool

	// Properties are the specified fields of an object.
	Properties map[string]*Schema
	// Items is the schema of array items.
	Items *Schema
	// AdditionalProperties is non-nil when the keyword is present.
	AdditionalProperties *AdditionalProperties

	// PreserveUnknownFields is x-kubernetes-preserve-unknown-fields: true.
	PreserveUnknownFields bool
	// EmbeddedResource is x-kubernetes-embedded-resource: true.
	EmbeddedResource bool
	// IntOrString is x-kubernetes-int-or-string: true.
	IntOrString bool
	// ListType is x-kubernetes-list-type ("" when unset).
	ListType string
	// ListMapKeys is x-kubernetes-list-map-keys.
	ListMapKeys []string
	// MapType is x-kubernetes-map-type ("" when unset).
	MapType string

	// Source is the node as written that this one was built from (nil
	// for none). Its structural keywords (type, properties, items, …)
	// are those of the fields above and are not read again; the packages
	// that validate read from it the value validations (format, bounds,
	// pattern, enum, required, …), the logical junctors, the
	// x-kubernetes-validations rules, title and description. A node
	// written by hand may set it to give those; treat it as read-only.
	Source *schema.Props

	defaultBelow  bool
	embeddedBelow bool
	pruneNoop     bool
	// shape says whether a schema is specified below the node: leaf or
	// nested, or unknown (zero) in a node New did not build.
	shape uint8
	// props are the facts about the node's properties; nil for a node
	// without properties or one New did not build. (Behind a pointer: most
	// nodes have no properties, and a Schema is 160 bytes, not 256.)
	props *propFacts
}

// propFacts are what New precomputes about the properties of a node.
type propFacts struct {
	// sorted are the properties sorted by name.
	sorted []propEntry
	// defaulting are the names of the properties with a default at or
	// below them, sorted.
	defaulting []string
	// withDefault are the names of the properties with a default, sorted.
	withDefault []string
	// index is the properties as a hash table for Property.
	index propIndex
}

// The values of Schema.shape.
const (
	shapeUnknown uint8 = iota
	shapeLeaf
	shapeNested
)

// AdditionalProperties is the additionalProperties keyword: a schema, or a
// bare boolean (Schema nil).
type AdditionalProperties struct {
	Allows bool
	Schema *Schema
}

// New builds the structural model of a parsed schema, as the apiserver's
// NewStructural does: nil for a nil schema, an error for keywords that no
// structural schema can hold ($ref, definitions, …, items as an array,
// x-kubernetes-preserve-unknown-fields: false). The rules a structural
// schema must satisfy are checked separately, by Validate. p is not
// changed, and the model keeps pointers into it (Source): do not change
// p afterwards. A nil entry of a properties map is an empty schema, as the
// apiserver decodes a null property.
func New(p *schema.Props) (*Schema, error) {
	if p == nil {
		return nil, nil
	}
	// Building checks what buildable would reject as it goes (one walk of
	// the tree instead of two); only when it finds something does
	// buildable walk again, to name the first problem in the apiserver's
	// order.
	if s, ok := build(p, true); ok {
		return s, nil
	}
	if err := buildable(p); err != nil {
		return nil, err
	}
	s, _ := build(p, false)
	return s, nil
}

// allBuildable reports whether buildable finds nothing wrong anywhere in the
// tree. It visits the same nodes in any order. build uses it for the logical
// junctors, which it does not build.
func allBuildable(p *schema.Props) bool {
	if p == nil {
		return true // a null property: an empty schema
	}
	if !nodeBuildable(p) {
		return false
	}
	if p.Items != nil && p.Items.Schema != nil && !allBuildable(p.Items.Schema) {
		return false
	}
	for _, prop := range p.Properties {
		if !allBuildable(prop) {
			return false
		}
	}
	if p.AdditionalProperties != nil && p.AdditionalProperties.Schema != nil {
		return allBuildable(p.AdditionalProperties.Schema)
	}
	return true
}

// unsupportedKeyword reports whether unsupported would return an error.
func unsupportedKeyword(p *schema.Props) bool {
	return p.ID != "" || p.Schema != "" || (p.Ref != nil && *p.Ref != "") ||
		len(p.PatternProperties) > 0 || len(p.Dependencies) > 0 ||
		p.AdditionalItems != nil || len(p.Definitions) > 0
}

// nodeBuildable reports whether buildable finds nothing wrong in p itself
// and its logical junctors (not in its properties, items and
// additionalProperties, which build visits).
func nodeBuildable(p *schema.Props) bool {
	if unsupportedKeyword(p) || (p.XPreserveUnknownFields != nil && !*p.XPreserveUnknownFields) {
		return false
	}
	if p.Items != nil && len(p.Items.Array) > 0 {
		return false
	}
	if p.Not != nil && !allBuildable(p.Not) {
		return false
	}
	for _, l := range [3][]schema.Props{p.AllOf, p.AnyOf, p.OneOf} {
		for i := range l {
			if !allBuildable(&l[i]) {
				return false
			}
		}
	}
	return true
}

// build converts a node. With check, it returns false as soon as it meets
// a node that buildable would reject; without, the node must be known to
// be buildable.
func build(p *schema.Props, check bool) (*Schema, bool) {
	s := &Schema{}
	if !fill(s, p, check) {
		return nil, false
	}
	return s, true
}

// fill is build into s.
func fill(s *Schema, p *schema.Props, check bool) bool {
	if check && !nodeBuildable(p) {
		return false
	}
	*s = Schema{
		Type:                  p.Type,
		Nullable:              p.Nullable,
		PreserveUnknownFields: p.XPreserveUnknownFields != nil && *p.XPreserveUnknownFields,
		EmbeddedResource:      p.XEmbeddedResource,
		IntOrString:           p.XIntOrString,
		ListMapKeys:           p.XListMapKeys,
		Source:                p,
		embeddedBelow:         p.XEmbeddedResource,
	}
	if p.Default != nil && p.Default.Value != nil {
		s.Default, s.HasDefault = p.Default.Value, true
	}
	if p.XListType != nil {
		s.ListType = *p.XListType
	}
	if p.XMapType != nil {
		s.MapType = *p.XMapType
	}
	if p.Items != nil && p.Items.Schema != nil {
		var ok bool
		if s.Items, ok = build(p.Items.Schema, check); !ok {
			return false
		}
	}
	if len(p.Properties) > 0 && !fillProperties(s, p.Properties, check) {
		return false
	}
	if ap := p.AdditionalProperties; ap != nil && !fillAdditional(s, ap, check) {
		return false
	}
	s.summarizeChildren()
	return true
}

// fillProperties is fill for the properties of s, with the facts about
// them (summarizeProperties): the map is read once.
func fillProperties(s *Schema, props map[string]*schema.Props, check bool) bool {
	// Each child points to the property's Props in p (shared, never
	// changed); the children share one allocation.
	s.Properties = make(map[string]*Schema, len(props))
	nodes := make([]Schema, len(props))
	entries := make([]propEntry, 0, len(props))
	for k, prop := range props {
		n := &nodes[len(entries)]
		if prop == nil {
			prop = &schema.Props{} // a null property, as the apiserver decodes it
		}
		if !fill(n, prop, check) {
			return false
		}
		s.Properties[k] = n
		entries = append(entries, propEntry{name: k, child: n})
	}
	s.summarizeProperties(entries)
	return true
}

// fillAdditional is fill for the additionalProperties of s.
func fillAdditional(s *Schema, ap *schema.PropsOrBool, check bool) bool {
	s.AdditionalProperties = &AdditionalProperties{Allows: ap.Allows}
	if ap.Schema == nil {
		return true
	}
	var ok bool
	if s.AdditionalProperties.Schema, ok = build(ap.Schema, check); !ok {
		return false
	}
	s.AdditionalProperties.Allows = true
	return true
}

// buildable walks the whole tree, junctors and what is below them included,
// in the apiserver's order and returns the first reason no structural model
// can be built: a keyword no CRD schema may use, items as an array, or
// x-kubernetes-preserve-unknown-fields: false.
func buildable(p *schema.Props) error {
	if p == nil {
		return nil
	}
	if err := unsupported(p); err != nil {
		return err
	}
	if err := buildableJunctors(p); err != nil {
		return err
	}
	if p.XPreserveUnknownFields != nil && !*p.XPreserveUnknownFields {
		return errors.New("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")
	}
	if p.Items != nil {
		if len(p.Items.Array) > 0 {
			return errors.New("OpenAPIV3Schema 'items' must be a schema, but is an array")
		}
		if err := buildable(p.Items.Schema); err != nil {
			return err
		}
	}
	for _, k := range sortedPropKeys(p.Properties) {
		if err := buildable(p.Properties[k]); err != nil {
			return err
		}
	}
	if p.AdditionalProperties != nil {
		return buildable(p.AdditionalProperties.Schema)
	}
	return nil
}

// buildableJunctors is buildable for the logical junctors of p: not, then
// allOf, anyOf and oneOf.
func buildableJunctors(p *schema.Props) error {
	if err := buildable(p.Not); err != nil {
		return err
	}
	for _, l := range [][]schema.Props{p.AllOf, p.AnyOf, p.OneOf} {
		for i := range l {
			if err := buildable(&l[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

func unsupported(p *schema.Props) error {
	name := ""
	switch {
	case p.ID != "":
		name = "id"
	case p.Schema != "":
		name = "schema"
	case p.Ref != nil && *p.Ref != "":
		name = "$ref"
	case len(p.PatternProperties) > 0:
		name = "patternProperties"
	case len(p.Dependencies) > 0:
		name = "dependencies"
	case p.AdditionalItems != nil:
		name = "additionalItems"
	case len(p.Definitions) > 0:
		name = "definitions"
	}
	if name == "" {
		return nil
	}
	return fmt.Errorf("OpenAPIV3Schema '%s' is not supported", name)
}

// summarize computes the per-subtree facts the walkers use to skip work.
func (s *Schema) summarize() {
	s.defaultBelow, s.embeddedBelow, s.props = false, s.EmbeddedResource, nil
	if len(s.Properties) > 0 {
		s.summarizeProperties(propEntries(s.Properties))
	}
	s.summarizeChildren()
}

// summarizeChildren is the rest of summarize once the facts about the
// properties are in: what items and additionalProperties add, PruneNoop,
// the shape.
func (s *Schema) summarizeChildren() {
	s.visitBelow(s.Items)
	if s.AdditionalProperties != nil {
		s.visitBelow(s.AdditionalProperties.Schema)
	}
	// A bare additionalProperties (true or false) below preserve-unknown-fields
	// still prunes everything inside the map's values, as the apiserver does.
	s.pruneNoop = s.pruneNoopNow()
	s.shape = shapeNested
	if s.Items == nil && len(s.Properties) == 0 && (s.AdditionalProperties == nil || s.AdditionalProperties.Schema == nil) {
		s.shape = shapeLeaf
	}
}

// visitBelow adds what c, a child of s, holds at or below it to the
// facts of s.
func (s *Schema) visitBelow(c *Schema) {
	if c != nil {
		s.defaultBelow = s.defaultBelow || c.HasDefault || c.HasDefaultsBelow()
		s.embeddedBelow = s.embeddedBelow || c.HasEmbeddedResource()
	}
}

// summarizeProperties is summarize for the properties of s, given (in
// any order) in props, which it sorts and keeps: the index, the properties
// with defaults at or below them.
func (s *Schema) summarizeProperties(props []propEntry) {
	sortEntries(props)
	f := &propFacts{}
	for _, p := range props {
		c := p.child
		if c == nil {
			continue
		}
		s.visitBelow(c)
		if c.HasDefault || c.HasDefaultsBelow() {
			f.defaulting = append(f.defaulting, p.name)
		}
		if c.HasDefault {
			f.withDefault = append(f.withDefault, p.name)
		}
	}
	f.sorted = props
	f.index = newPropIndex(props)
	s.props = f
}

// propEntries returns the properties of a map, in no order.
func propEntries(m map[string]*Schema) []propEntry {
	props := make([]propEntry, 0, len(m))
	for k, c := range m {
		props = append(props, propEntry{name: k, child: c})
	}
	return props
}

// sortedProperties returns the properties sorted by name. The slice is
// shared; do not change it.
func (s *Schema) sortedProperties() []propEntry {
	if s.props == nil {
		if len(s.Properties) == 0 {
			return nil
		}
		// A node New did not build.
		props := propEntries(s.Properties)
		sortEntries(props)
		return props
	}
	return s.props.sorted
}

// HasDefaultsBelow reports whether any node strictly below this one (through
// properties, items or additionalProperties) has a default. Walkers use it to
// skip subtrees with nothing to default.
func (s *Schema) HasDefaultsBelow() bool {
	if s == nil {
		return false
	}
	if s.shape != shapeUnknown {
		return s.defaultBelow
	}
	// A node New did not build: computed now, from the exported fields.
	found := false
	s.eachChild(func(_ string, c *Schema) {
		found = found || c.HasDefault || c.HasDefaultsBelow()
	})
	return found
}

// DefaultingProperties returns the names of the properties whose schema has
// a default or has defaults below it, sorted: the only properties defaulting
// needs to look at. The slice is shared; do not change it.
func (s *Schema) DefaultingProperties() []string {
	if s == nil {
		return nil
	}
	if s.shape != shapeUnknown {
		if s.props == nil {
			return nil
		}
		return s.props.defaulting
	}
	return s.propertiesWhere(func(c *Schema) bool { return c.HasDefault || c.HasDefaultsBelow() })
}

// eachChild calls f for every non-nil child: the properties (with their
// names), the items and the additionalProperties schema (with "").
func (s *Schema) eachChild(f func(string, *Schema)) {
	for k, c := range s.Properties {
		if c != nil {
			f(k, c)
		}
	}
	if s.Items != nil {
		f("", s.Items)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		f("", s.AdditionalProperties.Schema)
	}
}

// propertiesWhere returns the sorted names of the properties whose schema
// is not nil and satisfies keep.
func (s *Schema) propertiesWhere(keep func(*Schema) bool) []string {
	var out []string
	for k, c := range s.Properties {
		if c != nil && keep(c) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Property returns the schema of property k, and whether there is one. It
// is s.Properties[k], faster: the walkers look up every key of an object.
func (s *Schema) Property(k string) (*Schema, bool) {
	if s == nil {
		return nil, false
	}
	if s.props == nil {
		// No properties, or a node that New did not build.
		c, ok := s.Properties[k]
		return c, ok
	}
	return s.props.index.lookup(k)
}

// Field returns the schema of the field k of an object with schema s: its
// property, else the additionalProperties schema (nil for a bare
// additionalProperties: true or false), else nil. It is how pruning,
// null dropping, ratcheting and revision probes find a key's schema.
func (s *Schema) Field(k string) *Schema {
	if c, ok := s.Property(k); ok {
		return c
	}
	if s != nil && s.AdditionalProperties != nil {
		return s.AdditionalProperties.Schema
	}
	return nil
}

// Derive returns a copy of s changed by change, with the facts this
// package precomputes about a node (HasDefaultsBelow, PruneNoop,
// DefaultingProperties, the index Property uses…) computed for the copy.
// It is how a schema derived from another one is built (PruneDefaults
// derives the schema the apiserver defaults with); s is not changed, and
// the children change sets must be complete schemas themselves.
func (s *Schema) Derive(change func(*Schema)) *Schema {
	c := *s
	change(&c)
	c.summarize()
	return &c
}

// IsLeaf reports whether no schema is specified below s: no properties,
// no items and no additionalProperties schema (nil is a leaf). Walkers
// that only act where a schema is specified stop there.
func (s *Schema) IsLeaf() bool {
	if s == nil {
		return true
	}
	switch s.shape {
	case shapeLeaf:
		return true
	case shapeNested:
		return false
	}
	return len(s.Properties) == 0 && s.Items == nil &&
		(s.AdditionalProperties == nil || s.AdditionalProperties.Schema == nil)
}

// PropertiesWithDefault returns the names of the properties whose schema
// has a default, sorted: those defaulting adds when absent. The slice is
// shared; do not change it.
func (s *Schema) PropertiesWithDefault() []string {
	if s == nil {
		return nil
	}
	if s.shape != shapeUnknown {
		if s.props == nil {
			return nil
		}
		return s.props.withDefault
	}
	return s.propertiesWhere(func(c *Schema) bool { return c.HasDefault })
}

// HasEmbeddedResource reports whether this node or any node below it is an
// x-kubernetes-embedded-resource.
func (s *Schema) HasEmbeddedResource() bool {
	if s == nil {
		return false
	}
	if s.shape != shapeUnknown {
		return s.embeddedBelow
	}
	found := s.EmbeddedResource
	s.eachChild(func(_ string, c *Schema) { found = found || c.HasEmbeddedResource() })
	return found
}

// PruneNoop reports whether pruning a value against this node can never
// change it: preserve-unknown-fields with no nested schema and no
// additionalProperties keyword.
func (s *Schema) PruneNoop() bool {
	if s == nil {
		return false
	}
	if s.shape != shapeUnknown {
		return s.pruneNoop
	}
	return s.pruneNoopNow()
}

// pruneNoopNow computes PruneNoop from the exported fields.
func (s *Schema) pruneNoopNow() bool {
	return s.PreserveUnknownFields && !s.EmbeddedResource && s.AdditionalProperties == nil &&
		s.Items == nil && len(s.Properties) == 0
}
