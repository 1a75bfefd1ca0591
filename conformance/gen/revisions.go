package gen

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// RevisionVerbs are the third edition's check batches: check with the
// apiserver's warnings (warnings) and check --old (crd-update). Their
// batches run check; the names only select the generator.
var RevisionVerbs = []string{"warnings", "crd-update"}

// warnFormats are formats recognised or not, with the near-misses of the
// apiserver's normalisation (every "-" removed before comparing).
var warnFormats = []any{
	"cron", "quantity", "int-or-string", "Date", "date-time", "datetime", "date",
	"k8s-short-name", "k8s-long-name", "k8sshortname", "int16", "uint32", "bool",
	"semver", "ünï", "byte", "int32", "int64", "double", "float", "uuid-4", "",
}

// WarningsBatch returns n check cases whose schemas carry formats and set
// lists the apiserver warns about, at any depth.
func (g *Gen) WarningsBatch(n int) *Batch {
	b := g.Batch("check", n)
	for _, c := range b.Cases {
		for i, d := range c.Docs {
			if g.chance(0.6) {
				// Warnings need an accepted CRD: most cases are valid.
				d = g.validCRD().Doc
				c.Docs[i] = d
			}
			g.sprinkleWarnings(d, 0)
		}
	}
	return b
}

// validCRD returns a CRD the apiserver accepts (before any sprinkling):
// v1, one to three versions of simple structural schemas, some with
// rules.
func (g *Gen) validCRD() *CRD {
	g.counter++
	group := fmt.Sprintf("v%d-%d.example.com", g.counter, g.r.Intn(1000))
	kind := fmt.Sprintf("%s%d", pick(g, kinds...), g.counter)
	plural := strings.ToLower(kind) + "s"
	c := &CRD{Group: group, Kind: kind}
	nv := 1 + g.r.Intn(3)
	storage := g.r.Intn(nv)
	shared := g.simpleSchema()
	same := g.chance(0.5)
	var versions []any
	for i := 0; i < nv; i++ {
		vn := []string{"v1", "v2", "v1beta1"}[i]
		s := shared
		if !same {
			s = g.simpleSchema()
		}
		c.Versions = append(c.Versions, vn)
		c.Schemas = append(c.Schemas, s)
		v := map[string]any{"name": vn, "served": true, "storage": i == storage, "schema": map[string]any{"openAPIV3Schema": s}}
		if g.chance(0.3) {
			v["subresources"] = map[string]any{"status": map[string]any{}}
		}
		versions = append(versions, v)
	}
	c.Doc = map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": plural + "." + group},
		"spec": map[string]any{
			"group":    group,
			"names":    map[string]any{"kind": kind, "plural": plural, "singular": strings.ToLower(kind)},
			"scope":    pick[any](g, "Namespaced", "Cluster"),
			"versions": versions,
		},
	}
	return c
}

// simpleSchema returns a valid structural root schema: spec and status
// objects of simple fields.
func (g *Gen) simpleSchema() Schema {
	props := map[string]any{}
	for _, top := range []string{"spec", "status"} {
		fields := map[string]any{}
		for i := g.r.Intn(5); i >= 0; i-- {
			fields[pick(g, plainKeys...)] = g.simpleField(2)
		}
		props[top] = Schema{"type": "object", "properties": fields}
	}
	s := Schema{"type": "object", "properties": props}
	if g.chance(0.2) {
		s["x-kubernetes-validations"] = []any{map[string]any{"rule": pick[any](g, "has(self.spec) || true", "self.metadata.name.size() > 0")}}
	}
	return s
}

// simpleField returns a valid field schema, nested up to depth levels.
func (g *Gen) simpleField(depth int) Schema {
	switch t := pick(g, "string", "integer", "number", "boolean", "object", "array"); {
	case t == "object" && depth > 0:
		return Schema{"type": "object", "properties": map[string]any{pick(g, plainKeys...): g.simpleField(depth - 1)}}
	case t == "array" && depth > 0:
		a := Schema{"type": "array", "items": g.simpleField(depth - 1)}
		if g.chance(0.3) {
			a["maxItems"] = int64(5)
		}
		return a
	case t == "object" || t == "array":
		return Schema{"type": "string"}
	default:
		f := Schema{"type": t}
		if t == "string" && g.chance(0.3) {
			f["maxLength"] = int64(20)
		}
		return f
	}
}

// sprinkleWarnings walks a document and gives some schema nodes (maps with
// a type or properties) a random format, and some properties a set list of
// objects or arrays.
func (g *Gen) sprinkleWarnings(v any, depth int) {
	switch x := v.(type) {
	case map[string]any:
		_, typed := x["type"].(string)
		props, hasProps := x["properties"].(map[string]any)
		if typed && g.chance(0.2) {
			x["format"] = pick(g, warnFormats...)
		}
		if hasProps && g.chance(0.15) {
			props[fmt.Sprintf("set%d", g.r.Intn(3))] = g.setList()
		}
		if depth > 30 {
			return
		}
		// In key order: random numbers drawn in map order would make the
		// cases differ between runs of one seed.
		for _, k := range slices.Sorted(maps.Keys(x)) {
			g.sprinkleWarnings(x[k], depth+1)
		}
	case []any:
		for _, e := range x {
			g.sprinkleWarnings(e, depth+1)
		}
	}
}

// setList returns a set list whose items are objects or arrays, atomic or
// not.
func (g *Gen) setList() Schema {
	items := Schema{"type": pick[any](g, "object", "array", "string")}
	switch items["type"] {
	case "object":
		if g.chance(0.5) {
			items["x-kubernetes-map-type"] = "atomic"
		}
	case "array":
		items["items"] = Schema{"type": "string"}
		if g.chance(0.3) {
			items["x-kubernetes-list-type"] = pick[any](g, "atomic", "set")
		}
	}
	return Schema{"type": "array", "x-kubernetes-list-type": "set", "items": items}
}

// CRDUpdateBatch returns n check --old cases: random stored CRDs (given
// with --old, some deliberately broken: ratcheting) and new revisions of
// them with random edits (immutable names and scope, removed or added
// versions, moved storage, new schemas, formats, sets, rules, uids,
// preserveUnknownFields), a few unchanged and a few of no stored CRD
// (creates). Some stored CRDs carry a default whose prunedness depends on
// the object around it, and their revision a default with an unknown
// field (see ambiguousDefault).
func (g *Gen) CRDUpdateBatch(n int) *Batch {
	b := &Batch{Verb: "check", Old: &Input{Name: "old"}}
	for i := 0; i < n; i++ {
		in := &Input{Name: fmt.Sprintf("new%03d", i)}
		for d := 1 + boolInt(g.chance(0.2)); d > 0; d-- {
			stored, next := g.revision()
			if stored != nil {
				b.Old.Docs = append(b.Old.Docs, stored)
			}
			in.Docs = append(in.Docs, next)
		}
		g.fileStyle(in)
		b.Cases = append(b.Cases, in)
	}
	if len(b.Old.Docs) == 0 {
		b.Old = nil
	}
	return b
}

// revision returns a stored CRD (nil for none: a create) and a revision
// of it, for CRDUpdateBatch.
func (g *Gen) revision() (stored, next map[string]any) {
	c := g.validCRD()
	if g.chance(0.35) {
		c = g.CRD()
	}
	if g.chance(0.5) {
		g.sprinkleWarnings(c.Doc, 0)
	}
	ratchet := g.chance(0.08)
	if ratchet {
		plantDefault(c.Doc, g.ambiguousDefault())
	}
	if g.chance(0.9) {
		stored = c.Doc
		if g.chance(0.1) {
			stored = deepCopy(stored).(map[string]any)
			stored["status"] = map[string]any{"storedVersions": []any{pick[any](g, "v0retired", "v1", "v2")}}
		}
	}
	next = deepCopy(c.Doc).(map[string]any)
	for e := g.r.Intn(3); e > 0; e-- {
		g.editCRD(next)
	}
	if ratchet {
		plantDefault(next, unprunedDefault())
	}
	return stored, next
}

// editCRD makes one random edit of a CRD revision.
func (g *Gen) editCRD(doc map[string]any) {
	spec, _ := doc["spec"].(map[string]any)
	meta, _ := doc["metadata"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	if spec == nil || meta == nil || names == nil {
		return
	}
	switch g.r.Intn(15) {
	case 0:
		if spec["scope"] == "Cluster" {
			spec["scope"] = "Namespaced"
		} else {
			spec["scope"] = "Cluster"
		}
	case 1:
		names["kind"] = fmt.Sprintf("%vX", names["kind"])
	case 2:
		names["plural"] = fmt.Sprintf("%vx", names["plural"])
	case 3:
		spec["group"] = "other." + fmt.Sprint(spec["group"])
	case 4:
		meta["name"] = "renamed." + fmt.Sprint(spec["group"])
	case 5:
		meta["uid"] = pick[any](g, "2b8e0ec6-0000-4000-8000-000000000001", "")
	case 6:
		spec["preserveUnknownFields"] = g.chance(0.7)
	case 7: // a version renamed (the stored one goes)
		if len(versions) > 0 {
			if v, ok := versions[0].(map[string]any); ok {
				v["name"] = pick[any](g, "v2", "v3", "v1")
			}
		}
	case 8: // storage moved to a new version
		if len(versions) > 0 && len(versions) < 4 {
			nv := deepCopy(versions[len(versions)-1]).(map[string]any)
			nv["name"] = pick[any](g, "v9", "v2beta1")
			for _, v := range versions {
				if m, ok := v.(map[string]any); ok {
					m["storage"] = false
				}
			}
			nv["storage"] = true
			spec["versions"] = append(versions, nv)
		}
	case 9: // a new schema for a version (or all)
		s := g.RootSchema()
		g.sprinkleWarnings(s, 0)
		if v, ok := spec["validation"].(map[string]any); ok {
			v["openAPIV3Schema"] = s
		} else if len(versions) > 0 {
			if v, ok := versions[g.r.Intn(len(versions))].(map[string]any); ok {
				v["schema"] = map[string]any{"openAPIV3Schema": s}
			}
		}
	case 10: // formats and sets in the existing schemas
		g.sprinkleWarnings(spec, 0)
	case 11: // a rule added, or a broken one
		g.addRuleSomewhere(spec)
	case 12:
		delete(doc, "status")
	case 13: // a default with an unknown field
		plantDefault(doc, unprunedDefault())
	default:
		// an unchanged re-apply
	}
}

// A default is pruned, for the apiserver, when pruning the object that
// holds only it, at its place, leaves it unchanged (PruneDefaults): its
// root and embedded resources coerced through ObjectMeta, the whole
// object pruned with the whole schema. A stored CRD with a default that
// is not pruned lets its update keep or add such defaults (ratcheting).
// The defaults of ambiguousDefault are pruned or not depending on the
// object around them, not on their own node: at the root's metadata
// ({name: x}: ObjectMeta keeps it, the node's schema would drop it), at an
// embedded resource's metadata (likewise), at an embedded resource with
// an unknown metadata field (ObjectMeta drops it, the node's pruning
// skips metadata), and at the items of a list that preserves unknown
// fields (the list keeps the items' unknown fields).

// rootProperty is a property of a schema root: its name and schema.
type rootProperty struct {
	name   string
	schema Schema
}

// ambiguousDefault returns a root property holding a default whose
// prunedness depends on the object around it ("metadata" is the root's).
func (g *Gen) ambiguousDefault() rootProperty {
	switch g.r.Intn(4) {
	case 0:
		return rootProperty{"metadata", Schema{"type": "object", "default": map[string]any{"name": "x"}}}
	case 1:
		return rootProperty{"embedded", Schema{"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
			"properties": map[string]any{"metadata": Schema{"type": "object", "default": map[string]any{"name": "x"}}}}}
	case 2:
		return rootProperty{"embedded", Schema{"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
			"default": map[string]any{"apiVersion": "v1", "kind": "Thing", "metadata": map[string]any{"name": "x", "unknownInMeta": "y"}}}}
	default:
		return rootProperty{"kept", Schema{"type": "array", "x-kubernetes-preserve-unknown-fields": true,
			"items": Schema{"type": "object", "properties": map[string]any{"a": Schema{"type": "string"}},
				"default": map[string]any{"a": "x", "unknownInItem": "y"}}}}
	}
}

// unprunedDefault is a root property whose default has an unknown field.
func unprunedDefault() rootProperty {
	return rootProperty{"unpruned", Schema{"type": "object", "properties": map[string]any{"a": Schema{"type": "string"}},
		"default": map[string]any{"a": "x", "unknownInDefault": int64(1)}}}
}

// plantDefault sets the root property p in every schema root of a CRD
// document (its validation or its versions' schemas).
func plantDefault(doc map[string]any, p rootProperty) {
	spec, _ := doc["spec"].(map[string]any)
	for _, r := range schemaRoots(spec) {
		props, ok := r["properties"].(map[string]any)
		if !ok {
			props = map[string]any{}
			r["properties"] = props
		}
		props[p.name] = deepCopy(p.schema)
	}
}

// schemaRoots are the schema roots of a CRD spec: spec.validation's and
// every version's.
func schemaRoots(spec map[string]any) []map[string]any {
	var roots []map[string]any
	if v, ok := spec["validation"].(map[string]any); ok {
		if s, ok := v["openAPIV3Schema"].(map[string]any); ok {
			roots = append(roots, s)
		}
	}
	versions, _ := spec["versions"].([]any)
	for _, v := range versions {
		if m, ok := v.(map[string]any); ok {
			if sch, ok := m["schema"].(map[string]any); ok {
				if s, ok := sch["openAPIV3Schema"].(map[string]any); ok {
					roots = append(roots, s)
				}
			}
		}
	}
	return roots
}

// addRuleSomewhere adds an x-kubernetes-validations rule to a schema root
// of the spec.
func (g *Gen) addRuleSomewhere(spec map[string]any) {
	roots := schemaRoots(spec)
	if len(roots) == 0 {
		return
	}
	r := roots[g.r.Intn(len(roots))]
	rule := pick(g, "has(self.spec) || true", "self.nope()", "size(self) >= 0", "self == oldSelf",
		strings.Repeat("true && ", 3)+"true")
	list, _ := r["x-kubernetes-validations"].([]any)
	r["x-kubernetes-validations"] = append(list, map[string]any{"rule": rule})
}
