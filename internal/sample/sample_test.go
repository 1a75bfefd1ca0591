package sample

import (
	"math/rand/v2"
	"regexp"
	"testing"
	"unicode/utf8"

	"github.com/crdschema/crdschema/schema"
)

func i64(v int64) *int64 { return &v }

// TestFromPattern builds strings for patterns the corpus uses and checks
// them against the pattern and the length bounds.
func TestFromPattern(t *testing.T) {
	patterns := []string{
		`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`,
		`^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`,
		`^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$`,
		`^[A-Z]{2,3}-\d{4}$`,
		`\w+@\w+\.com`,
		`^(Always|Never|IfNotPresent)$`,
	}
	g := &gen{r: rand.New(rand.NewPCG(1, 2))}
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		for range 20 {
			v, ok := g.str(&schema.Props{Pattern: p, MaxLength: i64(40)})
			if !ok {
				t.Errorf("%s: no string", p)
				break
			}
			s := v.(string)
			if !re.MatchString(s) || utf8.RuneCountInString(s) > 40 {
				t.Errorf("%s: %q does not match or is too long", p, s)
			}
		}
	}
	if _, ok := g.str(&schema.Props{Pattern: `^a{50}$`, MaxLength: i64(10)}); ok {
		t.Error("an impossible length: a string")
	}
	if _, ok := g.str(&schema.Props{Pattern: `(`}); ok {
		t.Error("a pattern that does not compile: a string")
	}
}

// TestRuleMatches reads the regular expression of a CEL matches rule.
func TestRuleMatches(t *testing.T) {
	p := &schema.Props{XValidations: []schema.ValidationRule{{Rule: `self.matches('^[^\\.]+\\.io$')`}}}
	re, ok := ruleMatches(p)
	if !ok || re != `^[^\.]+\.io$` {
		t.Fatalf("got %q %v", re, ok)
	}
	if _, ok := ruleMatches(&schema.Props{XValidations: []schema.ValidationRule{{Rule: "size(self) > 2"}}}); ok {
		t.Error("another rule read as a pattern")
	}
}

// TestIntegerBounds keeps integers within minimum, maximum and
// exclusive bounds, and on multipleOf.
func TestIntegerBounds(t *testing.T) {
	lo, hi, m := 3.0, 9.0, 3.0
	g := &gen{r: rand.New(rand.NewPCG(3, 4))}
	for range 50 {
		v, ok := g.integer(&schema.Props{Minimum: &lo, Maximum: &hi, ExclusiveMinimum: true, ExclusiveMaximum: true})
		if n := v.(int64); !ok || n <= 3 || n >= 9 {
			t.Fatalf("got %v", v)
		}
		v, ok = g.integer(&schema.Props{Minimum: &lo, Maximum: &hi, MultipleOf: &m})
		if n := v.(int64); !ok || n%3 != 0 || n < 3 || n > 9 {
			t.Fatalf("multipleOf: got %v", v)
		}
	}
	if _, ok := g.integer(&schema.Props{Minimum: &hi, Maximum: &lo}); ok {
		t.Error("empty range: an integer")
	}
}
