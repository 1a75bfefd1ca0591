package gen

import (
	"fmt"
	"strings"
)

// ConvertBatch returns a batch of n convert cases: valid multi-version
// CRDs (strategies None and Webhook, unserved and deprecated versions,
// schemas that differ per version in fields, types and defaults, with
// embedded resources, preserve-unknown-fields subtrees and
// int-or-string), objects stored at any of their versions (or an
// undefined one), read at one --to version (a name, sometimes
// GROUP/VERSION, or one no CRD defines). Some objects carry, besides
// unknown fields, an embedded resource whose metadata is no object (see
// failingRead).
func (g *Gen) ConvertBatch(n int) *Batch {
	b := &Batch{Verb: "convert"}
	var crds []*CRD
	for i := g.r.Intn(3) + 1; i > 0; i-- {
		c := g.MultiVersionCRD()
		crds = append(crds, c)
		in := &Input{Name: fmt.Sprintf("crds/crd%03d", len(crds)-1), Docs: []any{c.Doc}}
		g.fileStyle(in)
		b.CRDs = append(b.CRDs, in)
	}
	first := crds[0]
	b.To = pick(g, first.Versions...)
	switch {
	case g.chance(0.04):
		b.To = "v9"
	case g.chance(0.15):
		b.To = first.Group + "/" + b.To
	}
	for i := 0; i < n; i++ {
		in := &Input{Name: fmt.Sprintf("objs%03d", i)}
		for d := g.r.Intn(4) + 1; d > 0; d-- {
			c := first
			if g.chance(0.2) {
				c = pick(g, crds...)
			}
			obj := g.Object(c)
			if g.chance(0.03) {
				obj["apiVersion"] = c.Group + "/v9"
			}
			if g.chance(0.06) {
				g.failingRead(obj)
			}
			in.Docs = append(in.Docs, obj)
		}
		g.fileStyle(in)
		b.Cases = append(b.Cases, in)
	}
	return b
}

// failingRead gives obj an unknown field and, at spec.resource, an
// embedded resource whose metadata is no object. Where every version has
// that embedded resource (sharedResource), the storage read keeps the
// metadata as it is at the stored version and fails on it at the
// requested one, after pruning the unknown field: what convert lists then
// in pruned is that of a failed read. Elsewhere spec.resource is one more
// unknown field.
func (g *Gen) failingRead(obj map[string]any) {
	spec, ok := obj["spec"].(map[string]any)
	if !ok {
		spec = map[string]any{}
		obj["spec"] = spec
	}
	spec["resource"] = map[string]any{"apiVersion": "v1", "kind": "Thing",
		"metadata": pick[any](g, int64(5), []any{"a"}, "meta", true)}
	spec[pick(g, "stray", "unknown")] = g.junk(1)
}

// sharedResource is the embedded resource some multi-version CRDs have at
// spec.resource in every version.
var sharedResource = Schema{"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}

// MultiVersionCRD returns a CRD the apiserver accepts, with two to four
// versions whose schemas share some fields and differ in others (and
// sometimes, in all of them, the embedded resource sharedResource).
func (g *Gen) MultiVersionCRD() *CRD {
	v1 := g.chance(0.8)
	group := g.uniqueGroup("m")
	kind := fmt.Sprintf("%s%d", pick(g, kinds...), g.counter)
	plural := strings.ToLower(kind) + "s"
	c := &CRD{Group: group, Kind: kind}
	names := []string{"v1", "v2", "v1beta1", "v1alpha1"}
	nv := g.r.Intn(3) + 2
	storage := g.r.Intn(nv)
	resource := g.chance(0.4)
	var versions []any
	for i := 0; i < nv; i++ {
		s := g.versionSchema()
		if resource {
			s["properties"].(map[string]any)["spec"].(Schema)["properties"].(map[string]any)["resource"] = deepCopy(sharedResource)
		}
		v := map[string]any{"name": names[i], "served": i == storage || !g.chance(0.2), "storage": i == storage,
			"schema": map[string]any{"openAPIV3Schema": s}}
		if g.chance(0.15) {
			v["deprecated"] = true
			if g.chance(0.5) {
				v["deprecationWarning"] = "use another version"
			}
		}
		if g.chance(0.2) {
			v["subresources"] = map[string]any{"status": map[string]any{}}
		}
		c.Versions = append(c.Versions, names[i])
		c.Schemas = append(c.Schemas, s)
		versions = append(versions, v)
	}
	spec := map[string]any{
		"group":    group,
		"names":    map[string]any{"kind": kind, "plural": plural},
		"scope":    pick(g, "Namespaced", "Namespaced", "Cluster"),
		"versions": versions,
	}
	if g.chance(0.2) {
		reviews := []any{"v1"}
		if !v1 || g.chance(0.3) {
			reviews = []any{"v1beta1", "v1"}
		}
		spec["conversion"] = map[string]any{"strategy": "Webhook", "webhook": map[string]any{
			"conversionReviewVersions": reviews,
			"clientConfig":             map[string]any{"url": "https://convert.example.com/convert"},
		}}
		if !v1 {
			spec["conversion"] = map[string]any{"strategy": "Webhook", "conversionReviewVersions": reviews,
				"webhookClientConfig": map[string]any{"url": "https://convert.example.com/convert"}}
		}
	}
	apiVersion := "apiextensions.k8s.io/v1"
	if !v1 {
		apiVersion = "apiextensions.k8s.io/v1beta1"
		spec["preserveUnknownFields"] = false
	}
	c.Doc = map[string]any{"apiVersion": apiVersion, "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": plural + "." + group}, "spec": spec}
	return c
}

// convertFields are the field names version schemas draw from, so that
// versions share some fields and not others.
var convertFields = []string{"image", "replicas", "size", "tags", "template", "extra", "mode", "limits", "opaque", "port"}

// versionSchema is a valid structural root schema for one version.
func (g *Gen) versionSchema() Schema {
	spec := Schema{"type": "object", "properties": g.convertProps(3)}
	root := Schema{"type": "object", "properties": map[string]any{"spec": spec}}
	status := Schema{"type": "object", "properties": g.convertProps(1)}
	if g.chance(0.3) {
		status = Schema{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
	}
	root["properties"].(map[string]any)["status"] = status
	if g.chance(0.1) {
		spec["default"] = map[string]any{}
	}
	return root
}

// convertProps returns a few properties of random valid kinds.
func (g *Gen) convertProps(depth int) map[string]any {
	props := map[string]any{}
	for i := g.r.Intn(5) + 1; i > 0; i-- {
		props[pick(g, convertFields...)] = g.convertField(depth)
	}
	return props
}

// convertField is one valid property schema.
func (g *Gen) convertField(depth int) Schema {
	k := g.r.Intn(11)
	if depth <= 0 && k >= 6 {
		k = g.r.Intn(6)
	}
	var s Schema
	switch k {
	case 0:
		s = Schema{"type": "string"}
		if g.chance(0.3) {
			s["default"] = pick(g, "x", "default")
		}
	case 1:
		s = Schema{"type": "integer"}
		if g.chance(0.3) {
			s["default"] = int64(g.r.Intn(5))
		}
	case 2:
		s = Schema{"type": "boolean"}
		if g.chance(0.3) {
			s["default"] = g.chance(0.5)
		}
	case 3:
		s = Schema{"type": "number"}
	case 4:
		s = Schema{"x-kubernetes-int-or-string": true}
	case 5:
		s = Schema{"type": "string", "nullable": true}
	case 6:
		s = Schema{"type": "object", "properties": g.convertProps(depth - 1)}
		if g.chance(0.2) {
			s["default"] = map[string]any{}
		}
	case 7:
		s = Schema{"type": "array", "items": g.convertField(depth - 1)}
	case 8:
		s = Schema{"type": "object", "additionalProperties": Schema{"type": "string"}}
	case 9:
		s = Schema{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
	default:
		s = Schema{"type": "object", "x-kubernetes-embedded-resource": true}
		if g.chance(0.5) {
			s["x-kubernetes-preserve-unknown-fields"] = true
		} else {
			s["properties"] = g.convertProps(depth - 1)
		}
	}
	return s
}
