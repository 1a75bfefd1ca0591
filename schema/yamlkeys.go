package schema

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	// The YAML 1.1 parser sigs.k8s.io/yaml converts YAML with, at the
	// version it requires: reading the document with it again gives the
	// very keys that conversion turns into JSON strings.
	yamlv2 "go.yaml.in/yaml/v2"
)

// keyCollision reports two keys of one mapping of the YAML document data
// that differ in YAML 1.1 (9 and 0000000000009, 1 and "1", true and
// "true", 1e3 and 1000) but become the same JSON key. sigs.k8s.io/yaml,
// and so kubectl and the apiserver, keep one of them chosen by Go's map
// order: a different one from run to run. Such a document has no one
// meaning, so it is refused. It returns nil when data does not parse
// (the conversion reports that).
func keyCollision(data []byte) error {
	var v any
	if err := yamlv2.Unmarshal(data, &v); err != nil {
		return nil
	}
	return findCollision(v, "")
}

// findCollision is keyCollision for the value v at path at (keys joined
// by ".", indices in brackets, "" at the top).
func findCollision(v any, at string) error {
	switch x := v.(type) {
	case map[any]any:
		return mappingCollision(x, at)
	case []any:
		for i, e := range x {
			if err := findCollision(e, at+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	}
	return nil
}

// mappingCollision is findCollision for a mapping: first among its own
// keys, then in its values in key order, so that the error reported is
// always the same.
func mappingCollision(x map[any]any, at string) error {
	seen := make(map[string]any, len(x))
	var keys []string
	for k := range x {
		s, ok := jsonKey(k)
		if !ok {
			continue
		}
		if other, dup := seen[s]; dup {
			return collisionError(other, k, s, at)
		}
		seen[s] = k
		keys = append(keys, s)
	}
	sort.Strings(keys)
	for _, s := range keys {
		if err := findCollision(x[seen[s]], joinKey(at, s)); err != nil {
			return err
		}
	}
	return nil
}

// collisionError is the error for the YAML keys k1 and k2 of the mapping
// at that both become the JSON key s; it names them in a fixed order.
func collisionError(k1, k2 any, s, at string) error {
	a, b := describeKey(k1), describeKey(k2)
	if a > b {
		a, b = b, a
	}
	where := "the top-level mapping"
	if at != "" {
		where = "the mapping at " + at
	}
	return fmt.Errorf("keys %s and %s of %s both become the JSON key %q, and sigs.k8s.io/yaml (so kubectl and the apiserver) keeps either one at random; give each key once (quote numbers and booleans meant as strings)", a, b, where, s)
}

func joinKey(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

// jsonKey is the JSON key sigs.k8s.io/yaml makes of YAML key k; ok is false
// for keys it refuses.
func jsonKey(k any) (string, bool) {
	switch k := k.(type) {
	case string:
		return k, true
	case int:
		return strconv.Itoa(k), true
	case int64:
		return strconv.FormatInt(k, 10), true
	case float64:
		s := strconv.FormatFloat(k, 'g', -1, 32)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		return s, true
	case bool:
		return strconv.FormatBool(k), true
	}
	return "", false
}

// describeKey names a YAML key with the type YAML 1.1 gave it.
func describeKey(k any) string {
	s, _ := jsonKey(k)
	switch k.(type) {
	case string:
		return strconv.Quote(s) + " (a string)"
	case int, int64:
		return s + " (an integer)"
	case float64:
		if !strings.ContainsAny(s, ".en") {
			s += ".0"
		}
		return s + " (a float)"
	case bool:
		return s + " (a boolean)"
	}
	return s
}
