package celhint

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// TestVariantsBounded pins Variants' contract, which revision's rule
// probes and the sample repair rely on: a node whose rule reads six enum
// fields of six values each (36 single assignments, 630 pairs) gets
// exactly MaxVariants variants, all different, and the base it was given
// is left as it was.
func TestVariantsBounded(t *testing.T) {
	const enum = `{"type": "string", "enum": ["v0", "v1", "v2", "v3", "v4", "v5"]}`
	node := schemaNode(t, `{"type": "object", "properties": {`+
		`"a": `+enum+`, "b": `+enum+`, "c": `+enum+`, `+
		`"d": `+enum+`, "e": `+enum+`, "f": `+enum+`}}`)
	rule := "self.a == 'v0' || self.b == 'v1' || self.c == 'v2' || self.d == 'v3' || self.e == 'v4' || self.f == 'v5'"
	base := map[string]any{"a": "v0", "b": "v0", "c": "v0", "d": "v0", "e": "v0", "f": "v0"}
	before, _ := json.Marshal(base)
	got := Variants(node, base, ParseAll([]string{rule}), rand.New(rand.NewPCG(1, 2)))
	if len(got) != MaxVariants {
		t.Errorf("%d variants, want MaxVariants (%d)", len(got), MaxVariants)
	}
	seen := map[string]bool{}
	for _, v := range got {
		b, _ := json.Marshal(v)
		if seen[string(b)] {
			t.Errorf("variant %s twice", b)
		}
		seen[string(b)] = true
	}
	if after, _ := json.Marshal(base); string(after) != string(before) {
		t.Errorf("base changed: %s, was %s", after, before)
	}
}

// schemaNode is the structural schema of a JSON schema.
func schemaNode(t *testing.T, js string) *structural.Schema {
	t.Helper()
	p, err := schema.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
