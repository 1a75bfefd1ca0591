package revision

import (
	"math/rand/v2"

	"github.com/crdschema/crdschema/internal/celhint"
	"github.com/crdschema/crdschema/revision/internal/revdiff"
	"github.com/crdschema/crdschema/structural"
)

// boundaryProbes are values of a rule's node at the rule's boundary, as
// far as the old schema allows them (celhint.Variants): the fields the
// rules read present and absent, set to the literals the rules compare
// them with and their neighbours, to every value of their old enum, to
// sizes around those the rules compare, and to strings that pass and fail
// the functions the rules apply. Fields the old schema does not have are
// left out: no object stored under it holds them. The probes still have to
// pass the old revision (the prober stores them, repairing what it must);
// those that do and pass the new rule are what makes it safe. After them
// come the values of the lists and maps the rules range over
// (celhint.RangeVariants: an item twice, a map key that fails the rule),
// drawn from rr, then the lists' items of each enum value twice
// (celhint.ItemEnumVariants), drawn from re, and last the strings the
// rules read through a function that changes them, changed so that it
// changes them back (celhint.EditVariants: Widgets where a rule compares
// a field with its lowerAscii()), drawn from rs, so that the others stay
// as they were. Each rule is parsed once for all four.
func boundaryProbes(o *structural.Schema, base any, rules []string, r, rr, re, rs *rand.Rand) []revdiff.Probe {
	hints := celhint.ParseAll(rules)
	vs := append(celhint.Variants(o, base, hints, r), celhint.RangeVariants(o, base, hints, rr)...)
	vs = append(vs, celhint.ItemEnumVariants(o, base, hints, re)...)
	vs = append(vs, celhint.EditVariants(o, base, hints, rs)...)
	out := make([]revdiff.Probe, len(vs))
	for i, v := range vs {
		out[i] = revdiff.Probe{Value: v}
	}
	return out
}
