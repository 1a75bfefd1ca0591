package yamlfast

// Flow collections: the one-line flow sequences of scalars the fast path
// reads.

import (
	"bytes"

	"github.com/crdschema/crdschema/internal/jsonfast"
)

// flowValue reads a flow collection that lies on the rest of a line, t,
// which starts at '[' or '{': a flow sequence of scalars, or an empty
// sequence or mapping, followed by nothing or a comment.
func (p *parser) flowValue(t []byte) (any, bool) {
	if t[0] == '[' {
		if inner := bytes.TrimLeft(t[1:], " "); len(inner) > 0 && inner[0] != ']' {
			return p.flowSequence(t)
		}
	}
	close := byte(']')
	if t[0] == '{' {
		close = '}'
	}
	k := 1
	for k < len(t) && t[k] == ' ' {
		k++
	}
	if k >= len(t) || t[k] != close || !restIsComment(t[k+1:], false) {
		return nil, false
	}
	if close == ']' {
		return []any{}, true
	}
	return map[string]any{}, true
}

// flowSequence reads a flow sequence of scalars that lies on one line:
// plain scalars of letters, digits and "_./-+=" (with inner spaces) and
// single-line quoted scalars without quotes inside, separated by commas. t
// starts at '['.
func (p *parser) flowSequence(t []byte) ([]any, bool) {
	a := make([]any, 0, 4)
	i := 1
	for {
		for i < len(t) && t[i] == ' ' {
			i++
		}
		if i >= len(t) {
			return nil, false
		}
		switch c := t[i]; {
		case c == '"' || c == '\'':
			end := i + 1
			for end < len(t) && t[end] != c && t[end] != '\\' {
				end++
			}
			if end >= len(t) || t[end] != c || (end+1 < len(t) && t[end+1] == c) {
				return nil, false
			}
			a = append(a, string(t[i+1:end]))
			i = end + 1
		case flowPlain(c):
			j := i
			for j < len(t) && (flowPlain(t[j]) || t[j] == ' ') {
				j++
			}
			item := trimRight(t[i:j])
			if item[0] == '-' && (len(item) == 1 || item[1] == ' ') {
				return nil, false
			}
			is := p.intern(item)
			v, special := resolveNonString(is)
			if !special {
				v = jsonfast.Box(is)
			} else if v == declined {
				return nil, false
			}
			a = append(a, v)
			i = j
		default:
			return nil, false
		}
		for i < len(t) && t[i] == ' ' {
			i++
		}
		if i >= len(t) {
			return nil, false
		}
		switch t[i] {
		case ',':
			i++
			continue
		case ']':
			if !restIsComment(t[i+1:], false) || (i+1 < len(t) && t[i+1] == '#') {
				return nil, false
			}
			return a, true
		}
		return nil, false
	}
}

// flowPlain reports whether c may appear in a plain scalar of a flow
// sequence the fast path reads.
func flowPlain(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '.' || c == '/' || c == '-' || c == '+' || c == '='
}
