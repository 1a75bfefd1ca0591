package defaulting

import (
	"reflect"

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
	return pruneDefaults(s, true, false)
}

// pruneDefaults handles the node s, the resource root when root is set.
// skip reports that the pruner reaches s in its preserve-unknown-fields mode
// (as items below a preserving node).
func pruneDefaults(s *structural.Schema, root, skip bool) *structural.Schema {
	out := s
	copiedProps := false
	own := func() *structural.Schema {
		if out == s {
			c := *s
			out = &c
		}
		return out
	}
	// The pruner treats the resource root as an embedded resource.
	embedded := s.EmbeddedResource || root
	if s.HasDefault {
		d := DeepCopy(s.Default)
		switch {
		case root:
			pruneRoot(d, s)
		case skip:
			skipPruneValue(d, s)
		default:
			pruneValue(d, s)
		}
		if !reflect.DeepEqual(d, s.Default) {
			own().Default = d
		}
	}
	if !s.HasDefaultsBelow() {
		return out
	}
	for k, c := range s.Properties {
		if embedded && isMetaField(k) {
			// The pruner never enters these fields: defaults at and
			// below them stay as they are.
			continue
		}
		nc := pruneDefaults(c, false, false)
		if nc != c {
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
		if nc := pruneDefaults(ap.Schema, false, false); nc != ap.Schema {
			own().AdditionalProperties = &structural.AdditionalProperties{Allows: ap.Allows, Schema: nc}
		}
	}
	if s.Items != nil {
		if nc := pruneDefaults(s.Items, false, skip || s.PreserveUnknownFields); nc != s.Items {
			own().Items = nc
		}
	}
	return out
}

// pruneRoot prunes x as the resource root with schema s.
func pruneRoot(x any, s *structural.Schema) {
	if s.EmbeddedResource {
		pruneValue(x, s)
		return
	}
	c := *s
	c.EmbeddedResource = true
	pruneValue(x, &c)
}

func isMetaField(k string) bool {
	return k == "apiVersion" || k == "kind" || k == "metadata"
}

// pruneValue drops, in place, the fields of x that the schema s does not
// specify, as the apiserver's pruning does.
func pruneValue(x any, s *structural.Schema) {
	if s != nil && s.PreserveUnknownFields {
		skipPruneValue(x, s)
		return
	}
	switch x := x.(type) {
	case map[string]any:
		if s == nil {
			clear(x)
			return
		}
		for k, v := range x {
			if s.EmbeddedResource && isMetaField(k) {
				continue
			}
			if c, ok := s.Properties[k]; ok {
				pruneValue(v, c)
			} else if s.AdditionalProperties != nil {
				pruneValue(v, s.AdditionalProperties.Schema)
			} else {
				delete(x, k)
			}
		}
	case []any:
		var it *structural.Schema
		if s != nil {
			it = s.Items
		}
		for _, v := range x {
			pruneValue(v, it)
		}
	}
}

// skipPruneValue keeps the unknown fields of x but prunes below the fields
// that s specifies.
func skipPruneValue(x any, s *structural.Schema) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			if s.EmbeddedResource && isMetaField(k) {
				continue
			}
			if c, ok := s.Properties[k]; ok {
				pruneValue(v, c)
			} else if s.AdditionalProperties != nil {
				pruneValue(v, s.AdditionalProperties.Schema)
			}
		}
	case []any:
		for _, v := range x {
			skipPruneValue(v, s.Items)
		}
	}
}
