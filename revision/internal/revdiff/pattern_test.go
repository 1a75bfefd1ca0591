package revdiff

import (
	"math"
	"regexp"
	"testing"
	"unicode/utf8"
)

// TestPatternWitness: the search finds the shortest string one pattern
// matches and the other does not, within a length range, says none when
// the first pattern's language (in the range) is inside the second's, and
// gives up on case folding. Every witness is checked with Go's regexp.
func TestPatternWitness(t *testing.T) {
	tests := []struct {
		a, b     string
		lo, hi   int
		want     string
		answered patternAnswer
	}{
		{`^[a-zSA-Z0-9]+$`, `^[a-zA-Z0-9]+$`, 0, -1, "", patternNone},
		{`^[a-z]([-a-z]*[a-z])?(\.[a-z]([-a-z]*[a-z]))*$`, `^[a-z]([-a-z]*[a-z])?(\.[a-z]([-a-z]*[a-z])?)*$`, 0, -1, "", patternNone},
		{`^[a-z]([-a-z]*[a-z])?(\.[a-z]([-a-z]*[a-z])?)*$`, `^[a-z]([-a-z]*[a-z])?(\.[a-z]([-a-z]*[a-z]))*$`, 0, -1, "a.a", patternFound},
		{`^\[[0-9]+-[0-9]+\]$`, "", 0, 4, "", patternNone},
		{`^\[[0-9]+-[0-9]+\]$`, "", 13, -1, "[000000000-0]", patternFound},
		{"", `^([0-9]{1,5}(h|m|s|ms)){1,4}$`, 1, -1, "0", patternFound},
		{`abc`, `b`, 0, -1, "", patternNone},
		{`foo`, `\bfoo\b`, 0, -1, "0foo", patternFound},
		{`\bfoo\b`, `foo`, 0, -1, "", patternNone},
		{`^a$`, `^a\z`, 0, -1, "", patternNone},
		{`^a+$`, "", 6, math.MaxInt, "aaaaaa", patternFound},
		{`^a{3}$`, "", 2, 2, "", patternNone},
		{`^a{3}$|^b$`, `^b`, 0, 3, "aaa", patternFound},
		{`^[\x{D000}-\x{E100}]$`, `^[\x{D000}-\x{D7FF}]$`, 0, -1, "\ue000", patternFound},
		{`^.$`, `^[^\x{D800}-\x{DFFF}]$`, 0, -1, "", patternNone},
		{`(a?){1000}a{1000}`, `b`, 0, -1, "", patternUnknown},
		{`(?i)abc`, `abc`, 0, -1, "", patternUnknown},
		{`^(`, `a`, 0, -1, "", patternUnknown},
	}
	for _, tt := range tests {
		got, answered := patternWitness(tt.a, tt.b, tt.lo, tt.hi)
		if got != tt.want || answered != tt.answered {
			t.Errorf("%q, %q [%d, %d]: %q (%d), want %q (%d)", tt.a, tt.b, tt.lo, tt.hi, got, answered, tt.want, tt.answered)
		}
		if answered != patternFound {
			continue
		}
		if n := utf8.RuneCountInString(got); n < tt.lo || (tt.hi >= 0 && n > tt.hi) {
			t.Errorf("%q: witness of %d runes, outside [%d, %d]", got, n, tt.lo, tt.hi)
		}
		if tt.a != "" && !regexp.MustCompile(tt.a).MatchString(got) {
			t.Errorf("%q does not match %q", got, tt.a)
		}
		if tt.b != "" && regexp.MustCompile(tt.b).MatchString(got) {
			t.Errorf("%q matches %q", got, tt.b)
		}
	}
}
