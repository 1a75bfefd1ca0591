package cel

// The JSON paths of x-kubernetes-validations fieldPath (and of selectable
// fields), read as the apiserver reads them.

import (
	"errors"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/structural"
)

var errInvalidFieldPath = errors.New("invalid field path")

// ResolveFieldPath walks path, the fieldPath of an x-kubernetes-validations rule,
// through s and returns it as a field path relative to s (a step through
// properties as a child, one through additionalProperties as a key), or an
// error when it does not name a field.
func ResolveFieldPath(s *structural.Schema, path string) (*field.Path, error) {
	toks := FieldPathTokens(path)
	var out *field.Path
	for i := 0; i < len(toks); i++ {
		var name string
		switch toks[i] {
		case "[":
			i++
			if i >= len(toks) {
				return nil, errInvalidFieldPath
			}
			q := toks[i]
			if len(q) < 2 || q[0] != '\'' || q[len(q)-1] != '\'' {
				return nil, errInvalidFieldPath
			}
			var ok bool
			if name, ok = UnquoteFieldPath(q[1 : len(q)-1]); !ok {
				return nil, errInvalidFieldPath
			}
			if err := step(&s, &out, name); err != nil {
				return nil, err
			}
			i++
			if i >= len(toks) || toks[i] != "]" {
				return nil, errInvalidFieldPath
			}
		case ".":
			i++
			if i >= len(toks) {
				return nil, errInvalidFieldPath
			}
			if err := step(&s, &out, toks[i]); err != nil {
				return nil, err
			}
		default:
			return nil, errInvalidFieldPath
		}
	}
	return out, nil
}

// step moves *s to its child name: a property when the node has
// properties, else any key of additionalProperties; *out gets the step.
func step(s **structural.Schema, out **field.Path, name string) error {
	cur := *s
	if cur == nil {
		return errInvalidFieldPath
	}
	switch {
	case cur.Properties != nil:
		c, ok := cur.Properties[name]
		if !ok {
			return errInvalidFieldPath
		}
		*s = c
		*out = (*out).Child(name)
	case cur.AdditionalProperties != nil:
		*s = cur.AdditionalProperties.Schema
		*out = (*out).Key(name)
	default:
		return errInvalidFieldPath
	}
	return nil
}

// FieldPathTokens splits a field path into the delimiters '.', '[', ']'
// (one token each), single-quoted strings (quotes included; a quote
// preceded by a backslash does not end one, and an unterminated one runs to
// the end), and the text between them.
func FieldPathTokens(path string) []string {
	var toks []string
	for len(path) > 0 {
		n := len(path)
		switch path[0] {
		case '\'':
			for i := 1; i < len(path); i++ {
				if path[i] == '\'' && path[i-1] != '\\' {
					n = i + 1
					break
				}
			}
		case '.', '[', ']':
			n = 1
		default:
			if i := strings.IndexAny(path, ".[]"); i >= 0 {
				n = i
			}
		}
		toks = append(toks, path[:n])
		path = path[n:]
	}
	return toks
}

var fieldNameEscape = regexp.MustCompile(`\\.`)

// UnquoteFieldPath resolves the backslash escapes of a quoted field name;
// ok is false for an unknown escape.
func UnquoteFieldPath(s string) (name string, ok bool) {
	ok = true
	name = fieldNameEscape.ReplaceAllStringFunc(s, func(m string) string {
		switch m[1] {
		case 'a':
			return "\a"
		case 'b':
			return "\b"
		case 'f':
			return "\f"
		case 'n':
			return "\n"
		case 'r':
			return "\r"
		case 't':
			return "\t"
		case 'v':
			return "\v"
		case '\'':
			return "'"
		case '\\':
			return "\\"
		}
		ok = false
		return ""
	})
	return name, ok
}
