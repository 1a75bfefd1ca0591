// Package semantic compares Go values as the apiserver's validation does
// (apimachinery's equality.Semantic without its type-specific rules): deep
// equality that treats nil and empty slices and maps as equal.
package semantic

import (
	forkedreflect "k8s.io/apimachinery/third_party/forked/golang/reflect"
)

// Equal reports whether a and b are deeply equal, nil and empty slices and
// maps counting as equal.
func Equal(a, b any) bool {
	return forkedreflect.Equalities{}.DeepEqual(a, b)
}
