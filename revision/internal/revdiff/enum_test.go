package revdiff

import (
	"strings"
	"testing"
)

// TestEnumProof: a constraint added under an old enum is safe, with no
// probes, exactly when every enum value passes it: an exclusive maximum
// at an enum value, a minLength counted in runes, a pattern one value
// misses and a format one value fails leave the change to the probes.
func TestEnumProof(t *testing.T) {
	const old = `{type: object, properties: {spec: {type: object, properties: {
  lim: {type: integer, enum: [1, 2, 3]},
  exc: {type: integer, enum: [1, 2, 3]},
  s: {type: string, enum: ["é", ab]},
  p: {type: string, enum: [ab, Ab]},
  q: {type: string, enum: [ab, Ab]},
  f: {type: string, enum: ["10.0.0.1", a]},
  g: {type: string, enum: ["10.0.0.1"]}}}}}`
	const next = `{type: object, properties: {spec: {type: object, properties: {
  lim: {type: integer, maximum: 3},
  exc: {type: integer, maximum: 3, exclusiveMaximum: true},
  s: {type: string, maxLength: 2},
  p: {type: string, pattern: '^[a-z]+$'},
  q: {type: string, pattern: '^[a-zA-Z]+$'},
  f: {type: string, format: ipv4},
  g: {type: string, format: ipv4}}}}}`
	want := map[string]bool{"spec.lim": true, "spec.exc": false, "spec.s": true, "spec.p": false, "spec.q": true, "spec.f": false, "spec.g": true}
	changes := Diff(mustStructural(t, old), mustStructural(t, next), 1)
	if len(changes) != len(want) {
		t.Fatalf("%d changes, want %d: %+v", len(changes), len(want), changes)
	}
	for _, c := range changes {
		proven := c.StaticClass == classSafe && len(c.Probes) == 0 && !c.Constructive && strings.Contains(c.StaticWhy, "old enum")
		if proven != want[c.Path.String()] {
			t.Errorf("%s %s: proven safe %v, want %v (%s: %s)", c.Path, c.Kind, proven, want[c.Path.String()], c.StaticClass, c.StaticWhy)
		}
	}
}
