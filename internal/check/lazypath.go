package check

import "k8s.io/apimachinery/pkg/util/validation/field"

// lazyPath is the field path of the schema node being visited at a depth
// of the walk, built only when an error needs it: almost every node of a
// schema has no error, and building a field.Path for each one was a large
// share of the walk's allocations. The steps from the root live in the
// walker (a stack, so that no frame's address is kept), which makes a
// lazyPath valid while its node or a node below it is being visited.
// The zero lazyPath is "no path".
type lazyPath struct {
	w     *walker
	depth int
}

// pathStep is one step from a node to a child: .name, then [key] when
// hasKey, then [index] when index >= 0.
type pathStep struct {
	name   string
	key    string
	hasKey bool
	index  int
}

// isSet reports whether l is a path rather than the zero lazyPath.
func (l lazyPath) isSet() bool { return l.w != nil }

// path returns the field path, building it (and its parents') once.
func (l lazyPath) path() *field.Path {
	w := l.w
	if p := w.pathMemo[l.depth]; p != nil {
		return p
	}
	st := w.pathSteps[l.depth-1]
	p := lazyPath{w, l.depth - 1}.path().Child(st.name)
	if st.hasKey {
		p = p.Key(st.key)
	}
	if st.index >= 0 {
		p = p.Index(st.index)
	}
	w.pathMemo[l.depth] = p
	return p
}

// rootPath starts the path stack at root.
func (w *walker) rootPath(root *field.Path) lazyPath {
	w.pathSteps = w.pathSteps[:0]
	w.pathMemo = append(w.pathMemo[:0], root)
	return lazyPath{w, 0}
}

// push returns the path one step below parent, replacing whatever path
// was visited below parent before.
func (w *walker) push(parent lazyPath, st pathStep) lazyPath {
	d := parent.depth + 1
	w.pathSteps = append(w.pathSteps[:parent.depth], st)
	w.pathMemo = append(w.pathMemo[:d], nil)
	return lazyPath{w, d}
}
