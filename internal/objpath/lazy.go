// Package lazypath gives a recursive schema walk the field.Path of the node
// it visits, built only when an error needs it: almost no node of a schema
// has an error, and building a field.Path for every node was most of the
// walks' allocations. The steps from the root live on a Stack (a slice,
// so no frame's address is kept); a Path is valid while its node, or a node
// below it, is being visited.
package lazypath

import "k8s.io/apimachinery/pkg/util/validation/field"

// Step is one step from a node to a child: .Name, then [Key] when HasKey,
// then [Index] when HasIndex.
type Step struct {
	Name     string
	Key      string
	HasKey   bool
	Index    int
	HasIndex bool
}

// Child is the step .name.
func Child(name string) Step { return Step{Name: name} }

// Keyed is the step .name[key].
func Keyed(name, key string) Step { return Step{Name: name, Key: key, HasKey: true} }

// Indexed is the step .name[i].
func Indexed(name string, i int) Step { return Step{Name: name, Index: i, HasIndex: true} }

// Stack holds the steps of the walk and the paths built so far. The zero
// Stack is ready to use; a walk reuses it from one Root to the next.
type Stack struct {
	steps []Step
	memo  []*field.Path
}

// Path is the path of the node at a depth of a Stack. The zero Path is "no
// path" (IsSet reports false).
type Path struct {
	s     *Stack
	depth int
}

// Root starts the stack at root, dropping whatever was on it.
func (s *Stack) Root(root *field.Path) Path {
	s.steps = s.steps[:0]
	s.memo = append(s.memo[:0], root)
	return Path{s, 0}
}

// Push returns the path one step below p, replacing whatever path was
// visited below p before.
func (p Path) Push(st Step) Path {
	d := p.depth + 1
	p.s.steps = append(p.s.steps[:p.depth], st)
	p.s.memo = append(p.s.memo[:d], nil)
	return Path{p.s, d}
}

// IsSet reports whether p is a path rather than the zero Path.
func (p Path) IsSet() bool { return p.s != nil }

// Field returns the field path, building it (and its parents') once.
func (p Path) Field() *field.Path {
	if f := p.s.memo[p.depth]; f != nil || p.depth == 0 {
		return f
	}
	st := p.s.steps[p.depth-1]
	f := Path{p.s, p.depth - 1}.Field().Child(st.Name)
	if st.HasKey {
		f = f.Key(st.Key)
	}
	if st.HasIndex {
		f = f.Index(st.Index)
	}
	p.s.memo[p.depth] = f
	return f
}
