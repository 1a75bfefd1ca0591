package celhint

import (
	"fmt"

	"github.com/google/cel-go/common/ast"
)

// comparisons are the operators a field may be compared with a literal by.
var comparisons = map[string]bool{"_==_": true, "_!=_": true, "_<_": true, "_<=_": true, "_>_": true, "_>=_": true}

// call records what a call says, then walks its operands.
func (w *walker) call(c ast.CallExpr) {
	args := c.Args()
	switch name := c.FunctionName(); {
	case comparisons[name] && len(args) == 2:
		w.compare(args[0], args[1])
	case name == "@in" && len(args) == 2:
		w.in(args[0], args[1])
	default:
		w.apply(c)
	}
	if t := c.Target(); t != nil {
		w.expr(t)
	}
	for _, a := range args {
		w.expr(a)
	}
}

// compare records a field compared with a literal, with its size, or
// with another field.
func (w *walker) compare(a, b ast.Expr) {
	if w.compareSides(a, b) {
		return
	}
	w.compareSides(b, a)
}

// compareSides records a comparison read as field op literal (or field
// op field); false when a is not a field or its size.
func (w *walker) compareSides(a, b ast.Expr) bool {
	lit := literalOf(b)
	if p, ok := w.path(a); ok {
		if q, ok := w.path(b); ok {
			w.h.Same = append(w.h.Same, [2]Path{p, q})
			return true
		}
		if lit != nil {
			w.h.Values = append(w.h.Values, Value{Path: p, Value: lit})
			return true
		}
		return false
	}
	if p, ok := w.sizeOf(a); ok && lit != nil {
		w.h.Values = append(w.h.Values, Value{Path: p, Value: lit, Size: true})
		return true
	}
	return false
}

// sizeOf resolves size(f) and f.size() to f.
func (w *walker) sizeOf(e ast.Expr) (Path, bool) {
	if e.Kind() != ast.CallKind {
		return nil, false
	}
	c := e.AsCall()
	if c.FunctionName() != "size" {
		return nil, false
	}
	if c.IsMemberFunction() && len(c.Args()) == 0 {
		return w.path(c.Target())
	}
	if len(c.Args()) == 1 {
		return w.path(c.Args()[0])
	}
	return nil, false
}

// in records f in [literals] and 'key' in f.
func (w *walker) in(elem, set ast.Expr) {
	if p, ok := w.path(elem); ok && set.Kind() == ast.ListKind {
		for _, el := range set.AsList().Elements() {
			if lit := literalOf(el); lit != nil {
				w.h.Values = append(w.h.Values, Value{Path: p, Value: lit})
			}
		}
		return
	}
	if p, ok := w.path(set); ok {
		if key, isString := literalOf(elem).(string); isString {
			w.addCall(Call{Path: p, Func: "hasKey", Args: []any{key}, Part: -1})
		}
	}
}

// edits are the conversions that change a string (lowerAscii,
// upperAscii, trim): read through like the others, and recorded as calls
// on the field itself too, for EditVariants.
var edits = map[string]bool{"lowerAscii": true, "upperAscii": true, "trim": true}

// apply records a function applied to a field (as receiver, or as the
// first argument of a global function), or to one part of its split.
func (w *walker) apply(c ast.CallExpr) {
	name := c.FunctionName()
	if edits[name] && c.IsMemberFunction() && len(c.Args()) == 0 {
		if p, ok := w.path(c.Target()); ok {
			w.addCall(Call{Path: p, Func: name, Part: -1})
		}
		return
	}
	if conversions[name] || name == "size" || (len(name) > 0 && (name[0] == '_' || name[0] == '@' || name[0] == '!')) {
		return
	}
	args := c.Args()
	var on ast.Expr
	rest := args
	if c.IsMemberFunction() {
		on = c.Target()
	} else if len(args) > 0 {
		on, rest = args[0], args[1:]
	}
	if on == nil {
		return
	}
	if p, ok := w.path(on); ok {
		w.addCall(Call{Path: p, Func: name, Args: literals(rest), Part: -1})
		return
	}
	if p, sep, part, ok := w.splitPart(on); ok {
		w.addCall(Call{Path: p, Func: name, Args: literals(rest), Sep: sep, Part: part})
	}
}

// addCall records a call once.
func (w *walker) addCall(c Call) {
	for _, d := range w.h.Calls {
		if d.Path.String() == c.Path.String() && d.Func == c.Func && d.Sep == c.Sep && d.Part == c.Part && fmt.Sprint(d.Args) == fmt.Sprint(c.Args) {
			return
		}
	}
	w.h.Calls = append(w.h.Calls, c)
}

// splitPart resolves f.split('sep')[i] to f, sep and i.
func (w *walker) splitPart(e ast.Expr) (Path, string, int, bool) {
	if e.Kind() != ast.CallKind || e.AsCall().FunctionName() != "_[_]" || len(e.AsCall().Args()) != 2 {
		return nil, "", 0, false
	}
	idx, ok := literalOf(e.AsCall().Args()[1]).(int64)
	split := e.AsCall().Args()[0]
	if !ok || split.Kind() != ast.CallKind {
		return nil, "", 0, false
	}
	s := split.AsCall()
	if s.FunctionName() != "split" || !s.IsMemberFunction() || len(s.Args()) < 1 {
		return nil, "", 0, false
	}
	sep, ok := literalOf(s.Args()[0]).(string)
	p, isPath := w.path(s.Target())
	if !ok || !isPath {
		return nil, "", 0, false
	}
	return p, sep, int(idx), true
}

// literals are the literal arguments among es.
func literals(es []ast.Expr) []any {
	var out []any
	for _, e := range es {
		if l := literalOf(e); l != nil {
			out = append(out, l)
		}
	}
	return out
}
