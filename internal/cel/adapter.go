package cel

import (
	"sync"

	"k8s.io/apiserver/pkg/cel/common"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// adapter presents a structural schema node to k8s.io/apiserver's CEL
// type and value code (common.Schema). The apiserver's own adapter builds
// a fresh map of property adapters on every Properties call, which the
// value conversion makes for every field access of every evaluation; this
// one builds each node's map once, with the tree, and shares it.
type adapter struct {
	s *structural.Schema
	// kw is s's parsed schema (never nil): the keywords beyond structure.
	kw    *schema.Props
	props map[string]common.Schema
	items *adapter
	ap    *adapterOrBool
	// meta is this node with the apiVersion, kind and metadata a resource
	// root always has (WithTypeAndObjectMeta), built on first need.
	meta     *adapter
	metaOnce sync.Once
}

var (
	_ common.Schema       = (*adapter)(nil)
	_ common.SchemaOrBool = (*adapterOrBool)(nil)
)

// newAdapter builds the adapter tree of s. It returns nil for a nil s.
func newAdapter(s *structural.Schema) *adapter {
	if s == nil {
		return nil
	}
	a := &adapter{}
	a.fill(s)
	return a
}

// fill makes a the adapter of s (not nil) and builds the tree below it.
// The adapters of a node's properties share one allocation.
func (a *adapter) fill(s *structural.Schema) {
	a.s, a.kw = s, keywords(s)
	if s.Properties != nil {
		a.props = make(map[string]common.Schema, len(s.Properties))
		nodes := make([]adapter, len(s.Properties))
		i := 0
		for k, p := range s.Properties {
			if p == nil {
				a.props[k] = (*adapter)(nil)
				continue
			}
			c := &nodes[i]
			i++
			c.fill(p)
			a.props[k] = c
		}
	}
	if s.Items != nil {
		a.items = newAdapter(s.Items)
	}
	if s.AdditionalProperties != nil {
		a.ap = &adapterOrBool{allows: s.AdditionalProperties.Allows}
		if s.AdditionalProperties.Schema != nil {
			a.ap.schema = newAdapter(s.AdditionalProperties.Schema)
		}
	}
}

// adapterOrBool is additionalProperties: a schema or a bare boolean.
type adapterOrBool struct {
	schema *adapter
	allows bool
}

func (b *adapterOrBool) Schema() common.Schema {
	if b.schema == nil {
		return nil
	}
	return b.schema
}

func (b *adapterOrBool) Allows() bool { return b.allows }

// isResourceShaped reports whether s already declares string kind and
// apiVersion and an object metadata with string name and generateName.
func isResourceShaped(s *structural.Schema) bool {
	typeOf := func(m map[string]*structural.Schema, k string) string {
		if c := m[k]; c != nil {
			return c.Type
		}
		return ""
	}
	if s.Properties == nil || typeOf(s.Properties, "kind") != "string" ||
		typeOf(s.Properties, "apiVersion") != "string" || typeOf(s.Properties, "metadata") != "object" {
		return false
	}
	md := s.Properties["metadata"].Properties
	return md != nil && typeOf(md, "name") == "string" && typeOf(md, "generateName") == "string"
}

// Object names are DNS subdomains of at most 253 characters; a generated
// name's prefix leaves room for at least one character of suffix.
const nameMaxLength = 253

// withTypeAndObjectMeta is a resource root as the apiserver's rules see
// it: its own properties with string apiVersion and kind, and metadata
// holding just name and generateName, their lengths capped.
func withTypeAndObjectMeta(a *adapter) *adapter {
	s := a.s
	var nameProps map[string]*structural.Schema
	if md := s.Properties["metadata"]; md != nil {
		nameProps = md.Properties
	}
	str := func() *structural.Schema { return builtNode(&schema.Props{Type: "string"}) }
	capped := func(existing *structural.Schema, max int64) *schema.Props {
		if p := sourceOf(existing); p != nil && p.MaxLength != nil && *p.MaxLength < max {
			max = *p.MaxLength
		}
		return &schema.Props{Type: "string", MaxLength: &max}
	}
	metaNode := builtNode(&schema.Props{
		Type: "object",
		Properties: map[string]*schema.Props{
			"name":         capped(nameProps["name"], nameMaxLength),
			"generateName": capped(nameProps["generateName"], nameMaxLength-1),
		},
	})
	c := *s
	// Items and the rest of the structure are not part of a resource's
	// typing; only properties and additionalProperties are kept.
	c.Items = nil
	c.Properties = make(map[string]*structural.Schema, len(s.Properties)+3)
	props := make(map[string]common.Schema, len(s.Properties)+3)
	for k, p := range s.Properties {
		c.Properties[k] = p
		props[k] = a.props[k]
	}
	for _, k := range [...]string{"kind", "apiVersion"} {
		n := str()
		c.Properties[k] = n
		props[k] = newAdapter(n)
	}
	c.Properties["metadata"] = metaNode
	props["metadata"] = newAdapter(metaNode)
	m := &adapter{s: &c, kw: a.kw, props: props, ap: a.ap}
	m.metaOnce.Do(func() { m.meta = m })
	return m
}

func (a *adapter) Type() string { return a.s.Type }

func (a *adapter) p() *schema.Props { return a.kw }

// keywords is s's parsed schema, or an empty one for a node built by hand.
func keywords(s *structural.Schema) *schema.Props {
	if p := sourceOf(s); p != nil {
		return p
	}
	return &schema.Props{}
}

// builtNode is the structural node of a schema that is known to be
// structural (one written here).
func builtNode(p *schema.Props) *structural.Schema {
	s, err := structural.New(p)
	if err != nil {
		panic("internal/cel: " + err.Error())
	}
	return s
}

func (a *adapter) Format() string  { return a.p().Format }
func (a *adapter) Pattern() string { return a.p().Pattern }

func (a *adapter) Items() common.Schema {
	if a.items == nil {
		return nil
	}
	return a.items
}

func (a *adapter) Properties() map[string]common.Schema { return a.props }

func (a *adapter) AdditionalProperties() common.SchemaOrBool {
	if a.ap == nil {
		return nil
	}
	return a.ap
}

func (a *adapter) Default() any {
	if !a.s.HasDefault {
		return nil
	}
	return a.s.Default
}

func (a *adapter) Minimum() *float64        { return a.p().Minimum }
func (a *adapter) IsExclusiveMinimum() bool { return a.p().ExclusiveMinimum }
func (a *adapter) Maximum() *float64        { return a.p().Maximum }
func (a *adapter) IsExclusiveMaximum() bool { return a.p().ExclusiveMaximum }
func (a *adapter) MultipleOf() *float64     { return a.p().MultipleOf }
func (a *adapter) MinItems() *int64         { return a.p().MinItems }
func (a *adapter) MaxItems() *int64         { return a.p().MaxItems }
func (a *adapter) MinLength() *int64        { return a.p().MinLength }
func (a *adapter) MaxLength() *int64        { return a.p().MaxLength }
func (a *adapter) MinProperties() *int64    { return a.p().MinProperties }
func (a *adapter) MaxProperties() *int64    { return a.p().MaxProperties }
func (a *adapter) Required() []string       { return a.p().Required }

// UniqueItems is forbidden in structural schemas.
func (a *adapter) UniqueItems() bool { return false }

func (a *adapter) Enum() []any {
	e := a.p().Enum
	if e == nil {
		return nil
	}
	out := make([]any, len(e))
	for i := range e {
		out[i] = e[i].Value
	}
	return out
}

func (a *adapter) Nullable() bool                 { return a.s.Nullable }
func (a *adapter) IsXIntOrString() bool           { return a.s.IntOrString }
func (a *adapter) IsXEmbeddedResource() bool      { return a.s.EmbeddedResource }
func (a *adapter) IsXPreserveUnknownFields() bool { return a.s.PreserveUnknownFields }
func (a *adapter) XListType() string              { return a.s.ListType }
func (a *adapter) XMapType() string               { return a.s.MapType }
func (a *adapter) XListMapKeys() []string         { return a.s.ListMapKeys }

// The junctors are value validations only; the CEL type and value code
// does not look at them.
func (a *adapter) AllOf() []common.Schema { return nil }
func (a *adapter) OneOf() []common.Schema { return nil }
func (a *adapter) AnyOf() []common.Schema { return nil }
func (a *adapter) Not() common.Schema     { return nil }

func (a *adapter) XValidations() []common.ValidationRule {
	rules := a.p().XValidations
	if len(rules) == 0 {
		return nil
	}
	out := make([]common.ValidationRule, len(rules))
	for i := range rules {
		out[i] = rule{&rules[i]}
	}
	return out
}

func (a *adapter) WithTypeAndObjectMeta() common.Schema {
	return a.withMeta()
}

func (a *adapter) withMeta() *adapter {
	a.metaOnce.Do(func() {
		if isResourceShaped(a.s) {
			a.meta = a
		} else {
			a.meta = withTypeAndObjectMeta(a)
		}
	})
	return a.meta
}

// rule presents a validation rule as common.ValidationRule.
type rule struct{ r *schema.ValidationRule }

func (r rule) Rule() string              { return r.r.Rule }
func (r rule) Message() string           { return r.r.Message }
func (r rule) MessageExpression() string { return r.r.MessageExpression }
func (r rule) FieldPath() string         { return r.r.FieldPath }

// sourceOf is s.Source, nil for a nil node.
func sourceOf(s *structural.Schema) *schema.Props {
	if s == nil {
		return nil
	}
	return s.Source
}
