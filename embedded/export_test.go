package embedded

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/structural"
)

// RoundTripObjectMeta is the round trip the tests check directly.
var RoundTripObjectMeta = roundTripObjectMeta

// Coerce coerces the root metadata and then the embedded resources, as the
// pipeline does; an error on the root metadata is returned alone.
func Coerce(obj map[string]any, s *structural.Schema, opts CoerceOptions) ([]string, field.ErrorList) {
	paths, err := CoerceResourceMeta(obj, opts)
	if err != nil {
		return paths, field.ErrorList{err}
	}
	more, errs := CoerceEmbedded(obj, s, opts)
	return append(paths, more...), errs
}

// AsWritten is the test metadata coercion keeps metadata in place by.
func AsWritten(m map[string]any) bool { return asWritten(m, objectMetaSpec) }
