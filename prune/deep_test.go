package prune_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

// deepWide returns a schema nesting property n depth levels deep and an
// object following it with wide unknown fields u0, u1, ... at every level:
// the shape of ../shared/findings/hostile/02-deep-wide-obj.json, whose
// pruned paths once cost ~56 times their text in memory.
func deepWide(depth, wide int) (map[string]any, *structural.Schema) {
	s := &structural.Schema{Type: "string"}
	for i := 0; i < depth; i++ {
		s = &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{"n": s}}
	}
	obj := map[string]any{}
	cur := obj
	for i := 0; i < depth-1; i++ {
		next := map[string]any{}
		for j := 0; j < wide; j++ {
			cur[fmt.Sprintf("u%d", j)] = int64(1)
		}
		cur["n"] = next
		cur = next
	}
	return obj, s
}

// TestPruneDeepWidePaths checks the paths of a deep object with unknown
// fields at every level, and that each path element is allocated once: the
// allocations grow with the number of removed fields, not with the sum of
// their lengths.
func TestPruneDeepWidePaths(t *testing.T) {
	const depth, wide = 300, 3
	obj, s := deepWide(depth, wide)
	paths := prune.PrunePaths(obj, s, prune.Options{ReturnPaths: true})
	if want := (depth - 1) * wide; len(paths) != want {
		t.Fatalf("got %d paths, want %d", len(paths), want)
	}
	got := objpath.Strings(paths)
	if got[0] != "n.n.n."+strings.Repeat("n.", depth-5)+"u0" || got[len(got)-1] != "u2" {
		t.Errorf("first and last paths: %.40q ... %q", got[0], got[len(got)-1])
	}
	for i := 1; i < len(got); i++ {
		if got[i-1] >= got[i] {
			t.Fatalf("paths not sorted at %d: %q >= %q", i, got[i-1], got[i])
		}
	}
	for _, p := range paths[:5] {
		if v, ok := p.Lookup(mustDeepWide(depth, wide)); !ok || v != int64(1) {
			t.Errorf("%s: Lookup = %v, %v", p, v, ok)
		}
		if n := p.Len(); n != strings.Count(p.String(), ".")+1 {
			t.Errorf("%s: Len %d", p, n)
		}
	}
	// Memory: the rendered paths (which the caller gets) and a few words
	// per path and per level, less than twice the text. Paths copied
	// level by level cost 32 bytes per element: 16 times the text.
	text := 0
	for _, p := range got {
		text += len(p)
	}
	o, _ := deepWide(depth, wide)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	prune.Prune(o, s, prune.Options{ReturnPaths: true})
	runtime.ReadMemStats(&after)
	if used, limit := after.TotalAlloc-before.TotalAlloc, uint64(2*text); used > limit {
		t.Errorf("Prune allocated %d bytes for %d bytes of paths, want at most %d", used, text, limit)
	}
}

func mustDeepWide(depth, wide int) map[string]any {
	o, _ := deepWide(depth, wide)
	return o
}
