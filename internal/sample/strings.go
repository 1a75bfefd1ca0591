package sample

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/crdschema/crdschema/schema"
)

// maxRepeat bounds the repetitions a pattern's open-ended operators
// (*, +, {n,}) produce.
const maxRepeat = 4

// str generates a string: one of the format (those the apiserver
// checks), one built from the pattern and checked against it, or lowercase
// letters and digits; within minLength and maxLength.
func (g *gen) str(p *schema.Props) (any, bool) {
	lo, hi := 0, -1
	if p != nil && p.MinLength != nil {
		lo = int(*p.MinLength)
	}
	if p != nil && p.MaxLength != nil {
		hi = int(*p.MaxLength)
	}
	fits := func(s string) bool {
		n := utf8.RuneCountInString(s)
		return n >= lo && (hi < 0 || n <= hi)
	}
	if p != nil && p.Pattern != "" {
		return g.fromPattern(p.Pattern, fits)
	}
	if re, ok := ruleMatches(p); ok {
		if v, ok := g.fromPattern(re, fits); ok {
			return v, true
		}
		// The rule is only a hint: a plain string, repaired by the
		// caller if the rule refuses it.
	}
	if p != nil {
		if s, ok := g.format(p.Format); ok {
			return s, fits(s)
		}
	}
	n := lo + g.r.IntN(8)
	if lo == 0 && n == 0 {
		n = 1 + g.r.IntN(7)
	}
	if hi >= 0 && n > hi {
		n = hi
	}
	if n > 256 {
		n = lo
	}
	return g.letters(n), true
}

// ruleMatches returns the regular expression of a CEL rule of the form
// self.matches('RE') on the node, which acts as a pattern.
func ruleMatches(p *schema.Props) (string, bool) {
	if p == nil {
		return "", false
	}
	for _, v := range p.XValidations {
		rule := strings.TrimSpace(v.Rule)
		inner, ok := strings.CutPrefix(rule, "self.matches(")
		if !ok || !strings.HasSuffix(inner, ")") {
			continue
		}
		lit := strings.TrimSuffix(inner, ")")
		if len(lit) < 2 || (lit[0] != '\'' && lit[0] != '"') || lit[len(lit)-1] != lit[0] || strings.ContainsRune(lit[1:len(lit)-1], rune(lit[0])) {
			continue // not one literal: self.matches('a') || self.matches('b')
		}
		body := strings.ReplaceAll(lit[1:len(lit)-1], `"`, `\"`)
		if re, err := strconv.Unquote(`"` + body + `"`); err == nil {
			return re, true
		}
	}
	return "", false
}

// letters is n lowercase letters and digits, starting with a letter.
func (g *gen) letters(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		if i == 0 {
			b[i] = alphabet[g.r.IntN(26)]
		} else {
			b[i] = alphabet[g.r.IntN(len(alphabet))]
		}
	}
	return string(b)
}

// format returns a valid string of a format the apiserver checks (the
// formats of kube-openapi's registry); false for any other.
func (g *gen) format(f string) (string, bool) {
	n := g.r.IntN(250) + 1
	switch f {
	case "date-time", "datetime":
		return fmt.Sprintf("2024-%02d-%02dT%02d:04:05Z", 1+n%12, 1+n%28, n%24), true
	case "date":
		return fmt.Sprintf("2024-%02d-%02d", 1+n%12, 1+n%28), true
	case "uuid", "uuid4":
		return fmt.Sprintf("%08x-1234-4abc-8def-%012x", g.r.Uint32(), g.r.Uint64()&0xffffffffffff), true
	case "uuid3":
		return fmt.Sprintf("%08x-1234-3abc-8def-%012x", g.r.Uint32(), g.r.Uint64()&0xffffffffffff), true
	case "uuid5":
		return fmt.Sprintf("%08x-1234-5abc-8def-%012x", g.r.Uint32(), g.r.Uint64()&0xffffffffffff), true
	case "email":
		return g.letters(5) + "@example.com", true
	case "hostname":
		return g.letters(6) + ".example.com", true
	case "ipv4":
		return fmt.Sprintf("10.0.%d.%d", n%256, g.r.IntN(256)), true
	case "ipv6":
		return fmt.Sprintf("fd00::%x", n), true
	case "cidr":
		return fmt.Sprintf("10.%d.0.0/16", n%256), true
	case "mac":
		return fmt.Sprintf("02:00:00:00:00:%02x", n%256), true
	case "byte":
		return base64.StdEncoding.EncodeToString([]byte(g.letters(6))), true
	case "uri":
		return "https://example.com/" + g.letters(4), true
	case "duration":
		return fmt.Sprintf("%ds", n), true
	case "hexcolor":
		return fmt.Sprintf("#%06x", g.r.IntN(1<<24)), true
	case "bsonobjectid":
		return fmt.Sprintf("%024x", g.r.Uint64()), true
	}
	return "", false
}

// PatternString returns a string that the RE2 pattern matches, built
// from its syntax tree (open-ended repetitions at most 4 times); false
// when none was found in a few tries or the pattern does not compile.
func PatternString(pattern string, r *rand.Rand) (string, bool) {
	g := &gen{r: r}
	s, ok := g.fromPattern(pattern, func(string) bool { return true })
	if !ok {
		return "", false
	}
	return s.(string), true
}

// fromPattern builds strings from the pattern's syntax tree until one
// matches the pattern and fits; false after a few tries, or when the
// pattern does not compile.
func (g *gen) fromPattern(pattern string, fits func(string) bool) (any, bool) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, false
	}
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, false
	}
	tree = tree.Simplify()
	for try := 0; try < 8; try++ {
		var b strings.Builder
		g.regexp(&b, tree)
		// An unanchored pattern matches a string with a prefix as well;
		// the built string itself is what is checked.
		if s := b.String(); re.MatchString(s) && fits(s) && utf8.ValidString(s) {
			return s, true
		}
	}
	return nil, false
}

// regexp writes to b a string the node matches (anchors and word
// boundaries are left to the final check).
func (g *gen) regexp(b *strings.Builder, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			b.WriteRune(c)
		}
	case syntax.OpCharClass:
		b.WriteRune(g.classRune(re.Rune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte(g.letters(1)[0])
	case syntax.OpCapture:
		g.regexp(b, re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			g.regexp(b, s)
		}
	case syntax.OpAlternate:
		g.regexp(b, re.Sub[g.r.IntN(len(re.Sub))])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		g.repeat(b, re)
	}
}

// repeat writes a repetition of the node's operand.
func (g *gen) repeat(b *strings.Builder, re *syntax.Regexp) {
	lo, hi := 0, maxRepeat
	switch re.Op {
	case syntax.OpPlus:
		lo = 1
	case syntax.OpQuest:
		hi = 1
	case syntax.OpRepeat:
		lo, hi = re.Min, re.Max
		if hi < 0 {
			hi = lo + maxRepeat
		}
	}
	n := lo + g.r.IntN(hi-lo+1)
	for i := 0; i < n; i++ {
		g.regexp(b, re.Sub[0])
	}
}

// classRune picks a rune of a character class (pairs of lo, hi),
// preferring printable ASCII.
func (g *gen) classRune(ranges []rune) rune {
	var ascii [][2]rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := max(ranges[i], '!'), min(ranges[i+1], '~')
		if lo <= hi {
			ascii = append(ascii, [2]rune{lo, hi})
		}
	}
	if len(ascii) > 0 {
		r := ascii[g.r.IntN(len(ascii))]
		return r[0] + rune(g.r.IntN(int(r[1]-r[0])+1))
	}
	if len(ranges) < 2 {
		return 'a'
	}
	i := 2 * g.r.IntN(len(ranges)/2)
	return ranges[i] + rune(g.r.IntN(int(min(ranges[i+1]-ranges[i], 64))+1))
}

// FromPattern returns a string the regular expression matches, built from
// its syntax tree (as a pattern keyword's strings are); false when none
// was found in a few tries or the expression does not compile. Probes of
// a CEL rule's matches() use it.
func FromPattern(pattern string, r *rand.Rand) (string, bool) {
	g := &gen{r: r}
	v, ok := g.fromPattern(pattern, func(string) bool { return true })
	s, _ := v.(string)
	return s, ok
}
