package diff

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crdschema/crdschema/conformance/gen"
)

// reduce returns a copy of b with only the document key ("file#doc") as its
// one case and, for --crd batches, only the CRDs of that object's group (all
// of them when none matches). Key "*" keeps the whole batch.
func reduce(b *gen.Batch, key string) *gen.Batch {
	file, docStr, _ := strings.Cut(key, "#")
	var doc int
	if _, err := fmt.Sscan(docStr, &doc); err != nil || key == "*" {
		return b
	}
	var in *gen.Input
	for _, c := range b.Cases {
		if c.FileName() == file {
			in = c
		}
	}
	if in == nil || doc >= len(in.Docs) {
		return b
	}
	r := &gen.Batch{Verb: b.Verb, Schema: b.Schema, Old: b.Old, Status: b.Status}
	one := &gen.Input{Name: in.Name, Docs: []any{deepCopy(in.Docs[doc])}, JSON: in.JSON, List: in.List}
	r.Cases = []*gen.Input{one}
	if len(b.CRDs) > 0 {
		group := ""
		if m, ok := in.Docs[doc].(map[string]any); ok {
			if av, ok := m["apiVersion"].(string); ok {
				group, _, _ = strings.Cut(av, "/")
			}
		}
		for _, c := range b.CRDs {
			if crdGroup(c.Docs[0]) == group {
				r.CRDs = append(r.CRDs, c)
			}
		}
		if len(r.CRDs) == 0 {
			r.CRDs = b.CRDs
		}
	}
	return r
}

// crdGroup returns spec.group of a CRD document.
func crdGroup(d any) string {
	m, _ := d.(map[string]any)
	spec, _ := m["spec"].(map[string]any)
	g, _ := spec["group"].(string)
	return g
}

// deepCopy copies a JSON-like value.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = deepCopy(x)
		}
		return l
	}
	return v
}

// paths lists the paths (map keys and list indices) of every value below v,
// parents before children.
func paths(v any, prefix []any, out *[][]any) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			p := append(append([]any(nil), prefix...), k)
			*out = append(*out, p)
			paths(v[k], p, out)
		}
	case []any:
		for i := range v {
			p := append(append([]any(nil), prefix...), i)
			*out = append(*out, p)
			paths(v[i], p, out)
		}
	}
}

// without returns a copy of v with the value at path removed.
func without(v any, path []any) any {
	c := deepCopy(v)
	parent := c
	for _, s := range path[:len(path)-1] {
		switch p := parent.(type) {
		case map[string]any:
			parent = p[s.(string)]
		case []any:
			parent = p[s.(int)]
		}
	}
	last := path[len(path)-1]
	switch p := parent.(type) {
	case map[string]any:
		delete(p, last.(string))
	case []any:
		i := last.(int)
		// lists are replaced in their parent; rebuild via the grandparent
		nl := append(append([]any(nil), p[:i]...), p[i+1:]...)
		if len(path) == 1 {
			return nl
		}
		return replace(c, path[:len(path)-1], nl)
	}
	return c
}

// replace sets the value at path in v (already a copy) to x.
func replace(v any, path []any, x any) any {
	parent := v
	for _, s := range path[:len(path)-1] {
		switch p := parent.(type) {
		case map[string]any:
			parent = p[s.(string)]
		case []any:
			parent = p[s.(int)]
		}
	}
	switch p := parent.(type) {
	case map[string]any:
		p[path[len(path)-1].(string)] = x
	case []any:
		p[path[len(path)-1].(int)] = x
	}
	return v
}

// shrinkDoc greedily removes subtrees of *doc while keep holds, spending at
// most *budget calls of keep.
func shrinkDoc(doc *any, keep func() bool, budget *int) {
	for i := 0; *budget > 0; {
		var ps [][]any
		paths(*doc, nil, &ps)
		if i >= len(ps) {
			return
		}
		old := *doc
		*doc = without(old, ps[i])
		*budget--
		if !keep() {
			*doc = old
			i++
		}
	}
}

// minimize shrinks m's reproducer and writes it, with both outputs, to m.Dir.
func (o *Options) minimize(m *Mismatch, tmp string) error {
	b := m.repro
	n := 0
	try := func() bool {
		n++
		dir := filepath.Join(tmp, fmt.Sprintf("min-%d", n))
		defer os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return false
		}
		p, err := o.runBoth(b, dir)
		if err != nil {
			return false
		}
		ds, err := diffs(b.Verb, p)
		if err != nil {
			return false
		}
		for _, d := range ds {
			if d.Class == m.Class {
				return true
			}
		}
		return false
	}
	if !try() {
		// The mismatch needs the whole batch: keep it as it was.
		return o.writeRepro(m, m.full)
	}
	if len(b.Cases) != 1 {
		return o.writeRepro(m, b)
	}
	budget := o.Shrink
	shrinkDoc(&b.Cases[0].Docs[0], try, &budget)
	var ctx []*gen.Input
	if b.Schema != nil {
		ctx = append(ctx, b.Schema)
	}
	ctx = append(ctx, b.CRDs...)
	for i, c := range ctx {
		cp := &gen.Input{Name: c.Name, Docs: []any{deepCopy(c.Docs[0])}, JSON: c.JSON, List: c.List}
		if b.Schema != nil && i == 0 {
			b.Schema = cp
		} else {
			b.CRDs[i-boolInt(b.Schema != nil)] = cp
		}
		shrinkDoc(&cp.Docs[0], try, &budget)
	}
	return o.writeRepro(m, b)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeRepro writes b with both commands' outputs to m.Dir.
func (o *Options) writeRepro(m *Mismatch, b *gen.Batch) error {
	if err := os.MkdirAll(m.Dir, 0o755); err != nil {
		return err
	}
	p, err := o.runBoth(b, m.Dir)
	if err != nil {
		return err
	}
	ds, _ := diffs(b.Verb, p)
	var sb strings.Builder
	fmt.Fprintf(&sb, "class: %s\nexample: %s: %s\n\ndifferences in this reproducer:\n", m.Class, m.Example.Key, m.Example.Text)
	for _, d := range ds {
		fmt.Fprintf(&sb, "- %s: %s\n", d.Key, d.Text)
	}
	files := map[string][]byte{
		"args.txt":           []byte(strings.Join(p.args, "\n") + "\n"),
		"oracle.jsonl":       p.oracle.stdout,
		"crdschema.jsonl":    p.crdschema.stdout,
		"oracle.exit.txt":    fmt.Appendf(nil, "%d\n", p.oracle.exit),
		"crdschema.exit.txt": fmt.Appendf(nil, "%d\n", p.crdschema.exit),
		"NOTE.txt":           []byte(sb.String()),
	}
	if len(p.oracle.stderr) > 0 {
		files["oracle.stderr.txt"] = p.oracle.stderr
	}
	if len(p.crdschema.stderr) > 0 {
		files["crdschema.stderr.txt"] = p.crdschema.stderr
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(m.Dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
