package gen

import (
	"maps"
	"slices"
	"strings"
)

// forbidden are keywords and values the apiserver rejects in CRD schemas.
var forbidden = []func(g *Gen, s Schema){
	func(g *Gen, s Schema) { s["$ref"] = "#/definitions/foo" },
	func(g *Gen, s Schema) { s["definitions"] = map[string]any{"foo": map[string]any{"type": "string"}} },
	func(g *Gen, s Schema) {
		s["patternProperties"] = map[string]any{"^a": map[string]any{"type": "string"}}
	},
	func(g *Gen, s Schema) { s["uniqueItems"] = true },
	func(g *Gen, s Schema) { s["uniqueItems"] = false },
	func(g *Gen, s Schema) { s["additionalProperties"] = false },
	func(g *Gen, s Schema) { s["additionalProperties"] = true },
	func(g *Gen, s Schema) { s["dependencies"] = map[string]any{"a": []any{"b"}} },
	func(g *Gen, s Schema) { s["id"] = "x" },
	func(g *Gen, s Schema) { s["$schema"] = "http://json-schema.org/draft-04/schema#" },
	func(g *Gen, s Schema) { s["additionalItems"] = false },
	func(g *Gen, s Schema) { s["type"] = "null" },
	func(g *Gen, s Schema) { s["items"] = []any{map[string]any{"type": "string"}} },
	func(g *Gen, s Schema) { s["x-kubernetes-preserve-unknown-fields"] = false },
	func(g *Gen, s Schema) { s["x-kubernetes-map-type"] = pick[any](g, "atomic", "granular", "bogus") },
	func(g *Gen, s Schema) { s["x-kubernetes-list-type"] = pick[any](g, "atomic", "set", "map", "bogus") },
	func(g *Gen, s Schema) { s["x-kubernetes-list-map-keys"] = []any{"name"} },
	func(g *Gen, s Schema) { s["x-kubernetes-embedded-resource"] = true },
	func(g *Gen, s Schema) { s["x-kubernetes-int-or-string"] = true },
	func(g *Gen, s Schema) { s["pattern"] = "([a-z" },
	func(g *Gen, s Schema) { s["type"] = pick[any](g, "bogus", "int", "Object", "") },
	func(g *Gen, s Schema) { s["format"] = pick[any](g, "int-or-string", "bogus", "int32") },
	func(g *Gen, s Schema) { s["x-kubernetes-validations"] = []any{map[string]any{"rule": "true"}} },
	func(g *Gen, s Schema) { s["enum"] = []any{} },
	func(g *Gen, s Schema) { s["required"] = []any{"nope"} },
	func(g *Gen, s Schema) { s["maxLength"] = int64(-1) },
}

// valueValidation adds a few value-validation keywords suited to typ.
func (g *Gen) valueValidation(s Schema, typ string) {
	if !g.chance(0.5) {
		return
	}
	switch typ {
	case "string":
		switch g.r.Intn(6) {
		case 0:
			s["enum"] = []any{pick[any](g, "x", "web", "cache"), "obj-1", "a.b.c"}
		case 1:
			s["pattern"] = pick[any](g, "^[a-z0-9.-]+$", "^[0-9]{1,3}$", "^a")
		case 2:
			s["maxLength"] = int64(g.r.Intn(10))
		case 3:
			s["minLength"] = int64(g.r.Intn(4))
		case 4:
			s["format"] = pick[any](g, "date-time", "date", "byte", "uuid", "email", "ipv4", "hostname", "duration", "int-or-string", "password")
		default:
			s["enum"] = []any{"x", "x", int64(1)}
		}
	case "integer", "number":
		switch g.r.Intn(5) {
		case 0:
			s["minimum"] = pick[any](g, int64(0), 0.5, int64(-1))
			if g.chance(0.3) {
				s["exclusiveMinimum"] = true
			}
		case 1:
			s["maximum"] = pick[any](g, int64(100), int64(10), 99.5)
			if g.chance(0.3) {
				s["exclusiveMaximum"] = true
			}
		case 2:
			s["multipleOf"] = pick[any](g, int64(2), 0.5, int64(3))
		case 3:
			s["enum"] = []any{int64(1), int64(2), int64(3)}
		default:
			s["format"] = pick[any](g, "int32", "int64", "float", "double")
		}
	case "object":
		switch g.r.Intn(3) {
		case 0:
			s["maxProperties"] = int64(g.r.Intn(3) + 1)
		case 1:
			s["minProperties"] = int64(g.r.Intn(2) + 1)
		}
	case "array":
		switch g.r.Intn(2) {
		case 0:
			s["maxItems"] = int64(g.r.Intn(3) + 1)
		default:
			s["minItems"] = int64(g.r.Intn(2) + 1)
		}
	}
}

// node returns a random schema for a property, items or additionalProperties,
// depth levels from the bottom.
func (g *Gen) node(depth int) Schema {
	s := Schema{}
	k := g.r.Intn(100)
	if depth <= 0 && k >= 40 {
		k = g.r.Intn(40)
	}
	switch {
	case k < 30:
		typ := pick(g, "string", "string", "integer", "number", "boolean")
		s["type"] = typ
		g.valueValidation(s, typ)
	case k < 34:
		g.intOrString(s)
	case k < 40:
		// missing type, or only a preserve-unknown-fields flag
		if g.chance(0.5) {
			s["x-kubernetes-preserve-unknown-fields"] = true
		} else {
			g.valueValidation(s, pick(g, "string", "integer"))
		}
	case k < 62:
		s["type"] = "object"
		s["properties"] = g.properties(depth-1, g.r.Intn(4)+1)
		g.valueValidation(s, "object")
		if g.chance(0.25) {
			s["required"] = g.requiredOf(s["properties"].(map[string]any))
		}
		if g.chance(0.15) {
			s["x-kubernetes-preserve-unknown-fields"] = true
		}
		if g.chance(0.05) {
			s["x-kubernetes-map-type"] = pick[any](g, "atomic", "granular")
		}
	case k < 72:
		s["type"] = "object"
		if g.chance(0.1) {
			s["additionalProperties"] = true
		} else {
			s["additionalProperties"] = g.node(depth - 1)
		}
		if g.chance(0.1) {
			s["x-kubernetes-preserve-unknown-fields"] = true
		}
	case k < 84:
		g.array(s, depth)
	case k < 92:
		g.embedded(s, depth)
	default:
		s["type"] = "object"
		s["x-kubernetes-preserve-unknown-fields"] = true
		if g.chance(0.6) {
			s["properties"] = g.properties(depth-1, g.r.Intn(3)+1)
		}
	}
	g.decorate(s, depth)
	return s
}

// intOrString writes one of the int-or-string patterns or a near-miss.
func (g *Gen) intOrString(s Schema) {
	s["x-kubernetes-int-or-string"] = true
	switch g.r.Intn(8) {
	case 0, 1:
	case 2:
		s["anyOf"] = []any{Schema{"type": "integer"}, Schema{"type": "string"}}
	case 3:
		s["allOf"] = []any{Schema{"anyOf": []any{Schema{"type": "integer"}, Schema{"type": "string"}}}, Schema{"pattern": "^[0-9]+%?$"}}
	case 4: // near-miss: reversed order
		s["anyOf"] = []any{Schema{"type": "string"}, Schema{"type": "integer"}}
	case 5: // near-miss: extra keyword
		s["anyOf"] = []any{Schema{"type": "integer", "minimum": int64(0)}, Schema{"type": "string"}}
	case 6: // near-miss: without the extension
		delete(s, "x-kubernetes-int-or-string")
		s["anyOf"] = []any{Schema{"type": "integer"}, Schema{"type": "string"}}
	default: // near-miss: with a type or preserve-unknown-fields
		if g.chance(0.5) {
			s["type"] = pick[any](g, "string", "integer", "object")
		} else {
			s["x-kubernetes-preserve-unknown-fields"] = true
		}
	}
	if g.chance(0.2) {
		s["maxLength"] = int64(3)
	}
}

// array writes an array schema, sometimes with a list type.
func (g *Gen) array(s Schema, depth int) {
	s["type"] = "array"
	if g.chance(0.05) {
		return // type: array without items
	}
	switch g.r.Intn(5) {
	case 0: // set of scalars
		s["items"] = Schema{"type": pick(g, "string", "integer")}
		s["x-kubernetes-list-type"] = "set"
		if g.chance(0.15) {
			s["items"] = g.node(depth - 1)
		}
	case 1: // map
		item := Schema{"type": "object", "properties": map[string]any{
			"name": Schema{"type": "string"},
			"port": Schema{"type": "integer"},
			"val":  g.node(0),
		}}
		switch g.r.Intn(4) {
		case 0:
			item["required"] = []any{"name"}
		case 1:
			item["properties"].(map[string]any)["name"].(Schema)["default"] = "dflt"
		case 2:
			item["required"] = []any{"name", "port"}
		}
		if g.chance(0.1) {
			item["properties"].(map[string]any)["name"].(Schema)["nullable"] = true
		}
		s["items"] = item
		s["x-kubernetes-list-type"] = "map"
		switch g.r.Intn(4) {
		case 0:
			s["x-kubernetes-list-map-keys"] = []any{"name", "port"}
		case 1:
			if g.chance(0.5) {
				s["x-kubernetes-list-map-keys"] = []any{"val"}
			}
		default:
			s["x-kubernetes-list-map-keys"] = []any{"name"}
		}
	case 2:
		s["items"] = g.node(depth - 1)
		if g.chance(0.3) {
			s["x-kubernetes-list-type"] = "atomic"
		}
	default:
		s["items"] = g.node(depth - 1)
	}
	g.valueValidation(s, "array")
}

// metadataSchema returns a restriction of metadata, legal or not.
func (g *Gen) metadataSchema() Schema {
	switch g.r.Intn(9) {
	case 0:
		return Schema{"type": "object", "properties": map[string]any{"name": Schema{"type": "string", "enum": []any{"obj-1", "obj-2", "a.b.c"}}}}
	case 1:
		return Schema{"type": "object", "properties": map[string]any{"generateName": Schema{"type": "string", "maxLength": int64(5)}, "name": Schema{"type": "string", "pattern": "^[a-z0-9.-]+$"}}}
	case 2:
		return Schema{"type": "object"}
	case 3:
		return Schema{"properties": map[string]any{"name": Schema{"type": "string"}}}
	case 4:
		return Schema{"type": "object", "properties": map[string]any{"labels": Schema{"type": "object", "additionalProperties": Schema{"type": "string"}}}}
	case 5:
		return Schema{"type": "object", "default": map[string]any{"name": "x"}}
	case 6:
		return Schema{"type": pick[any](g, "string", "integer")}
	case 7:
		return Schema{"type": "object", "properties": map[string]any{"name": Schema{"type": "string", "maxLength": int64(3), "default": "dflt"}}}
	default:
		return Schema{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
	}
}

// embedded writes an x-kubernetes-embedded-resource schema.
func (g *Gen) embedded(s Schema, depth int) {
	s["type"] = "object"
	s["x-kubernetes-embedded-resource"] = true
	if g.chance(0.05) {
		delete(s, "type")
	}
	puf := g.chance(0.5)
	if puf {
		s["x-kubernetes-preserve-unknown-fields"] = true
	}
	if !puf || g.chance(0.5) {
		props := g.properties(depth-1, g.r.Intn(3))
		if g.chance(0.3) {
			props["metadata"] = g.metadataSchema()
		}
		if g.chance(0.2) {
			props["apiVersion"] = Schema{"type": pick[any](g, "string", "integer")}
		}
		if g.chance(0.2) {
			props["kind"] = Schema{"type": "string"}
		}
		if len(props) > 0 || g.chance(0.5) {
			s["properties"] = props
		}
	}
	if g.chance(0.05) {
		s["x-kubernetes-embedded-resource"] = false
	}
}

// properties returns n random properties.
func (g *Gen) properties(depth, n int) map[string]any {
	props := map[string]any{}
	for i := 0; i < n; i++ {
		props[g.key()] = g.node(depth)
	}
	return props
}

// requiredOf returns some of the property names, and sometimes one that is not
// a property.
func (g *Gen) requiredOf(props map[string]any) []any {
	var req []any
	for _, k := range slices.Sorted(maps.Keys(props)) {
		if g.chance(0.5) && !strings.HasPrefix(k, rawMarker) {
			req = append(req, k)
		}
	}
	if g.chance(0.2) || len(req) == 0 {
		req = append(req, g.plainKey())
	}
	return req
}

// decorate adds the cross-cutting keywords: nullable, defaults, descriptions,
// junctors and forbidden keywords.
func (g *Gen) decorate(s Schema, depth int) {
	if g.chance(0.12) {
		s["nullable"] = true
	}
	if g.chance(0.2) {
		s["description"] = pick[any](g, "a field", "multi\nline", "Ünïcödé description")
	}
	if g.chance(0.02) {
		s["title"] = "Title"
	}
	if g.chance(0.02) {
		s["example"] = g.value(s, 1)
	}
	if g.chance(0.3) {
		g.rules(s)
	}
	if g.chance(0.18) {
		v := g.value(s, 2)
		if g.chance(0.1) {
			v = nil
		}
		s["default"] = v
	}
	if g.chance(0.1) {
		g.junctors(s, depth)
	}
	if g.chance(0.035) {
		pick(g, forbidden...)(g, s)
	}
}

// junctors adds allOf/anyOf/oneOf/not with value validation, sometimes with
// fields not in the core, generics or metadata.
func (g *Gen) junctors(s Schema, depth int) {
	n := g.r.Intn(2) + 1
	var list []any
	for i := 0; i < n; i++ {
		j := Schema{}
		props, _ := s["properties"].(map[string]any)
		switch g.r.Intn(9) {
		case 0, 1:
			if len(props) > 0 {
				k := pick(g, slices.Sorted(maps.Keys(props))...)
				j["properties"] = map[string]any{k: Schema{"minLength": int64(1)}}
			} else {
				j["minProperties"] = int64(1)
			}
		case 2: // field only inside the junctor
			j["properties"] = map[string]any{g.key(): Schema{"minimum": int64(1)}}
		case 3: // generics inside a junctor
			gen := pick(g, "type", "description", "nullable", "default", "title", "additionalProperties", "x-kubernetes-preserve-unknown-fields", "x-kubernetes-int-or-string", "x-kubernetes-embedded-resource")
			switch gen {
			case "type":
				j[gen] = pick[any](g, "object", "string")
			case "description", "title":
				j[gen] = "in junctor"
			case "default":
				j[gen] = "d"
			case "additionalProperties":
				j[gen] = Schema{"type": "string"}
			default:
				j[gen] = true
			}
		case 4:
			j["required"] = []any{g.plainKey()}
		case 5:
			if len(props) > 0 {
				if k := pick(g, slices.Sorted(maps.Keys(props))...); !strings.HasPrefix(k, rawMarker) {
					j["required"] = []any{k}
				}
			} else {
				j["maxLength"] = int64(4)
			}
		case 6: // metadata inside a junctor
			j["properties"] = map[string]any{"metadata": Schema{"properties": map[string]any{"name": Schema{"maxLength": int64(3)}}}}
		case 7:
			if it, ok := s["items"].(Schema); ok && it != nil {
				j["items"] = Schema{"minLength": int64(2)}
			} else {
				j["items"] = Schema{"type": "string"}
			}
		default:
			j["anyOf"] = []any{Schema{"required": []any{g.plainKey()}}, Schema{"not": Schema{"required": []any{g.plainKey()}}}}
		}
		list = append(list, j)
	}
	switch g.r.Intn(4) {
	case 0:
		s["allOf"] = list
	case 1:
		s["anyOf"] = list
	case 2:
		s["oneOf"] = list
	default:
		s["not"] = list[0]
	}
}

// RootSchema returns a schema for a whole resource.
func (g *Gen) RootSchema() Schema {
	depth := g.r.Intn(3) + 2
	props := map[string]any{}
	if g.chance(0.5) {
		props["apiVersion"] = Schema{"type": "string"}
	}
	if g.chance(0.5) {
		props["kind"] = Schema{"type": "string"}
	}
	if g.chance(0.1) {
		props["kind"] = Schema{"type": pick[any](g, "integer", "object")}
	}
	if g.chance(0.35) {
		props["metadata"] = g.metadataSchema()
	}
	if g.chance(0.8) {
		props["spec"] = Schema{"type": "object", "properties": g.properties(depth-1, g.r.Intn(5)+1)}
		g.decorate(props["spec"].(Schema), depth)
	}
	if g.chance(0.5) {
		props["status"] = Schema{"type": "object", "properties": g.properties(depth-1, g.r.Intn(3)+1)}
	}
	for i := g.r.Intn(3); i > 0; i-- {
		props[g.key()] = g.node(depth - 1)
	}
	s := Schema{"type": "object", "properties": props}
	switch {
	case g.chance(0.05):
		delete(s, "type")
	case g.chance(0.04):
		s["nullable"] = true
	case g.chance(0.04):
		s["x-kubernetes-preserve-unknown-fields"] = true
	case g.chance(0.03):
		s["additionalProperties"] = Schema{"type": "string"}
	case g.chance(0.03):
		s["type"] = "array"
	case g.chance(0.06):
		s["description"] = "root of the resource"
	case g.chance(0.06):
		s["default"] = g.value(s, 2)
	case g.chance(0.03):
		s["x-kubernetes-embedded-resource"] = true
	}
	if g.chance(0.12) {
		g.junctors(s, depth)
	}
	if g.chance(0.3) {
		g.rules(s)
	}
	if g.chance(0.03) {
		pick(g, forbidden...)(g, s)
	}
	return s
}
