package defaulting

import (
	"reflect"

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
// s is not changed: nodes whose defaults (or whose descendants' defaults)
// change are copied, all others are shared with s. When nothing changes, s
// itself is returned. The metadata of embedded resources inside defaults is
// kept as it is.
func PruneDefaults(s *structural.Schema) *structural.Schema {
	if s == nil {
		return nil
	}
	return pruneDefaults(s, true, nil, 0)
}

// pruneDefaults handles the node s, the resource root when root is set.
// When keeper is not nil, s is reached from the preserve-unknown-fields
// node keeper through depth items steps: the pruner then keeps unknown
// fields at s, so a default at s is pruned as the only item of depth nested
// lists pruned by keeper.
func pruneDefaults(s *structural.Schema, root bool, keeper *structural.Schema, depth int) *structural.Schema {
	out := s
	own := func() *structural.Schema {
		if out == s {
			c := *s
			out = &c
		}
		return out
	}
	if s.HasDefault {
		d := DeepCopy(s.Default)
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
		if !reflect.DeepEqual(d, s.Default) {
			own().Default = d
		}
	}
	if !s.HasDefaultsBelow() {
		return out
	}
	// The pruner treats the resource root as an embedded resource.
	embedded := s.EmbeddedResource || root
	copiedProps := false
	for k, c := range s.Properties {
		if embedded && (k == "apiVersion" || k == "kind" || k == "metadata") {
			// The pruner never enters these fields: defaults at and
			// below them stay as they are.
			continue
		}
		if nc := pruneDefaults(c, false, nil, 0); nc != c {
			o := own()
			if !copiedProps {
				copiedProps = true
				o.Properties = make(map[string]*structural.Schema, len(s.Properties))
				for k2, c2 := range s.Properties {
					o.Properties[k2] = c2
				}
			}
			o.Properties[k] = nc
		}
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil {
		if nc := pruneDefaults(ap.Schema, false, nil, 0); nc != ap.Schema {
			own().AdditionalProperties = &structural.AdditionalProperties{Allows: ap.Allows, Schema: nc}
		}
	}
	if s.Items != nil {
		k, n := keeper, depth+1
		if s.PreserveUnknownFields {
			k, n = s, 1
		}
		if k == nil {
			n = 0
		}
		if nc := pruneDefaults(s.Items, false, k, n); nc != s.Items {
			own().Items = nc
		}
	}
	return out
}
