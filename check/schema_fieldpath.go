package check

import (
	"errors"
	"regexp"
	"strings"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// fieldPathValid reports whether path, the fieldPath of an
// x-kubernetes-validations rule on the node p, names a field below p:
// `.name` or `['name']` steps through properties, or through
// additionalProperties (any key). A node that cannot be built as a
// structural schema accepts every path, as the apiserver does.
func fieldPathValid(p *schema.Props, path string) bool {
	// structural.New keeps p; a copy keeps the walker's nodes (map entries
	// copied to its stack) from escaping to the heap on every node.
	q := *p
	s, err := structural.New(&q)
	if err != nil {
		return true
	}
	return resolveFieldPath(s, path) == nil
}

var errInvalidFieldPath = errors.New("invalid field path")

// resolveFieldPath walks path through s and returns an error when it does
// not name a field.
func resolveFieldPath(s *structural.Schema, path string) error {
	toks := fieldPathTokens(path)
	for i := 0; i < len(toks); i++ {
		var name string
		switch toks[i] {
		case "[":
			i++
			if i >= len(toks) {
				return errInvalidFieldPath
			}
			q := toks[i]
			if len(q) < 2 || q[0] != '\'' || q[len(q)-1] != '\'' {
				return errInvalidFieldPath
			}
			var ok bool
			if name, ok = unquoteFieldName(q[1 : len(q)-1]); !ok {
				return errInvalidFieldPath
			}
			if err := stepFieldPath(&s, name); err != nil {
				return err
			}
			i++
			if i >= len(toks) || toks[i] != "]" {
				return errInvalidFieldPath
			}
		case ".":
			i++
			if i >= len(toks) {
				return errInvalidFieldPath
			}
			if err := stepFieldPath(&s, toks[i]); err != nil {
				return err
			}
		default:
			return errInvalidFieldPath
		}
	}
	return nil
}

// stepFieldPath moves *s to its child name: a property when the node has
// properties, else any key of additionalProperties.
func stepFieldPath(s **structural.Schema, name string) error {
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
	case cur.AdditionalProperties != nil:
		*s = cur.AdditionalProperties.Schema
	default:
		return errInvalidFieldPath
	}
	return nil
}

// fieldPathTokens splits a field path into the delimiters '.', '[', ']'
// (one token each), single-quoted strings (quotes included; a quote
// preceded by a backslash does not end one, and an unterminated one runs to
// the end), and the text between them.
func fieldPathTokens(path string) []string {
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

// unquoteFieldName resolves the backslash escapes of a quoted field name;
// ok is false for an unknown escape.
func unquoteFieldName(s string) (name string, ok bool) {
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
