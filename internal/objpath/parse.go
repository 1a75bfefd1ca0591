package objpath

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The two path syntaxes of the apiserver, read back: the one it writes
// (field.Path's String, in every error's Field) and the one it reads (the
// JSON paths of a rule's fieldPath and of selectable fields).

// ParseField reads a field path as field.Path's String writes it: names
// joined with dots ("spec.list"), map keys and list indices in brackets
// ("[key]", "[0]"); "" and "<nil>" (a nil path) are the root. A name is a
// Child element, a bracket a Key element: field.Path writes a list index
// and a map key alike, so a "[0]" is the Key "0" and the caller, knowing
// whether a list or an object is there, decides which it is.
//
// field.Path escapes nothing, so its strings are ambiguous, and ParseField
// reads them as follows: a name ends at the next '.' or '[' (a name
// holding either reads as several steps); a bracket ends at the first ']'
// followed by the end, '.' or '[' (so a key may hold '.', '[' and ']', but
// a key holding "]." or "][" reads as several steps), and an unterminated
// bracket runs to the end. Quotes are part of names and keys. For paths
// without those ambiguities, NewPath(ParseField(s)...).String() is s.
func ParseField(s string) []Element {
	if s == "<nil>" {
		return nil
	}
	var out []Element
	for s != "" {
		switch s[0] {
		case '.':
			s = s[1:]
		case '[':
			end := closingBracket(s)
			out = append(out, Key(s[1:end]))
			s = s[min(end+1, len(s)):]
		default:
			end := strings.IndexAny(s, ".[")
			if end < 0 {
				end = len(s)
			}
			out = append(out, Child(s[:end]))
			s = s[end:]
		}
	}
	return out
}

// closingBracket is the index of the ']' that ends the bracket s starts
// with: the first one followed by the end, '.' or '['; len(s) when there
// is none.
func closingBracket(s string) int {
	for i := 1; i < len(s); i++ {
		if s[i] == ']' && (i+1 == len(s) || s[i+1] == '.' || s[i+1] == '[') {
			return i
		}
	}
	return len(s)
}

// The errors of ParseJSONPath, worded as the apiserver's.
var (
	errArrayNotation = errors.New("array notation is not allowed")
	errPathEnd       = errors.New("unexpected end of JSON path")
)

// ParseJSONPath reads a JSON path as the apiserver reads the fieldPath of
// an x-kubernetes-validations rule and the jsonPath of a selectable field:
// steps ".name" and, when arrays is set, "['name']" (single-quoted, with
// the backslash escapes \a \b \f \n \r \t \v \' \\). It returns the names
// of the steps; whether a name is a property or a map key is for the
// schema to say. On a syntax error it returns the names read before it
// with the apiserver's error ("unexpected end of JSON path", "expected [
// or . but got: x", ...): the apiserver resolves each step as it reads it,
// so a name that the schema does not have is reported before a syntax
// error that follows it.
//
// The path is split as the apiserver's scanner splits it: '.', '[' and
// ']' are tokens of their own; a token starting with a single quote runs
// to the next quote not preceded by a backslash (to the end when there is
// none), whatever it holds; any other runs to the next delimiter. The
// token after '.' is the name, whatever it is (".[" names "[").
func ParseJSONPath(path string, arrays bool) ([]string, error) {
	var names []string
	for path != "" {
		var tok string
		tok, path = jsonPathToken(path)
		switch tok {
		case ".":
			if path == "" {
				return names, errPathEnd
			}
			tok, path = jsonPathToken(path)
			names = append(names, tok)
		case "[":
			if !arrays {
				return names, errArrayNotation
			}
			name, rest, err := quotedStep(path)
			if name != nil {
				names = append(names, *name)
			}
			if err != nil {
				return names, err
			}
			path = rest
		default:
			return names, fmt.Errorf("expected [ or . but got: %s", tok)
		}
	}
	return names, nil
}

// quotedStep reads the rest of a "['name']" step after its '['. name is
// set once the quoted name is read, even when the closing ']' is missing.
func quotedStep(path string) (name *string, rest string, err error) {
	if path == "" {
		return nil, "", errPathEnd
	}
	tok, path := jsonPathToken(path)
	if len(tok) < 2 || tok[0] != '\'' || tok[len(tok)-1] != '\'' {
		return nil, "", fmt.Errorf("expected single quoted string but got %s", tok)
	}
	n, err := unquoteJSONPath(tok[1 : len(tok)-1])
	if err != nil {
		return nil, "", fmt.Errorf("invalid string literal: %w", err)
	}
	if path == "" {
		return &n, "", errPathEnd
	}
	if tok, path = jsonPathToken(path); tok != "]" {
		return &n, "", fmt.Errorf("expected ] but got %s", tok)
	}
	return &n, path, nil
}

// jsonPathToken splits the first token off path (not empty).
func jsonPathToken(path string) (tok, rest string) {
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
	return path[:n], path[n:]
}

// unquoteJSONPath resolves the backslash escapes of a quoted name as the
// apiserver does: a backslash and the character after it (any but a
// newline) are one escape, an unknown one an error naming the last such
// escape; a backslash at the end or before a newline stays as it is.
func unquoteJSONPath(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	var err error
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) || s[i+1] == '\n' {
			b.WriteByte(s[i])
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i+1:])
		if c, ok := escapes[r]; ok {
			b.WriteByte(c)
		} else {
			err = fmt.Errorf("invalid escape char %s", s[i:i+1+size])
		}
		i += size
	}
	return b.String(), err
}

// escapes are the backslash escapes of a quoted name.
var escapes = map[rune]byte{'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', '\'': '\'', '\\': '\\'}
