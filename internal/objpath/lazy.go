package objpath

// Lazy field paths for the schema walks: the field.Path of the node a
// recursive walk visits, built only when an error needs it: almost no node
// of a schema has an error, and building a field.Path for every node was
// most of the walks' allocations. The steps from the root live on a Stack
// (a slice, so no frame's address is kept); a Lazy is valid while its
// node, or a node below it, is being visited.

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

// ChildStep is the step .name.
func ChildStep(name string) Step { return Step{Name: name} }

// KeyedStep is the step .name[key].
func KeyedStep(name, key string) Step { return Step{Name: name, Key: key, HasKey: true} }

// IndexedStep is the step .name[i].
func IndexedStep(name string, i int) Step { return Step{Name: name, Index: i, HasIndex: true} }

// Stack holds the steps of the walk and the paths built so far. The zero
// Stack is ready to use; a walk reuses it from one Root to the next.
type Stack struct {
	steps []Step
	memo  []*field.Path
}

// Lazy is the field path of the node at a depth of a Stack. The zero Lazy
// is "no path" (IsSet reports false).
type Lazy struct {
	s     *Stack
	depth int
}

// Root starts the stack at root, dropping whatever was on it.
func (s *Stack) Root(root *field.Path) Lazy {
	s.steps = s.steps[:0]
	s.memo = append(s.memo[:0], root)
	return Lazy{s, 0}
}

// Push returns the path one step below p, replacing whatever path was
// visited below p before.
func (p Lazy) Push(st Step) Lazy {
	d := p.depth + 1
	p.s.steps = append(p.s.steps[:p.depth], st)
	p.s.memo = append(p.s.memo[:d], nil)
	return Lazy{p.s, d}
}

// IsSet reports whether p is a path rather than the zero Lazy.
func (p Lazy) IsSet() bool { return p.s != nil }

// Field returns the field path, building it (and its parents') once.
func (p Lazy) Field() *field.Path {
	if f := p.s.memo[p.depth]; f != nil || p.depth == 0 {
		return f
	}
	st := p.s.steps[p.depth-1]
	f := Lazy{p.s, p.depth - 1}.Field().Child(st.Name)
	if st.HasKey {
		f = f.Key(st.Key)
	}
	if st.HasIndex {
		f = f.Index(st.Index)
	}
	p.s.memo[p.depth] = f
	return f
}
