package validation

import (
	"math/rand/v2"
	"testing"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// randProps builds a random schema tree using, at any depth, the keywords
// compile reads and those it rejects.
func randProps(r *rand.Rand, depth int) *schema.Props {
	p := &schema.Props{Type: []string{"", "string", "object", "array"}[r.IntN(4)]}
	leaf := func() schema.Props {
		if depth <= 0 {
			return schema.Props{Type: "string"}
		}
		return *randProps(r, depth-1)
	}
	leafP := func() *schema.Props { l := leaf(); return &l }
	for range 1 + r.IntN(3) {
		switch r.IntN(17) {
		case 0:
			p.PatternProperties = map[string]schema.Props{}
			if r.IntN(2) == 0 {
				p.PatternProperties["^a"] = leaf()
			}
		case 1:
			p.Dependencies = map[string]schema.PropsOrStringArray{}
			if r.IntN(2) == 0 {
				p.Dependencies["a"] = schema.PropsOrStringArray{Property: []string{"b"}}
			}
		case 2:
			p.AdditionalItems = &schema.PropsOrBool{Allows: r.IntN(2) == 0}
		case 3:
			p.Items = &schema.PropsOrArray{Array: []schema.Props{}}
			if r.IntN(2) == 0 {
				p.Items.Array = append(p.Items.Array, leaf())
			}
			if r.IntN(3) == 0 {
				p.Items.Schema = leafP()
			}
		case 4, 5:
			p.Items = &schema.PropsOrArray{Schema: leafP()}
		case 6:
			p.Items = &schema.PropsOrArray{}
		case 7, 8:
			p.AllOf = append(p.AllOf, leaf())
		case 9:
			p.AnyOf = append(p.AnyOf, leaf())
		case 10:
			p.OneOf = append(p.OneOf, leaf())
		case 11:
			p.Not = leafP()
		case 12, 13:
			if p.Properties == nil {
				p.Properties = map[string]*schema.Props{}
			}
			p.Properties[string(rune('a'+r.IntN(3)))] = leafP()
		case 14:
			p.AdditionalProperties = &schema.PropsOrBool{Allows: r.IntN(3) != 0, Schema: leafP()}
		case 15:
			p.AdditionalProperties = &schema.PropsOrBool{Allows: r.IntN(2) == 0}
		case 16:
			p.Definitions = map[string]schema.Props{"d": leaf()}
		}
	}
	return p
}

// TestSourceScanRandom holds walkable to compile(fromProps(p)), and
// sourceCompiles to the compile of the whole converted model, on random
// schema trees that nest, at any depth and place compile reads, the
// keywords the walk does not implement (and their empty forms).
func TestSourceScanRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	counts := map[bool]int{}
	for i := range 20000 {
		p := randProps(r, 1+r.IntN(4))
		_, want := compile(fromProps(p))
		if got := walkable(p); got != want {
			t.Fatalf("tree %d: walkable %v, compile %v: %+v", i, got, want, p)
		}
		counts[want]++
		var items *structural.Schema
		if r.IntN(2) == 0 {
			items = &structural.Schema{Type: "string"}
		}
		s := &structural.Schema{Type: "array", Items: items, Source: p}
		if _, want := compile(fromModel(s)); sourceCompiles(s) != want {
			t.Fatalf("tree %d: sourceCompiles %v, compile of the model %v: %+v", i, !want, want, p)
		}
	}
	if counts[true] < 1000 || counts[false] < 1000 {
		t.Errorf("random trees: %v compile or not; want both often", counts)
	}
}
