package revdiff

import (
	"strings"
	"testing"
)

// TestLengthBoundsPattern: a tightened maxLength or minLength under an
// old pattern is safe, with no probes, when the old pattern matches no
// string of the lengths the new bound refuses; otherwise the shortest
// such string is the first probe. A pattern changed under old lengths
// no string has (minLength above maxLength) is safe: there is nothing to
// refuse.
func TestLengthBoundsPattern(t *testing.T) {
	const old = `{type: object, properties: {spec: {type: object, properties: {
  maxNone: {type: string, pattern: '^a{3}$'},
  maxEdge: {type: string, pattern: '^a{3}$'},
  maxSome: {type: string, pattern: '^a{3}$'},
  minNone: {type: string, pattern: '^a{3}$'},
  minSome: {type: string, pattern: '^a{3}$'},
  empty: {type: string, pattern: '^a+$', minLength: 4, maxLength: 2}}}}}`
	const next = `{type: object, properties: {spec: {type: object, properties: {
  maxNone: {type: string, pattern: '^a{3}$', maxLength: 5},
  maxEdge: {type: string, pattern: '^a{3}$', maxLength: 3},
  maxSome: {type: string, pattern: '^a{3}$', maxLength: 2},
  minNone: {type: string, pattern: '^a{3}$', minLength: 3},
  minSome: {type: string, pattern: '^a{3}$', minLength: 4},
  empty: {type: string, pattern: '^b+$', minLength: 4, maxLength: 2}}}}}`
	want := map[string]string{"spec.maxNone": "", "spec.maxEdge": "", "spec.maxSome": "aaa", "spec.minNone": "", "spec.minSome": "aaa", "spec.empty": ""}
	changes := Diff(mustStructural(t, old), mustStructural(t, next), 1)
	if len(changes) != len(want) {
		t.Fatalf("%d changes, want %d: %+v", len(changes), len(want), changes)
	}
	for _, c := range changes {
		w := want[c.Path.String()]
		if w == "" {
			if c.StaticClass != classSafe || len(c.Probes) != 0 || !strings.Contains(c.StaticWhy, "pattern") {
				t.Errorf("%s %s: %s with %d probes (%s), want safe by the old pattern, no probes", c.Path, c.Kind, c.StaticClass, len(c.Probes), c.StaticWhy)
			}
			continue
		}
		if len(c.Probes) == 0 || c.Probes[0].Value != w || !c.Constructive {
			t.Errorf("%s %s: probes %+v, want first %q", c.Path, c.Kind, c.Probes, w)
		}
	}
}
