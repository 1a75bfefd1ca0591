package gen

import (
	"fmt"
	"strings"
)

// kinds are the base names of generated CRD kinds.
var kinds = []string{"Widget", "Gadget", "CronTab", "Route", "Shard", "Ticket", "Zone"}

// CRD is a generated CustomResourceDefinition with what objects need to be
// routed to it.
type CRD struct {
	// Doc is the CRD document.
	Doc map[string]any
	// Group and Kind route objects; Versions are the version names with the
	// schema each uses (nil when none).
	Group, Kind string
	Versions    []string
	Schemas     []Schema
}

// CRD returns a random CustomResourceDefinition: v1 or v1beta1, one to three
// versions with identical or differing schemas, and random names, scope,
// subresources, printer columns, conversion and status.
func (g *Gen) CRD() *CRD {
	v1 := g.chance(0.75)
	group := g.uniqueGroup(pick(g, "g", "s", "b"))
	if g.chance(0.03) {
		group = pick(g, "nodots", "Bad_Group.example.com", "example.com")
	}
	kind := fmt.Sprintf("%s%d", pick(g, kinds...), g.counter)
	plural := strings.ToLower(kind) + "s"
	names := map[string]any{"kind": kind, "plural": plural}
	if g.chance(0.5) {
		names["singular"] = strings.ToLower(kind)
	}
	if g.chance(0.1) {
		names["listKind"] = pick(g, kind+"List", kind)
	}
	if g.chance(0.1) {
		names["shortNames"] = []any{pick(g, "sn", "Bad_Short", "sn")}
	}
	if g.chance(0.05) {
		names["plural"] = pick(g, "Bad_Plural", "")
	}
	if g.chance(0.03) {
		delete(names, "kind")
	}
	name := plural + "." + group
	if g.chance(0.04) {
		name = "wrong." + group
	}
	spec := map[string]any{
		"group": group,
		"names": names,
		"scope": pick(g, "Namespaced", "Namespaced", "Cluster"),
	}
	if g.chance(0.02) {
		spec["scope"] = "Global"
	}
	c := &CRD{Group: group, Kind: kind}

	nv := 1
	if g.chance(0.4) {
		nv = g.r.Intn(2) + 2
	}
	allVersions := []string{"v1", "v2", "v1beta1", "v1alpha1"}
	storage := g.r.Intn(nv)
	shared := g.RootSchema()
	same := nv == 1 || g.chance(0.4)
	var versions []any
	for i := 0; i < nv; i++ {
		vn := allVersions[i]
		if g.chance(0.02) {
			vn = pick(g, "V1", "1", "v1_x")
		}
		v := map[string]any{"name": vn, "served": !g.chance(0.1), "storage": i == storage}
		if g.chance(0.02) {
			v["storage"] = !(i == storage)
		}
		s := shared
		if !same {
			s = g.RootSchema()
		}
		if g.chance(0.03) {
			s = nil
		}
		c.Versions = append(c.Versions, vn)
		c.Schemas = append(c.Schemas, s)
		if v1 || !same {
			if s != nil {
				v["schema"] = map[string]any{"openAPIV3Schema": s}
			}
		}
		if g.chance(0.1) {
			v["additionalPrinterColumns"] = g.printerColumns()
		}
		if g.chance(0.04) {
			v["deprecated"] = true
			v["deprecationWarning"] = pick(g, "old", "")
		}
		if g.chance(0.05) && v1 {
			v["selectableFields"] = []any{map[string]any{"jsonPath": pick(g, ".spec.foo", ".spec.name", "spec.bad", ".metadata.name")}}
		}
		if g.chance(0.1) {
			v["subresources"] = g.subresources()
		}
		versions = append(versions, v)
	}
	spec["versions"] = versions
	if !v1 {
		if same && shared != nil && c.Schemas[0] != nil {
			spec["validation"] = map[string]any{"openAPIV3Schema": shared}
		}
		if g.chance(0.5) {
			spec["version"] = c.Versions[0]
		}
		if g.chance(0.7) {
			spec["preserveUnknownFields"] = g.chance(0.2)
		}
		if g.chance(0.2) {
			spec["subresources"] = g.subresources()
		}
		if g.chance(0.1) {
			spec["additionalPrinterColumns"] = g.printerColumnsV1beta1()
		}
	} else if g.chance(0.05) {
		spec["preserveUnknownFields"] = g.chance(0.5)
	}
	if g.chance(0.15) {
		spec["conversion"] = g.conversion(v1)
	}
	doc := map[string]any{
		"kind":     "CustomResourceDefinition",
		"metadata": map[string]any{"name": name},
		"spec":     spec,
	}
	if v1 {
		doc["apiVersion"] = "apiextensions.k8s.io/v1"
	} else {
		doc["apiVersion"] = "apiextensions.k8s.io/v1beta1"
	}
	if g.chance(0.05) {
		doc["status"] = map[string]any{"storedVersions": []any{pick(g, "v1", "v9")}}
	}
	if g.chance(0.03) {
		doc["metadata"].(map[string]any)["namespace"] = "default"
	}
	c.Doc = doc
	return c
}

// subresources returns random status/scale subresources.
func (g *Gen) subresources() map[string]any {
	s := map[string]any{}
	if g.chance(0.7) {
		s["status"] = map[string]any{}
	}
	if g.chance(0.5) {
		sc := map[string]any{
			"specReplicasPath":   pick(g, ".spec.replicas", ".spec.count", "spec.replicas", ".status.replicas"),
			"statusReplicasPath": pick(g, ".status.replicas", ".spec.replicas", ""),
		}
		if g.chance(0.3) {
			sc["labelSelectorPath"] = pick(g, ".status.selector", ".spec.selector", "bad")
		}
		s["scale"] = sc
	}
	return s
}

// printerColumns returns v1 additionalPrinterColumns, valid or not.
func (g *Gen) printerColumns() []any {
	var cols []any
	for i := g.r.Intn(2) + 1; i > 0; i-- {
		col := map[string]any{
			"name":     pick(g, "Age", "Host", "Count", ""),
			"type":     pick(g, "string", "integer", "date", "number", "boolean", "bogus"),
			"jsonPath": pick(g, ".spec.host", ".metadata.creationTimestamp", "spec.host", ".spec[0]", ".status.count"),
		}
		if g.chance(0.2) {
			col["format"] = pick(g, "int32", "bogus", "date-time")
		}
		if g.chance(0.2) {
			col["priority"] = pick[any](g, int64(0), int64(1), int64(-1))
		}
		cols = append(cols, col)
	}
	return cols
}

// printerColumnsV1beta1 returns v1beta1 additionalPrinterColumns.
func (g *Gen) printerColumnsV1beta1() []any {
	var cols []any
	for _, c := range g.printerColumns() {
		m := c.(map[string]any)
		m["JSONPath"] = m["jsonPath"]
		delete(m, "jsonPath")
		cols = append(cols, m)
	}
	return cols
}

// conversion returns a conversion stanza, valid or not.
func (g *Gen) conversion(v1 bool) map[string]any {
	if g.chance(0.3) {
		return map[string]any{"strategy": pick(g, "None", "Bogus")}
	}
	c := map[string]any{"strategy": "Webhook"}
	cfg := map[string]any{}
	switch g.r.Intn(4) {
	case 0:
		cfg["url"] = "https://example.com/convert"
	case 1:
		cfg["url"] = pick(g, "http://example.com/convert", "https://example.com/x?q=1", "https://user@example.com")
	case 2:
		cfg["service"] = map[string]any{"namespace": "default", "name": "svc", "port": pick[any](g, int64(443), int64(0), int64(70000))}
	}
	if v1 {
		w := map[string]any{}
		if len(cfg) > 0 || g.chance(0.5) {
			w["clientConfig"] = cfg
		}
		if g.chance(0.8) {
			w["conversionReviewVersions"] = pick[any](g, []any{"v1"}, []any{"v1", "v1beta1"}, []any{}, []any{"v9"})
		}
		if len(w) > 0 || g.chance(0.5) {
			c["webhook"] = w
		}
	} else {
		if len(cfg) > 0 {
			c["webhookClientConfig"] = cfg
		}
		if g.chance(0.5) {
			c["conversionReviewVersions"] = []any{"v1beta1"}
		}
	}
	return c
}

// Object returns a custom resource aimed at c: mostly routed to one of its
// versions, sometimes with a missing, unknown or malformed apiVersion or kind.
func (g *Gen) Object(c *CRD) map[string]any {
	i := g.r.Intn(len(c.Versions))
	var obj map[string]any
	if s := c.Schemas[i]; s != nil {
		if m, ok := g.value(s, 5).(map[string]any); ok {
			obj = m
		} else {
			obj = g.objectValue(s, 5)
		}
	} else {
		obj = map[string]any{"spec": g.junk(2)}
	}
	obj["apiVersion"] = c.Group + "/" + c.Versions[i]
	obj["kind"] = c.Kind
	g.header(obj, c.Group)
	return obj
}

// SchemaObject returns a resource for a bare schema.
func (g *Gen) SchemaObject(s Schema) map[string]any {
	obj, ok := g.value(s, 5).(map[string]any)
	if !ok {
		obj = g.objectValue(s, 5)
	}
	obj["apiVersion"] = pick(g, "example.com/v1", "v1")
	obj["kind"] = "Widget"
	g.header(obj, "example.com")
	return obj
}

// header sets metadata and sometimes spoils the routing fields.
func (g *Gen) header(obj map[string]any, group string) {
	if g.chance(0.85) {
		obj["metadata"] = g.Metadata()
	} else {
		delete(obj, "metadata")
	}
	switch g.r.Intn(30) {
	case 0:
		delete(obj, "kind")
	case 1:
		delete(obj, "apiVersion")
	case 2:
		obj["apiVersion"] = pick[any](g, "a/b/c", "", int64(1), group+"/v9")
	case 3:
		obj["kind"] = pick[any](g, "Unknown", "", int64(1))
	case 4:
		obj["apiVersion"] = "unknown.example.com/v1"
	}
}
