package objpath

import (
	"fmt"
	"strings"
)

// NestedField is the value at path inside obj, read as the apiserver reads
// the paths of a scale subresource (".spec.replicas"): the path is split at
// every dot after the leading one, and each step is a key of an object, as
// apimachinery's unstructured.NestedFieldNoCopy reads them, with its error
// messages. found is false when a key is missing or a null lies on the
// way; a value on the way that is not an object is an error (".spec
// accessor error: 2 is of the type int64, expected
// map[string]interface{}"). obj is not changed.
func NestedField(obj map[string]any, path string) (v any, found bool, err error) {
	keys := strings.TrimPrefix(path, ".")
	rest := keys
	v = obj
	end := 0
	for {
		k, after, more := strings.Cut(rest, ".")
		end += len(k)
		if v == nil {
			return nil, false, nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false, fmt.Errorf(".%s accessor error: %v is of the type %T, expected map[string]interface{}", keys[:end], v, v)
		}
		if v, ok = m[k]; !ok {
			return nil, false, nil
		}
		if !more {
			return v, true, nil
		}
		rest, end = after, end+1
	}
}

// NestedInt64 is the int64 at path (see NestedField): a value of any other
// type is an error (".spec.count accessor error: 2 is of the type float64,
// expected int64"), as unstructured.NestedInt64 has it.
func NestedInt64(obj map[string]any, path string) (int64, bool, error) {
	v, found, err := NestedField(obj, path)
	if !found || err != nil {
		return 0, found, err
	}
	i, ok := v.(int64)
	if !ok {
		return 0, false, accessorError(path, v, "int64")
	}
	return i, true, nil
}

// NestedString is the string at path (see NestedField); a value of any
// other type, null included, is an error, as unstructured.NestedString has
// it.
func NestedString(obj map[string]any, path string) (string, bool, error) {
	v, found, err := NestedField(obj, path)
	if !found || err != nil {
		return "", found, err
	}
	s, ok := v.(string)
	if !ok {
		return "", false, accessorError(path, v, "string")
	}
	return s, true, nil
}

func accessorError(path string, v any, want string) error {
	return fmt.Errorf(".%s accessor error: %v is of the type %T, expected %s", strings.TrimPrefix(path, "."), v, v, want)
}
