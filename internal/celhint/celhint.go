// Package celhint reads what a CEL validation rule (x-kubernetes-validations)
// says about the values that pass or fail it, from the rule's syntax
// alone: the fields it reads, the literals it compares them with, the
// functions it applies to them (startsWith, matches, isURL, quantity, ...)
// and the fields it compares with each other. Generators of example and
// probe objects use it to build values at a rule's boundary: a rule is
// never run here, and a hint is a guess the engine then checks.
//
// Paths are relative to the rule's node (self): property names, and "*"
// for any item of a list or value of a map (the variable of self.all(x,
// ...), self.exists(...), ...).
package celhint

import (
	"slices"
	"strings"

	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/parser"
)

// Path is a field path below a rule's node; "*" is any list item or map
// value.
type Path []string

// String writes the path with dots ("" for the node itself).
func (p Path) String() string { return strings.Join(p, ".") }

// Hints are what one rule says about the values it accepts.
type Hints struct {
	// Fields are the fields the rule reads or tests with has(), in the
	// order it mentions them, without duplicates.
	Fields []Path
	// Values are literals a field is compared with (==, !=, <, <=, >, >=,
	// in a list), and for a size() comparison the size (Size set).
	Values []Value
	// Calls are the functions the rule applies to a field.
	Calls []Call
	// Same are the pairs of fields the rule compares with each other.
	Same [][2]Path
	// Strings and Numbers are every string and number literal of the rule.
	Strings []string
	Numbers []float64
	// Ranges are the fields one-variable comprehensions range over
	// (self.all(x, ...)), without duplicates: the variable is a list's
	// item, or a map's key; its path is the range's with "*" added.
	Ranges []Path
}

// Value is a literal a field is compared with.
type Value struct {
	Path  Path
	Value any // string, int64, float64 or bool
	// Size is set when the literal is compared with the field's size().
	Size bool
}

// Call is a function applied to a field (as the receiver or the first
// argument, through string(), int(), ... conversions), with its literal
// arguments: startsWith, endsWith, contains, matches, split, isURL, url,
// quantity, isQuantity, ip, isIP, cidr, isCIDR, duration, ... For a
// function applied to one part of the field split at Sep
// (self.split('@')[1].matches(...)), Part is the part's index (else -1).
type Call struct {
	Path Path
	Func string
	Args []any
	Sep  string
	Part int
}

// Parse reads a rule's hints; false when the rule does not parse.
func Parse(rule string) (Hints, bool) {
	p, err := parser.NewParser(parser.Macros(parser.AllMacros...), parser.EnableOptionalSyntax(true))
	if err != nil {
		return Hints{}, false
	}
	a, errs := p.Parse(common.NewTextSource(rule))
	if errs != nil && len(errs.GetErrors()) > 0 {
		return Hints{}, false
	}
	w := walker{vars: map[string]Path{"self": {}}}
	w.expr(a.Expr())
	return w.h, true
}

// ParseAll is the hints of each rule that parses (Parse), in order: what
// Variants, RangeVariants, ItemEnumVariants and EditVariants take, parsed
// once for all four.
func ParseAll(rules []string) []Hints {
	var out []Hints
	for _, rule := range rules {
		if h, ok := Parse(rule); ok {
			out = append(out, h)
		}
	}
	return out
}

// walker collects hints, resolving iteration variables to paths.
type walker struct {
	h    Hints
	vars map[string]Path
}

// conversions are the functions that keep their argument's identity for
// the hints (string(self).startsWith(...) is about self).
var conversions = map[string]bool{"string": true, "bytes": true, "int": true, "uint": true, "double": true, "dyn": true, "lowerAscii": true, "upperAscii": true, "trim": true}

// path resolves an expression to the field path it reads.
func (w *walker) path(e ast.Expr) (Path, bool) {
	switch e.Kind() {
	case ast.IdentKind:
		p, ok := w.vars[e.AsIdent()]
		return p, ok
	case ast.SelectKind:
		s := e.AsSelect()
		p, ok := w.path(s.Operand())
		if !ok {
			return nil, false
		}
		return p.child(s.FieldName()), true
	case ast.CallKind:
		return w.callPath(e.AsCall())
	}
	return nil, false
}

// callPath resolves a conversion or an index to a path.
func (w *walker) callPath(c ast.CallExpr) (Path, bool) {
	args := c.Args()
	switch {
	case conversions[c.FunctionName()] && !c.IsMemberFunction() && len(args) == 1:
		return w.path(args[0])
	case conversions[c.FunctionName()] && c.IsMemberFunction() && len(args) == 0:
		return w.path(c.Target())
	case c.FunctionName() == "_[_]" && len(args) == 2:
		p, ok := w.path(args[0])
		if !ok {
			return nil, false
		}
		if s, isString := literalOf(args[1]).(string); isString {
			return p.child(s), true
		}
		return p.child("*"), true
	}
	return nil, false
}

func (p Path) child(name string) Path {
	out := make(Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, name)
}

// literalOf is a literal's Go value (string, int64, float64, bool), nil
// for any other expression.
func literalOf(e ast.Expr) any {
	if e.Kind() != ast.LiteralKind {
		return nil
	}
	switch v := e.AsLiteral().(type) {
	case types.String:
		return string(v)
	case types.Int:
		return int64(v)
	case types.Uint:
		return int64(v)
	case types.Double:
		return float64(v)
	case types.Bool:
		return bool(v)
	}
	return nil
}

// expr walks an expression.
func (w *walker) expr(e ast.Expr) {
	switch e.Kind() {
	case ast.LiteralKind:
		w.literal(literalOf(e))
	case ast.SelectKind:
		if p, ok := w.path(e); ok {
			w.field(p)
			return
		}
		w.expr(e.AsSelect().Operand())
	case ast.CallKind:
		w.call(e.AsCall())
	case ast.ListKind:
		for _, el := range e.AsList().Elements() {
			w.expr(el)
		}
	case ast.MapKind:
		for _, en := range e.AsMap().Entries() {
			if en.Kind() == ast.MapEntryKind {
				w.expr(en.AsMapEntry().Key())
				w.expr(en.AsMapEntry().Value())
			}
		}
	case ast.ComprehensionKind:
		w.comprehension(e.AsComprehension())
	}
}

// literal records a string or number literal.
func (w *walker) literal(v any) {
	switch v := v.(type) {
	case string:
		w.h.Strings = append(w.h.Strings, v)
	case int64:
		w.h.Numbers = append(w.h.Numbers, float64(v))
	case float64:
		w.h.Numbers = append(w.h.Numbers, v)
	}
}

// field records a field the rule reads.
func (w *walker) field(p Path) { w.h.Fields = addPath(w.h.Fields, p) }

// addPath is ps with p appended, unless ps holds it already.
func addPath(ps []Path, p Path) []Path {
	if slices.ContainsFunc(ps, func(q Path) bool { return q.String() == p.String() }) {
		return ps
	}
	return append(ps, p)
}

// comprehension binds the iteration variable to the items of the range
// while walking the loop.
func (w *walker) comprehension(c ast.ComprehensionExpr) {
	w.expr(c.IterRange())
	p, ok := w.path(c.IterRange())
	if !ok {
		w.expr(c.LoopStep())
		w.expr(c.Result())
		return
	}
	saved := make(map[string]Path, len(w.vars)+1)
	for k, v := range w.vars {
		saved[k] = v
	}
	// The second variable of a two-variable comprehension is the value;
	// the first is then the index or key.
	name := c.IterVar()
	if c.HasIterVar2() {
		name = c.IterVar2()
	} else {
		w.h.Ranges = addPath(w.h.Ranges, p)
	}
	w.vars[name] = p.child("*")
	w.expr(c.LoopStep())
	w.expr(c.Result())
	w.vars = saved
}
