package cel

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkValidatorRuleAtLeaf builds the whole validator (CompileAll) of
// a chain of 100, 400 and 1,600 objects without rules whose innermost
// property, a string, has one: every node on the way validates through
// its child, and each node's build asked whether its child had rules
// below it by walking down to the leaf again.
func BenchmarkValidatorRuleAtLeaf(b *testing.B) {
	for _, depth := range []int{100, 400, 1600} {
		s := mustSchema(b, strings.Repeat(`{"type":"object","properties":{"a":`, depth)+
			`{"type":"string","maxLength":5,"x-kubernetes-validations":[{"rule":"self.size() < 5"}]}`+
			strings.Repeat(`}}`, depth))
		b.Run(fmt.Sprint("depth", depth), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NewValidator(s, true, NewCompileCache()).CompileAll()
			}
		})
	}
}

// TestValidatorRuleAtLeafLinear: building the validator of a chain whose
// rule sits at its leaf allocates in proportion to the depth (4 times the
// depth, about 4 times the allocations; each build walking down to the
// leaf again made it about 12 times).
func TestValidatorRuleAtLeafLinear(t *testing.T) {
	allocs := func(depth int) float64 {
		s := mustSchema(t, strings.Repeat(`{"type":"object","properties":{"a":`, depth)+
			`{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 5"}]}`+
			strings.Repeat(`}}`, depth))
		return testing.AllocsPerRun(2, func() { NewValidator(s, true, NewCompileCache()).CompileAll() })
	}
	short, long := allocs(100), allocs(400)
	if long > 6*short {
		t.Errorf("validator of a chain: %.0f allocations at depth 100, %.0f at depth 400 (%.1fx)", short, long, long/short)
	}
}
