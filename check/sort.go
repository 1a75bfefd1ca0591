package check

import (
	"sort"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// SortErrors sorts errors by field path, then type, then detail: the order
// of the command's JSON output.
func SortErrors(errs field.ErrorList) {
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
