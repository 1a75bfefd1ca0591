package cel

import (
	"reflect"
	"testing"
)

// TestEqualStructural checks equalStructural against reflect.DeepEqual on
// schemas differing only deep down, or in what the structural tree leaves
// out (descriptions, junctors, additionalProperties' boolean).
func TestEqualStructural(t *testing.T) {
	schemas := []string{
		`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string","description":"x"}}}}}`,
		`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string","description":"y"}}}}}`,
		`{"type":"object","properties":{"a":{"type":"object","properties":{"c":{"type":"string","description":"x"}}}}}`,
		`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string","maxLength":3}}}}}`,
		`{"type":"array","items":{"type":"object","properties":{"b":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"true"}]}}`,
		`{"type":"array","items":{"type":"object","properties":{"b":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"false"}]}}`,
		`{"type":"object","additionalProperties":{"type":"string"}}`,
		`{"type":"object","additionalProperties":{"type":"string","enum":["a"]}}`,
		`{"type":"object","additionalProperties":{"type":"string"},"allOf":[{"properties":{"x":{"minLength":1}}}]}`,
		`{"type":"object","additionalProperties":{"type":"string"},"allOf":[{"properties":{"x":{"minLength":2}}}]}`,
		`{"type":"object","properties":{"a":{"type":"string","default":"x"}}}`,
		`{"type":"object","properties":{"a":{"type":"string","default":"y"}}}`,
	}
	for i, x := range schemas {
		for j, y := range schemas {
			a, b := mustSchema(t, x), mustSchema(t, y)
			want := reflect.DeepEqual(a, b)
			if got := equalStructural(a, b); got != want {
				t.Errorf("equalStructural(%d, %d) = %v, reflect.DeepEqual %v", i, j, got, want)
			}
			if i == j && !want {
				t.Errorf("schema %d not equal to its copy", i)
			}
		}
	}
}
