// Package semantic compares Go values as the apiserver's validation does
// (apimachinery's equality.Semantic without its type-specific rules): deep
// equality that treats nil and empty slices and maps as equal.
package semantic

import (
	"reflect"

	forkedreflect "k8s.io/apimachinery/third_party/forked/golang/reflect"
)

// Equal reports whether a and b are deeply equal, nil and empty slices and
// maps counting as equal.
func Equal(a, b any) bool {
	// Values reflect.DeepEqual finds equal are semantically equal too, and
	// it compares scalars without boxing them: the forked comparison
	// allocates for every string or bool it reads through a pointer (such
	// as every field of a schema's properties). It only decides the rest.
	return reflect.DeepEqual(a, b) || forkedreflect.Equalities{}.DeepEqual(a, b)
}
