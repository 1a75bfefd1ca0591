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
