package defaulting

import (
	"reflect"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

// PruneDefaults returns the schema the apiserver actually defaults with: s
// with every default pruned as an object holding that default at the
// default's place would be pruned. The apiserver does this once when it
// starts serving a CRD version (unless the CRD sets the v1beta1
// spec.preserveUnknownFields: true); it matters for defaults the CRD
// validation does not look at, such as those inside additionalProperties.
//
// The apiserver also coerces the apiVersion, kind and metadata of the
// embedded resources inside defaults through ObjectMeta, dropping what is
// malformed. coerceEmbedded does that when it is not nil: it is called with
// a private copy of every default that holds an embedded resource (its node
// s is one, or has one below it), before pruning, and changes it in place.
// The module root passes package embedded's CoerceEmbedded with
// DropMalformed; it is a parameter so that this package, like prune, links
// no metadata validation (and its logging modules).
//
// s is not changed: nodes whose defaults (or whose descendants' defaults)
// change are copied, all others are shared with s. When nothing changes, s
// itself is returned.
func PruneDefaults(s *structural.Schema, coerceEmbedded func(v any, s *structural.Schema)) *structural.Schema {
	if s == nil {
		return nil
	}
	return defaultPruner{coerceEmbedded}.node(s, true, nil, 0)
}

// defaultPruner prunes the defaults of a schema tree.
type defaultPruner struct {
	coerceEmbedded func(v any, s *structural.Schema)
}

// node handles the node s, the resource root when root is set.
// When keeper is not nil, s is reached from the preserve-unknown-fields
// node keeper through depth items steps: the pruner then keeps unknown
// fields at s, so a default at s is pruned as the only item of depth nested
// lists pruned by keeper.
func (p defaultPruner) node(s *structural.Schema, root bool, keeper *structural.Schema, depth int) *structural.Schema {
	// The changes to s, made on a derived copy at the end when there are
	// any.
	var c changes
	if s.HasDefault {
		c.def, c.defSet = p.prunedDefault(s, root, keeper, depth)
	}
	if s.HasDefaultsBelow() {
		c.props = p.properties(s, root)
		if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil {
			if nc := p.node(ap.Schema, false, nil, 0); nc != ap.Schema {
				c.apSchema = nc
			}
		}
		if s.Items != nil {
			c.items = p.items(s, keeper, depth)
		}
	}
	return c.apply(s)
}

// changes are the changes node makes to a schema node: nil (or unset)
// where nothing changes.
type changes struct {
	def      any
	defSet   bool
	props    map[string]*structural.Schema
	apSchema *structural.Schema
	items    *structural.Schema
}

// apply returns s when there are no changes, else a copy of s with them.
func (c changes) apply(s *structural.Schema) *structural.Schema {
	if !c.defSet && c.props == nil && c.apSchema == nil && c.items == nil {
		return s
	}
	return s.Derive(func(d *structural.Schema) {
		if c.defSet {
			d.Default = c.def
		}
		if c.props != nil {
			d.Properties = c.props
		}
		if c.apSchema != nil {
			d.AdditionalProperties = &structural.AdditionalProperties{Allows: s.AdditionalProperties.Allows, Schema: c.apSchema}
		}
		if c.items != nil {
			d.Items = c.items
		}
	})
}

// prunedDefault returns a copy of the default of s, coerced and pruned as
// node describes, and whether it differs from the default.
func (p defaultPruner) prunedDefault(s *structural.Schema, root bool, keeper *structural.Schema, depth int) (any, bool) {
	d := jsonvalue.DeepCopy(s.Default)
	if p.coerceEmbedded != nil && s.HasEmbeddedResource() && !root {
		p.coerceEmbedded(d, s)
	}
	switch {
	case root:
		prune.Prune(d, s, prune.Options{ResourceRoot: true})
	case keeper != nil:
		w := d
		for range depth {
			w = []any{w}
		}
		prune.Prune(w, keeper, prune.Options{})
	default:
		prune.Prune(d, s, prune.Options{})
	}
	if reflect.DeepEqual(d, s.Default) {
		return nil, false
	}
	return d, true
}

// properties returns the properties of s with their defaults pruned, nil
// when none changes.
func (p defaultPruner) properties(s *structural.Schema, root bool) map[string]*structural.Schema {
	var props map[string]*structural.Schema
	// The pruner treats the resource root as an embedded resource.
	embedded := s.EmbeddedResource || root
	for k, c := range s.Properties {
		if embedded && (k == "apiVersion" || k == "kind" || k == "metadata") {
			// The pruner never enters these fields: defaults at
			// and below them stay as they are.
			continue
		}
		if nc := p.node(c, false, nil, 0); nc != c {
			if props == nil {
				props = make(map[string]*structural.Schema, len(s.Properties))
				for k2, c2 := range s.Properties {
					props[k2] = c2
				}
			}
			props[k] = nc
		}
	}
	return props
}

// items returns the items schema of s with its defaults pruned, nil when
// it does not change. Below a preserve-unknown-fields node (s itself or
// the keeper of s), the items' defaults are pruned by that node.
func (p defaultPruner) items(s, keeper *structural.Schema, depth int) *structural.Schema {
	k, n := keeper, depth+1
	if s.PreserveUnknownFields {
		k, n = s, 1
	}
	if k == nil {
		n = 0
	}
	if nc := p.node(s.Items, false, k, n); nc != s.Items {
		return nc
	}
	return nil
}
