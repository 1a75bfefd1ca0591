package yamlfast

// Flow collections: the one-line flow sequences of scalars the fast path
// reads.

import "bytes"

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
		i = skipSpaces(t, i)
		if i >= len(t) {
			return nil, false
		}
		v, next, ok := p.flowItem(t, i)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		i = skipSpaces(t, next)
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

// flowItem reads the scalar of a flow sequence at t[i]. It returns its
// value and the offset after it.
func (p *parser) flowItem(t []byte, i int) (any, int, bool) {
	switch c := t[i]; {
	case c == '"' || c == '\'':
		end := i + 1
		for end < len(t) && t[end] != c && t[end] != '\\' {
			end++
		}
		if end >= len(t) || t[end] != c || (end+1 < len(t) && t[end+1] == c) {
			return nil, 0, false
		}
		return string(t[i+1 : end]), end + 1, true
	case flowPlain(c):
		j := i
		for j < len(t) && (flowPlain(t[j]) || t[j] == ' ') {
			j++
		}
		item := trimRight(t[i:j])
		if item[0] == '-' && (len(item) == 1 || item[1] == ' ') {
			return nil, 0, false
		}
		v := p.plainValue(item)
		return v, j, v != declined
	}
	return nil, 0, false
}

// skipSpaces returns the offset of the first non-space of t from i on.
func skipSpaces(t []byte, i int) int {
	for i < len(t) && t[i] == ' ' {
		i++
	}
	return i
}

// flowPlain reports whether c may appear in a plain scalar of a flow
// sequence the fast path reads.
func flowPlain(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '.' || c == '/' || c == '-' || c == '+' || c == '='
}
