package revdiff

import (
	"math/rand/v2"

	"github.com/crdschema/crdschema/structural"
)

// maxMinimalDepth bounds the nesting of a minimal value.
const maxMinimalDepth = 32

// Base returns the smallest object of root's schema the generator can
// make: apiVersion, kind, metadata.name and the required fields only,
// each as small as it can be. Probes start from it: a sample with every
// optional field risks breaking a rule or pattern of its own (and costs
// more to run). false when a required field cannot be generated.
func Base(root *structural.Schema, apiVersion, kind, name string, r *rand.Rand) (map[string]any, bool) {
	obj := map[string]any{}
	if root != nil {
		v, ok := minimal(root, r, false, 0)
		if !ok {
			return nil, false
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		obj = m
	}
	obj["apiVersion"], obj["kind"] = apiVersion, kind
	obj["metadata"] = map[string]any{"name": name}
	return obj, true
}

// minimal is the smallest value of s: an object with its required
// properties, a list with as few items as it needs (one when nonEmpty),
// a sample of anything else (enum, format, pattern and bounds respected
// by the sample generator). Embedded resources are sampled whole.
func minimal(s *structural.Schema, r *rand.Rand, nonEmpty bool, depth int) (any, bool) {
	if depth > maxMinimalDepth || s.EmbeddedResource || len(props(s).Enum) > 0 || s.IntOrString {
		return sampleValue(s, r)
	}
	switch s.Type {
	case "object":
		return minimalObject(s, r, depth)
	case "array":
		return minimalList(s, r, nonEmpty, depth)
	}
	return sampleValue(s, r)
}

// minimalObject is minimal for an object: its required properties only,
// each minimal (an empty object where the schema does not specify one);
// at the root (depth 0), apiVersion, kind and metadata are left to Base.
func minimalObject(s *structural.Schema, r *rand.Rand, depth int) (any, bool) {
	m := map[string]any{}
	for _, k := range props(s).Required {
		if depth == 0 && isRootField(k) {
			continue
		}
		child := childNode(s, Step{Kind: Prop, Name: k})
		if child == nil {
			m[k] = map[string]any{}
			continue
		}
		v, ok := minimal(child, r, false, depth+1)
		if !ok {
			return nil, false
		}
		m[k] = v
	}
	return m, true
}

// minimalList is minimal for a list: empty when it may be (and not
// nonEmpty), one minimal item when it needs one, a sample when minItems
// asks for more.
func minimalList(s *structural.Schema, r *rand.Rand, nonEmpty bool, depth int) (any, bool) {
	n := 0
	if mi := props(s).MinItems; mi != nil {
		n = int(*mi)
	}
	if nonEmpty && n == 0 {
		n = 1
	}
	if n == 0 || s.Items == nil {
		return []any{}, true
	}
	if n > 1 {
		return sampleValue(s, r)
	}
	v, ok := minimal(s.Items, r, false, depth+1)
	if !ok {
		return nil, false
	}
	return []any{v}, true
}
