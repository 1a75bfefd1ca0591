// Package errorsort holds the one order the library reports field errors
// in: by field path, then type, then detail.
package errorsort

import (
	"sort"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Sort sorts errs in place by field path, then type, then detail (stable,
// so equal errors keep their order).
func Sort(errs field.ErrorList) {
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i], errs[j]
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		return a.Detail < b.Detail
	})
}
