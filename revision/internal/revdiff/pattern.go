package revdiff

import (
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A pattern's language, as the apiserver tests it (Go's regexp,
// MatchString: a match anywhere in the string), explored as an automaton:
// the programs of two patterns run side by side on every string, shortest
// first, one representative rune for each class of runes no instruction
// of either tells apart. That decides, within a budget, whether some
// string one pattern matches the other does not, and gives the shortest
// such string, of a length in a range (minLength, maxLength).

// patternAnswer is what a search decides.
type patternAnswer int

const (
	// patternUnknown: the budget ran out, or a pattern does not compile
	// or folds case (its rune classes are not exact then).
	patternUnknown patternAnswer = iota
	// patternNone: no string of the range is matched by the first pattern
	// and not by the second.
	patternNone
	// patternFound: the witness is one.
	patternFound
)

// patternBudget bounds the steps of a search (a state's program states
// after one rune).
const patternBudget = 200000

// maxRepresentatives bounds the rune classes a search tries.
const maxRepresentatives = 256

// The UTF-16 surrogates, runes no valid string holds.
const (
	surrogateMin = 0xD800
	surrogateMax = 0xDFFF
)

// patternVisits bounds the instructions a search's closures follow: a
// step costs as much as the program's empty transitions, thousands for
// (a?){1000}a{1000} (TestPatternWitness holds that case to unknown; before
// this bound it ran ~12 s of CPU within patternBudget, measured by hand in
// session 11, as was the ~0.5 s the bound allows and the 56,654 visits the
// most demanding real or made-up pair needed: no test shows the timings).
const patternVisits = 5000000

// prog is one pattern's program; nil matches every string (no pattern)
// or, as the second of a search, none. visits counts the instructions its
// closures have followed. mark, stack and runes are a closure's, kept
// for the next: mark[pc] == gen when the current closure has reached pc.
type prog struct {
	p      *syntax.Prog
	visits int
	mark   []uint32
	gen    uint32
	stack  []uint32
	runes  []uint32
}

// compilePattern compiles a pattern as regexp.Compile does; false when it
// does not compile or folds case.
func compilePattern(pattern string) (*prog, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, false
	}
	p, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, false
	}
	for _, in := range p.Inst {
		if (in.Op == syntax.InstRune || in.Op == syntax.InstRune1) && syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
			return nil, false
		}
	}
	return &prog{p: p}, true
}

// runState is where one program is after a prefix: the instructions
// waiting for the next rune (sorted), and whether a match has ended
// already (then every extension matches).
type runState struct {
	pcs     []uint32
	matched bool
}

// closure follows the empty transitions from s's instructions and the
// program's start (a match may begin anywhere) in context ctx: the
// instructions that consume a rune (valid until the next closure), and
// whether a match ends here.
func (p *prog) closure(s runState, ctx syntax.EmptyOp) ([]uint32, bool) {
	if p.mark == nil {
		p.mark = make([]uint32, len(p.p.Inst))
	}
	p.gen++
	runes := p.runes[:0]
	matched := false
	seen := 0
	stack := append(append(p.stack[:0], s.pcs...), uint32(p.p.Start))
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p.mark[pc] == p.gen {
			continue
		}
		p.mark[pc] = p.gen
		seen++
		in := &p.p.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, in.Out, in.Arg)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, in.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&^ctx == 0 {
				stack = append(stack, in.Out)
			}
		case syntax.InstMatch:
			matched = true
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			runes = append(runes, pc)
		}
	}
	p.stack, p.runes = stack, runes
	p.visits += seen
	return runes, matched
}

// step is s after rune c, prev the rune before it (-1 at the start).
func (p *prog) step(s runState, prev, c rune) runState {
	if p == nil || s.matched {
		return s
	}
	runes, matched := p.closure(s, syntax.EmptyOpContext(prev, c))
	if matched {
		return runState{matched: true}
	}
	var next []uint32
	for _, pc := range runes {
		if in := &p.p.Inst[pc]; consumes(in, c) && !slices.Contains(next, in.Out) {
			next = append(next, in.Out)
		}
	}
	slices.Sort(next)
	return runState{pcs: next}
}

// consumes reports whether rune instruction in matches c.
func consumes(in *syntax.Inst, c rune) bool {
	switch in.Op {
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return c != '\n'
	}
	return in.MatchRune(c)
}

// accepts reports whether the string that led to s matches (prev its
// last rune, -1 when empty); a nil program matches when every is set.
func (p *prog) accepts(s runState, prev rune, every bool) bool {
	if p == nil {
		return every
	}
	if s.matched {
		return true
	}
	_, matched := p.closure(s, syntax.EmptyOpContext(prev, -1))
	return matched
}

// representatives are one rune of each class of runes that no rune
// instruction of the programs, and no empty-width context (newline, word
// character), tells apart; false when there are too many.
func representatives(ps ...*prog) ([]rune, bool) {
	cuts := []rune{0, '\n', '\n' + 1, '0', '9' + 1, 'A', 'Z' + 1, '_', '_' + 1, 'a', 'z' + 1, utf8.MaxRune + 1}
	for _, p := range ps {
		if p == nil {
			continue
		}
		for _, in := range p.p.Inst {
			if in.Op != syntax.InstRune && in.Op != syntax.InstRune1 {
				continue
			}
			rs := in.Rune
			if len(rs) == 1 {
				rs = []rune{rs[0], rs[0]}
			}
			for i := 0; i+1 < len(rs); i += 2 {
				cuts = append(cuts, rs[i], rs[i+1]+1)
			}
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	if len(cuts) > maxRepresentatives {
		return nil, false
	}
	out := make([]rune, 0, len(cuts)-1)
	for i := 0; i+1 < len(cuts); i++ {
		if c, ok := pick(cuts[i], cuts[i+1]); ok {
			out = append(out, c)
		}
	}
	// Letters and digits first, then printable ASCII: the shortest
	// witness found first reads well.
	slices.SortStableFunc(out, func(x, y rune) int { return readability(x) - readability(y) })
	return out, true
}

// readability orders runes for witnesses: ASCII letters and digits, other
// printable ASCII, the rest.
func readability(r rune) int {
	switch {
	case r < utf8.RuneSelf && syntax.IsWordChar(r):
		return 0
	case r > ' ' && r < 0x7f:
		return 1
	}
	return 2
}

// pick is a readable rune of [lo, hi): a letter or digit when there is
// one, else lo. No string holds a surrogate (a JSON string decodes one to
// U+FFFD): a class of surrogates only has none (false), one that reaches
// past them a rune after them.
func pick(lo, hi rune) (rune, bool) {
	for _, c := range []rune{'a', 'x', '0', 'A', '-', '.'} {
		if lo <= c && c < hi {
			return c, true
		}
	}
	if lo >= surrogateMin && lo <= surrogateMax {
		lo = surrogateMax + 1
	}
	return lo, lo < hi
}

// searchState is a node of a search: both programs' states, the last
// rune's class and the length so far (capped).
type searchState struct {
	a, b  runState
	prev  rune
	depth int
	text  string
}

// key identifies a state for the search (the rune itself does not
// matter, only its class for the next empty-width context).
func (s *searchState) key() string {
	var sb strings.Builder
	for _, st := range []runState{s.a, s.b} {
		sb.WriteString(strconv.FormatBool(st.matched))
		for _, pc := range st.pcs {
			sb.WriteByte(',')
			sb.WriteString(strconv.FormatUint(uint64(pc), 10))
		}
		sb.WriteByte('|')
	}
	sb.WriteString(contextClass(s.prev))
	sb.WriteString(strconv.Itoa(s.depth))
	return sb.String()
}

// contextClass is what empty-width assertions see of a previous rune.
func contextClass(r rune) string {
	switch {
	case r < 0:
		return "^"
	case r == '\n':
		return "n"
	case syntax.IsWordChar(r):
		return "w"
	}
	return "o"
}

// compilePair compiles a and b ("": nil) and their representative runes;
// false when either does not compile or there are too many classes.
func compilePair(a, b string) (pa, pb *prog, reps []rune, ok bool) {
	ok = true
	if a != "" {
		pa, ok = compilePattern(a)
	}
	if ok && b != "" {
		pb, ok = compilePattern(b)
	}
	if !ok {
		return nil, nil, nil, false
	}
	reps, ok = representatives(pa, pb)
	return pa, pb, reps, ok
}

// patternWitness searches the shortest string of minLen to maxLen runes
// (maxLen < 0: no bound) that pattern a matches and pattern b does not
// ("" for a: any string; "" for b: none).
func patternWitness(a, b string, minLen, maxLen int) (string, patternAnswer) {
	pa, pb, reps, ok := compilePair(a, b)
	if !ok {
		return "", patternUnknown
	}
	// Lengths are told apart up to minLen only: past it, a state first
	// reached at the shortest length is the one to extend (BFS), and the
	// maxLen cut applies to that length. (maxLen+1 here overflowed for a
	// maxLength of MaxInt64 and merged every length: a false "none".)
	limit := minLen
	queue := []*searchState{{prev: -1}}
	seen := map[string]bool{queue[0].key(): true}
	steps := 0
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		n := utf8.RuneCountInString(s.text)
		if n >= minLen && (maxLen < 0 || n <= maxLen) && pa.accepts(s.a, s.prev, true) && !pb.accepts(s.b, s.prev, false) {
			return s.text, patternFound
		}
		if maxLen >= 0 && n >= maxLen {
			continue
		}
		if steps += len(reps); steps > patternBudget {
			return "", patternUnknown
		}
		for _, c := range reps {
			next := &searchState{a: pa.step(s.a, s.prev, c), b: pb.step(s.b, s.prev, c), prev: c, depth: min(s.depth+1, limit)}
			if k := next.key(); !seen[k] {
				seen[k] = true
				next.text = s.text + string(c)
				queue = append(queue, next)
			}
			if visits(pa, pb) > patternVisits {
				return "", patternUnknown
			}
		}
	}
	return "", patternNone
}

// visits are the instructions the programs' closures have followed.
func visits(ps ...*prog) int {
	n := 0
	for _, p := range ps {
		if p != nil {
			n += p.visits
		}
	}
	return n
}
