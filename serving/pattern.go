package serving

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxPatternLen bounds a translated pattern: past it (a case-folded
// Unicode class can list thousands of ranges) the pattern is kept as an
// x- keyword instead.
const maxPatternLen = 32 << 10

// editorFlags is what yaml-language-server takes out of a pattern before
// it compiles it (safeCreateUnicodeRegExp): every "(?i)", "(?ms)", ...,
// wherever it stands, made a flag of the whole expression. A pattern
// written here never holds one.
var editorFlags = regexp.MustCompile(`\(\?[ims]+\)`)

// portablePattern returns pattern, an RE2 expression (the apiserver's
// dialect, Go's regexp), in a form that Go's regexp (kubeconform) and
// ECMA-262 with the u flag and no other (yaml-language-server's new
// RegExp(pattern, 'u')) both read as the apiserver does: the same strings
// match, anywhere in the value. A pattern already in the syntax both read
// alike is returned as written; any other is rewritten from its syntax
// tree: "." as [^\n] (ECMA's dot also refuses \r, U+2028 and U+2029), \s
// as its ASCII class, case-insensitive parts and Unicode or POSIX classes
// as explicit classes, \A and \z as ^ and $, group names and inline flags
// dropped. False when there is no such form: multi-line ^ and $ ((?m):
// ECMA has no inline flag, and its m flag also breaks lines at \r),
// a pattern that does not compile, or a translation longer than 32 KiB.
func portablePattern(pattern string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	if portableAsWritten(pattern) {
		return pattern, true
	}
	var e ecmaWriter
	e.node(re)
	out := e.b.String()
	if e.unsupported || len(out) > maxPatternLen || editorFlags.MatchString(out) {
		return "", false
	}
	return out, true
}

// ecmaWriter writes a syntax tree in the syntax Go's regexp and ECMA-262
// (u flag) share.
type ecmaWriter struct {
	b           strings.Builder
	unsupported bool
}

func (e *ecmaWriter) node(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpNoMatch:
		e.b.WriteString(`[^\s\S]`)
	case syntax.OpEmptyMatch:
		// Nothing: (?:|s) for (|s); a repetition groups it, (?:)*.
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			e.literal(r, re.Flags&syntax.FoldCase != 0)
		}
	case syntax.OpCharClass:
		e.class(re.Rune)
	case syntax.OpAnyCharNotNL:
		e.b.WriteString(`[^\n]`)
	case syntax.OpAnyChar:
		e.b.WriteString(`[\s\S]`)
	case syntax.OpBeginText:
		e.b.WriteByte('^')
	case syntax.OpEndText:
		e.b.WriteByte('$')
	case syntax.OpWordBoundary:
		e.b.WriteString(`\b`)
	case syntax.OpNoWordBoundary:
		e.b.WriteString(`\B`)
	case syntax.OpCapture:
		// Names dropped: Go before 1.22 refuses (?<name>, ECMA (?P<name>,
		// and a name changes nothing about what matches.
		e.b.WriteByte('(')
		e.node(re.Sub[0])
		e.b.WriteByte(')')
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		e.repeat(re)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			e.group(s, s.Op == syntax.OpAlternate)
		}
	case syntax.OpAlternate:
		for i, s := range re.Sub {
			if i > 0 {
				e.b.WriteByte('|')
			}
			e.node(s)
		}
	default: // OpBeginLine, OpEndLine: (?m) has no shared form
		e.unsupported = true
	}
}

// group writes re, inside (?:...) when wrap.
func (e *ecmaWriter) group(re *syntax.Regexp, wrap bool) {
	if !wrap {
		e.node(re)
		return
	}
	e.b.WriteString("(?:")
	e.node(re)
	e.b.WriteByte(')')
}

// repeat writes a repetition; its operand is grouped unless it is one
// atom (ECMA's u flag refuses a repeated assertion such as ^*).
func (e *ecmaWriter) repeat(re *syntax.Regexp) {
	sub := re.Sub[0]
	e.group(sub, !isAtom(sub))
	switch re.Op {
	case syntax.OpStar:
		e.b.WriteByte('*')
	case syntax.OpPlus:
		e.b.WriteByte('+')
	case syntax.OpQuest:
		e.b.WriteByte('?')
	default:
		switch {
		case re.Max == re.Min:
			fmt.Fprintf(&e.b, "{%d}", re.Min)
		case re.Max < 0:
			fmt.Fprintf(&e.b, "{%d,}", re.Min)
		default:
			fmt.Fprintf(&e.b, "{%d,%d}", re.Min, re.Max)
		}
	}
	if re.Flags&syntax.NonGreedy != 0 {
		e.b.WriteByte('?')
	}
}

// isAtom reports a node written as one unit a repetition can follow.
func isAtom(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune) == 1
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpCapture, syntax.OpNoMatch:
		return true
	}
	return false
}

// literal writes one rune, as the class of its case-folding orbit when
// fold (the orbit Go's regexp matches under (?i)).
func (e *ecmaWriter) literal(r rune, fold bool) {
	if fold {
		orbit := []rune{r}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			orbit = append(orbit, f)
		}
		if len(orbit) > 1 {
			slices.Sort(orbit)
			ranges := make([]rune, 0, 2*len(orbit))
			for _, o := range orbit {
				ranges = append(ranges, o, o)
			}
			e.class(ranges)
			return
		}
	}
	if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
		e.b.WriteByte('\\')
		e.b.WriteRune(r)
		return
	}
	e.char(r)
}

// char writes a rune both dialects read as itself (in a class or out
// of one, once the class's specials are escaped).
func (e *ecmaWriter) char(r rune) {
	switch r {
	case '\t':
		e.b.WriteString(`\t`)
	case '\n':
		e.b.WriteString(`\n`)
	case '\r':
		e.b.WriteString(`\r`)
	case '\f':
		e.b.WriteString(`\f`)
	case '\v':
		e.b.WriteString(`\v`)
	default:
		if r < 0x20 || r == 0x7f {
			fmt.Fprintf(&e.b, `\x%02X`, r)
			return
		}
		e.b.WriteRune(r)
	}
}

// class writes a character class given as sorted lo, hi pairs: negated
// when it holds both ends of Unicode (shorter, and what [^...] was),
// surrogates left out (valid text holds none, and they have no UTF-8).
func (e *ecmaWriter) class(ranges []rune) {
	ranges = withoutSurrogates(ranges)
	if len(ranges) == 0 {
		e.b.WriteString(`[^\s\S]`)
		return
	}
	if len(ranges) == 2 && ranges[0] == 0 && ranges[1] == unicode.MaxRune {
		e.b.WriteString(`[\s\S]`)
		return
	}
	e.b.WriteByte('[')
	if ranges[0] == 0 && ranges[len(ranges)-1] == unicode.MaxRune {
		e.b.WriteByte('^')
		ranges = withoutSurrogates(complement(ranges))
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if hi > lo+1 {
			e.classChar(lo, true)
			e.b.WriteByte('-')
			e.classChar(hi, true)
			continue
		}
		e.classChar(lo, false)
		if hi > lo {
			e.classChar(hi, false)
		}
	}
	e.b.WriteByte(']')
}

// classChar writes a rune of a class; a special one escaped, as \xHH at
// the end of a range (where ECMA engines differ on \-).
func (e *ecmaWriter) classChar(r rune, inRange bool) {
	switch {
	case !strings.ContainsRune(`\]-[^`, r):
		e.char(r)
	case inRange:
		fmt.Fprintf(&e.b, `\x%02X`, r)
	default:
		e.b.WriteByte('\\')
		e.b.WriteRune(r)
	}
}

// complement is the complement of sorted lo, hi pairs within
// 0..unicode.MaxRune.
func complement(ranges []rune) []rune {
	var out []rune
	next := rune(0)
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] > next {
			out = append(out, next, ranges[i]-1)
		}
		next = ranges[i+1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, next, unicode.MaxRune)
	}
	return out
}

// withoutSurrogates cuts the surrogate block out of sorted lo, hi pairs.
func withoutSurrogates(ranges []rune) []rune {
	const lo, hi = 0xD800, 0xDFFF
	var out []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		a, b := ranges[i], ranges[i+1]
		if b < lo || a > hi {
			out = append(out, a, b)
			continue
		}
		if a < lo {
			out = append(out, a, lo-1)
		}
		if b > hi {
			out = append(out, hi+1, b)
		}
	}
	return out
}

// portableAsWritten reports a pattern written only with syntax that Go's
// regexp and ECMA-262 (u flag, no other) read alike: literals (no "."),
// \d \w \b and their negations, escaped specials, \t \n \r \f \v,
// classes of those (no leading "]", no "[" inside, "-" only first, last
// or between two characters), ^ $ | (...) (?:...), and repetitions of
// atoms. Anything else is rewritten from the syntax tree.
func portableAsWritten(p string) bool {
	if !utf8.ValidString(p) || editorFlags.MatchString(p) {
		return false
	}
	s := scanner{p: p, ok: true}
	for s.i < len(s.p) && s.ok {
		s.step()
	}
	return s.ok && s.depth == 0
}

// scanner walks a pattern for portableAsWritten.
type scanner struct {
	p     string
	i     int
	depth int
	atom  bool // the last token can be repeated
	ok    bool
}

// The escapes both dialects read alike: outside a class (besides the
// specials) and inside one.
const (
	specials     = `\.+*?()|[]{}^$/`
	classEscapes = `\]-[^.+*?(){}|$/`
	charEscapes  = "tnrfv"
)

func (s *scanner) step() {
	c := s.p[s.i]
	switch c {
	case '\\':
		s.escape()
	case '.', ']', '}':
		s.ok = false // "." differs; a lone ] or } is an ECMA syntax error
	case '[':
		s.class()
	case '(':
		s.open()
	case ')':
		s.depth--
		s.ok = s.depth >= 0
		s.i++
		s.atom = true
	case '|', '^', '$':
		s.i++
		s.atom = false
	case '*', '+', '?':
		s.i++
		s.quantified()
	case '{':
		s.counted()
	default:
		_, n := utf8.DecodeRuneInString(s.p[s.i:])
		s.i += n
		s.atom = true
	}
}

func (s *scanner) escape() {
	if s.i+1 >= len(s.p) {
		s.ok = false
		return
	}
	n := s.p[s.i+1]
	s.i += 2
	switch {
	case strings.IndexByte("dDwW", n) >= 0, strings.IndexByte(specials, n) >= 0, strings.IndexByte(charEscapes, n) >= 0:
		s.atom = true
	case n == 'b' || n == 'B':
		s.atom = false
	default:
		s.ok = false
	}
}

func (s *scanner) open() {
	s.depth++
	s.atom = false
	if strings.HasPrefix(s.p[s.i:], "(?:") {
		s.i += 3
		return
	}
	if strings.HasPrefix(s.p[s.i:], "(?") {
		s.ok = false // flags, names: rewritten
		return
	}
	s.i++
}

// quantified follows a *, + or ? (or a {n,m}) just read: it must repeat
// an atom, and may be lazy.
func (s *scanner) quantified() {
	if !s.atom {
		s.ok = false
		return
	}
	if s.i < len(s.p) && s.p[s.i] == '?' {
		s.i++
	}
	s.atom = false
}

// counted reads {n}, {n,} or {n,m}; any other { is a literal in Go and
// an error in ECMA.
func (s *scanner) counted() {
	end := strings.IndexByte(s.p[s.i:], '}')
	if end < 0 {
		s.ok = false
		return
	}
	body := s.p[s.i+1 : s.i+end]
	lo, hi, comma := strings.Cut(body, ",")
	if !digits(lo) || comma && hi != "" && !digits(hi) {
		s.ok = false
		return
	}
	s.i += end + 1
	s.quantified()
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// class reads [...]; see portableAsWritten for what it accepts.
func (s *scanner) class() {
	s.i++
	if s.i < len(s.p) && s.p[s.i] == '^' {
		s.i++
	}
	if s.i < len(s.p) && s.p[s.i] == ']' {
		s.ok = false // a literal ] in Go, an empty class in ECMA
		return
	}
	first, prevChar := true, false
	for s.ok && s.i < len(s.p) {
		switch c := s.p[s.i]; {
		case c == ']':
			s.i++
			s.atom = true
			return
		case c == '[':
			s.ok = false // POSIX classes and nesting in Go
		case c == '-' && !first && (s.i+1 >= len(s.p) || s.p[s.i+1] != ']'):
			// A range: between two characters, the first not itself
			// the end of a range.
			s.i++
			s.ok = prevChar && s.classItem()
			prevChar = false
		default:
			prevChar = s.classItem()
		}
		first = false
	}
	s.ok = false // unterminated
}

// classItem reads one item of a class: a character (true), \d \w and
// their negations (false), or anything else (not portable).
func (s *scanner) classItem() bool {
	if s.i >= len(s.p) || s.p[s.i] == '[' || s.p[s.i] == ']' {
		s.ok = false
		return false
	}
	if s.p[s.i] != '\\' {
		_, n := utf8.DecodeRuneInString(s.p[s.i:])
		s.i += n
		return true
	}
	if s.i+1 >= len(s.p) {
		s.ok = false
		return false
	}
	n := s.p[s.i+1]
	s.i += 2
	switch {
	case strings.IndexByte(classEscapes, n) >= 0, strings.IndexByte(charEscapes, n) >= 0:
		return true
	case strings.IndexByte("dDwW", n) >= 0:
		return false
	}
	s.ok = false
	return false
}
