// Package gen generates random, deterministic inputs for differential testing of
// the crdschema command against the apiserver oracle: CustomResourceDefinitions
// (v1 and v1beta1, single- and multi-version), bare OpenAPI v3 schemas and
// custom resources shaped after those schemas.
//
// The generator aims at the corners of the semantics (docs/semantics.md):
// missing types, fields and generics inside junctors, metadata restrictions at
// the root and in embedded resources, the int-or-string patterns and their
// near-misses, preserve-unknown-fields at every depth, embedded resources,
// nullable and nulls, defaults at every depth, list types with duplicates,
// forbidden keywords, unknown fields, wrong value types, odd keys, malformed
// metadata and YAML 1.1 scalars. Everything is derived from one seed.
package gen

import (
	"fmt"
	"math/rand"
	"strings"
)

// Gen is a seeded random generator of schemas, CRDs and objects. It is not safe
// for concurrent use.
type Gen struct {
	r *rand.Rand
	// counter makes CRD groups unique within one generator.
	counter int
}

// New returns a generator whose output depends only on seed.
func New(seed int64) *Gen {
	return &Gen{r: rand.New(rand.NewSource(seed))}
}

// Schema is a JSON-like OpenAPI v3 schema value (map[string]any, []any,
// string, int64, float64, bool or nil).
type Schema = map[string]any

// chance reports true with probability p.
func (g *Gen) chance(p float64) bool { return g.r.Float64() < p }

// pick returns one of xs at random.
func pick[T any](g *Gen, xs ...T) T { return xs[g.r.Intn(len(xs))] }

// oddKeys are property names that stress path formatting and parsing.
var oddKeys = []string{
	"a.b", "br[0]", "[x]", "s'quote", "dq\"key", "ünïcödé", "slash/key", "tilde~key",
	"$dollar", "..", ".", "with space", "back\\slash", "CamelCase", "UPPER", "dash-key",
	"a]b", "0", "-", "x-kubernetes-foo", "é",
}

// plainKeys are ordinary property names; several collide with the implicit
// resource fields on purpose.
var plainKeys = []string{
	"foo", "bar", "baz", "qux", "alpha", "beta", "gamma", "spec", "status", "items",
	"list", "tags", "labels", "name", "kind", "apiVersion", "metadata", "value",
	"count", "mode", "template", "selector", "size", "host", "port", "enabled", "data",
	"z", "extra", "config", "nested", "options", "rules", "ratio", "limit",
}

// key returns a random property name.
func (g *Gen) key() string {
	switch {
	case g.chance(0.12):
		return pick(g, oddKeys...)
	case g.chance(0.04):
		return Raw(pick(g, "y", "n", "yes", "on", "off", "no", "true", "1", "Y"))
	default:
		return pick(g, plainKeys...)
	}
}

// plainKey returns a random property name that reads as the same string in
// every position (no YAML 1.1 reinterpretation), for required lists.
func (g *Gen) plainKey() string {
	for {
		if k := g.key(); !strings.HasPrefix(k, rawMarker) {
			return k
		}
	}
}

// rawMarker is what rawPrefix becomes after YAML marshalling (see Marshal).
const rawMarker = "__RAW__"

// Raw returns a string written unquoted in YAML files, so that a YAML 1.1
// reader sees e.g. yes as true, 0x1F as 31 and y as "true" for a key.
func Raw(s string) string { return rawMarker + s }

// yaml11Scalars are bare YAML scalars that a YAML 1.1 reader does not read as
// the string they spell.
var yaml11Scalars = []string{
	"yes", "no", "on", "off", "y", "n", "Y", "N", "True", "FALSE", "~", "null", "Null",
	"0x1F", "010", "0o17", "1.0", "+1", "1e3", "1_000", "2020-01-01",
	"12:30", "0b101", "-0", "3.", "1.5e3",
}

// scalarFor returns a value of the given OpenAPI type, sometimes of another
// type, sometimes a YAML 1.1 scalar.
func (g *Gen) scalarFor(typ string, s Schema) any {
	if g.chance(0.06) {
		return Raw(pick(g, yaml11Scalars...))
	}
	if g.chance(0.08) {
		typ = pick(g, "string", "integer", "number", "boolean", "object", "array")
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 && g.chance(0.7) {
		return e[g.r.Intn(len(e))]
	}
	switch typ {
	case "string":
		if f, _ := s["format"].(string); f != "" && g.chance(0.5) {
			return g.formatted(f)
		}
		return pick[any](g, "", "x", "abc", "web", "a.b.c", "obj-1", "1", "50%", "ünïcödé",
			"with space", "2020-01-31", "true", "line\nbreak", "\"quoted\"", "Bad_Name", "12345678901")
	case "integer":
		return pick[any](g, int64(0), int64(1), int64(-1), int64(3), int64(42), int64(100), int64(1000),
			int64(2147483648), int64(-7), int64(9007199254740993))
	case "number":
		return pick[any](g, 0.5, 1.5, -2.25, int64(2), 100.0, 1e10, int64(0))
	case "boolean":
		return g.chance(0.5)
	case "object":
		return map[string]any{}
	case "array":
		return []any{}
	}
	return "x"
}

// formatted returns a value for a string format, valid or not.
func (g *Gen) formatted(f string) any {
	switch f {
	case "date-time":
		return pick[any](g, "2020-01-01T00:00:00Z", "not-a-time", "2021-06-01T12:30:00+02:00")
	case "date":
		return pick[any](g, "2020-01-31", "2020-13-01")
	case "int-or-string":
		return pick[any](g, "50%", int64(3))
	case "byte":
		return pick[any](g, "aGVsbG8=", "not base64!")
	case "uuid":
		return pick[any](g, "123e4567-e89b-12d3-a456-426614174000", "0000-1111")
	case "email":
		return pick[any](g, "a@example.com", "nope")
	case "ipv4":
		return pick[any](g, "10.0.0.1", "300.1.1.1")
	case "hostname":
		return pick[any](g, "example.com", "-bad-")
	case "duration":
		return pick[any](g, "1h", "forever")
	}
	return "x"
}

// uniqueGroup returns a fresh API group name.
func (g *Gen) uniqueGroup(prefix string) string {
	g.counter++
	return fmt.Sprintf("%s%d-%d.example.com", prefix, g.counter, g.r.Intn(1000))
}
