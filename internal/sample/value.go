package sample

import (
	"math/rand/v2"

	"github.com/crdschema/crdschema/structural"
)

// Value returns a candidate value for one node of a schema (a field, a
// list item, a map value), as Object generates it inside an object; false
// when none can be generated. The revision report builds its probes with
// it: a value the old schema accepts at a changed field.
func Value(s *structural.Schema, r *rand.Rand) (any, bool) {
	if s == nil {
		return nil, false
	}
	g := &gen{r: r}
	return g.value(s, 1)
}
