package cel

// The JSON paths of x-kubernetes-validations fieldPath (and of selectable
// fields), read as the apiserver reads them.

import (
	"errors"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/structural"
)

var errNotAField = errors.New("does not refer to a valid field")

// ResolveFieldPath walks path through s as the apiserver resolves the
// fieldPath of an x-kubernetes-validations rule (arrays set: ".name" and
// "['name']" steps) and the jsonPath of a selectable field (arrays unset:
// ".name" only). It returns the path relative to s (a step through
// properties as a child, one through additionalProperties as a key) and
// the schema it names (nil for additionalProperties without a schema), or
// the apiserver's error for the first step that does not parse or name a
// field.
func ResolveFieldPath(s *structural.Schema, path string, arrays bool) (*field.Path, *structural.Schema, error) {
	names, perr := objpath.ParseJSONPath(path, arrays)
	var out *field.Path
	for _, name := range names {
		switch {
		case s == nil:
			return nil, nil, errNotAField
		case s.Properties != nil:
			c, ok := s.Properties[name]
			if !ok {
				return nil, nil, errNotAField
			}
			s, out = c, out.Child(name)
		case s.AdditionalProperties != nil:
			s, out = s.AdditionalProperties.Schema, out.Key(name)
		default:
			return nil, nil, errNotAField
		}
	}
	if perr != nil {
		return nil, nil, perr
	}
	return out, s, nil
}
