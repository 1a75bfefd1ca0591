package serving

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// plainObject is obj as Scale and Row read it: obj itself when it holds
// only plain JSON values, else its JSON form, or the error for a value
// with no JSON form (see the package doc).
func plainObject(obj map[string]any) (map[string]any, *field.Error) {
	if jsonvalue.IsPlain(obj, jsonvalue.MaxDepth) {
		return obj, nil
	}
	p, err := jsonvalue.Plain(obj, jsonvalue.MaxDepth)
	if err != nil {
		return nil, jsonvalue.InputError(err, nil)
	}
	m, _ := p.(map[string]any)
	return m, nil
}
