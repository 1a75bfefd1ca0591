package prune

import (
	"strings"

	"github.com/crdschema/crdschema/structural"
)

// Suggest answers "did you mean" for an unknown field: given path, a field
// Prune removed from an object under s (written as Prune writes it: keys
// joined by ".", list indices as "[i]"), it returns the path of the field
// declared beside it whose name is closest to the unknown name, when that
// name is close enough to be a likely misspelling: "spec.replicas" for
// "spec.replica". "" when no declared sibling is that close, or when path
// does not lead through s.
//
// Close enough is an edit distance (insertions, deletions, substitutions
// and swaps of two neighbouring letters, letter case ignored but counted
// once) of at most 1 for a name of up to 7 letters, 2 up to 11 letters and
// 3 beyond. Among equally close names, the one sharing the longest prefix
// with the unknown name wins, then the first in sorted order.
// resourceRoot says s is the schema of a whole resource, whose apiVersion,
// kind and metadata are declared implicitly (also at every
// x-kubernetes-embedded-resource node).
func Suggest(s *structural.Schema, path string, resourceRoot bool) string {
	if s == nil && resourceRoot {
		s = &structural.Schema{}
	}
	if s == nil || path == "" {
		return ""
	}
	sg := suggester{path: path, failed: map[suggestState]bool{}}
	return sg.under(s, 0, resourceRoot)
}

// suggester reads one unknown field's path through a schema. A key may
// itself hold "." or "[", so where a key ends is tried at every separator,
// backtracking; failed remembers the (node, offset) pairs that led to no
// suggestion, so that a path of n separators costs at most n tries per
// schema node.
type suggester struct {
	path   string
	failed map[suggestState]bool
}

type suggestState struct {
	node   *structural.Schema
	offset int
}

// under returns the suggestion for the path from offset on, the part of
// the unknown field's path below the node s; "" when there is none.
func (sg *suggester) under(s *structural.Schema, offset int, embedded bool) string {
	st := suggestState{s, offset}
	if sg.failed[st] {
		return ""
	}
	got := sg.search(s, offset, embedded)
	if got == "" {
		sg.failed[st] = true
	}
	return got
}

func (sg *suggester) search(s *structural.Schema, offset int, embedded bool) string {
	rest := sg.path[offset:]
	if strings.HasPrefix(rest, "[") {
		return sg.item(s, offset)
	}
	// Descend through every declared field the key could end at; take the
	// whole rest as the unknown name when no descent finds a suggestion.
	for i := 0; i < len(rest); i++ {
		if rest[i] != '.' && rest[i] != '[' {
			continue
		}
		child := s.Field(rest[:i])
		if child == nil {
			continue
		}
		next := offset + i
		if rest[i] == '.' {
			next++
		}
		if got := sg.under(child, next, child.EmbeddedResource); got != "" {
			return got
		}
	}
	best := closest(s, rest, embedded)
	if best == "" {
		return ""
	}
	return sg.path[:offset] + best
}

// item reads a list index at offset and goes on in the items' schema.
func (sg *suggester) item(s *structural.Schema, offset int) string {
	rest := sg.path[offset:]
	end := strings.IndexByte(rest, ']')
	if end < 2 || s.Items == nil || strings.Trim(rest[1:end], "0123456789") != "" {
		return ""
	}
	if !strings.HasPrefix(rest[end+1:], ".") {
		return "" // an item is not a field; nested lists are not reported
	}
	return sg.under(s.Items, offset+end+2, s.Items.EmbeddedResource)
}

// closest returns the declared field of s nearest to name within the
// distance allowed for it, or "".
func closest(s *structural.Schema, name string, embedded bool) string {
	limit := suggestLimit(len(name))
	best, bestDist, bestPrefix := "", limit+1, -1
	consider := func(c string) {
		if c == name || abs(len(c)-len(name)) > limit {
			return // the distance is at least the difference in length
		}
		d := editDistance(name, c)
		if d > limit {
			return
		}
		p := commonPrefix(name, c)
		if closer(d, p, c, bestDist, bestPrefix, best) {
			best, bestDist, bestPrefix = c, d, p
		}
	}
	for k := range s.Properties {
		consider(k)
	}
	if embedded {
		for _, k := range [...]string{"apiVersion", "kind", "metadata"} {
			if _, declared := s.Properties[k]; !declared {
				consider(k)
			}
		}
	}
	return best
}

// closer reports whether candidate c, at distance d sharing a prefix of
// p letters with the unknown name, beats the best one so far.
func closer(d, p int, c string, bestDist, bestPrefix int, best string) bool {
	if d != bestDist {
		return d < bestDist
	}
	if p != bestPrefix {
		return p > bestPrefix
	}
	return c < best
}

// suggestLimit is the largest edit distance at which a name of n letters
// is still taken for a misspelling.
func suggestLimit(n int) int {
	switch {
	case n <= 7:
		return 1
	case n <= 11:
		return 2
	}
	return 3
}

// commonPrefix is the length of the longest common prefix of a and b,
// letter case ignored.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && lower(a[n]) == lower(b[n]) {
		n++
	}
	return n
}

// editDistance is the optimal string alignment distance of a and b
// (insertions, deletions, substitutions, swaps of neighbours), comparing
// bytes with letter case ignored; two names that differ only in case are
// at distance 1.
func editDistance(a, b string) int {
	// Three rows of the dynamic programme: two back, one back, current.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if lower(a[i-1]) == lower(b[j-1]) {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && lower(a[i-1]) == lower(b[j-2]) && lower(a[i-2]) == lower(b[j-1]) {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	d := prev[len(b)]
	if d == 0 && a != b {
		return 1
	}
	return d
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
