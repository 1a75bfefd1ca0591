package crdschema

import (
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/celhint"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/internal/sample"
	"github.com/crdschema/crdschema/structural"
)

// maxSampleRepairs bounds the repair steps of one sample candidate.
const maxSampleRepairs = 32

// freshValues is how many new values of a field's schema a repair step
// tries.
const freshValues = 2

// accepted is obj when a create accepts it, else obj repaired until one
// does (false when the repairs run out). A repair step takes the first
// error the engine reports and tries, at its field and then at up to two
// of its ancestors: leaving the field out (when the schema allows it),
// new values of the field's schema, and the values at the boundary of the
// node's CEL rules (celhint.Variants: the literals they compare with,
// strings passing the functions they apply, the fields they read present
// and absent). The first candidate that fixes the error without adding
// errors is kept, else the first that fixes it.
func (s *Schema) accepted(obj map[string]any, r *rand.Rand) (map[string]any, bool) {
	res := s.Apply(obj)
	seen := map[string]bool{}
	for step := 0; ; step++ {
		if res.Object != nil && len(res.Errors) == 0 {
			return obj, true
		}
		if step == maxSampleRepairs || res.Object == nil {
			return nil, false
		}
		var ok bool
		if obj, res, ok = s.repairStep(obj, res.Errors, seen, r); !ok {
			return nil, false
		}
	}
}

// repairStep is one repair of obj's first error that a candidate fixes
// (fixAt), or of a root rule that names the object (renamed).
func (s *Schema) repairStep(obj map[string]any, errs field.ErrorList, seen map[string]bool, r *rand.Rand) (map[string]any, Result, bool) {
	seen[stateKey(obj)] = true
	for _, e := range errs {
		steps := errorSteps(e)
		at := locate(obj, s.s, steps)
		if len(at) == 0 {
			if named, res, ok := s.renamed(obj, seen); ok && repairScore(res.Errors) < repairScore(errs) {
				return named, res, true
			}
			continue
		}
		if fixed, res, ok := s.fixAt(obj, errs, e, steps, at, seen, r); ok {
			return fixed, res, true
		}
	}
	return nil, Result{}, false
}

// fixAt tries the candidates for error e at the levels at: the first
// that scores better (repairScore), else the first that fixes e adding
// errors only below the node it changed (values to repair next, top
// down). A state already seen is not tried again.
func (s *Schema) fixAt(obj map[string]any, errs field.ErrorList, e *field.Error, steps []string, at []level, seen map[string]bool, r *rand.Rand) (map[string]any, Result, bool) {
	score := repairScore(errs)
	var down map[string]any
	var downRes Result
	for _, c := range candidates(at, r) {
		cobj := edited(obj, at[c.depth:], c.value, c.remove)
		if seen[stateKey(cobj)] {
			continue // no state twice: repairs that undo each other
		}
		res := s.Apply(cobj)
		if res.Object == nil || repairScore(res.Errors) >= 1000 {
			continue
		}
		if repairScore(res.Errors) < score {
			return cobj, res, true
		}
		if down == nil && onlyBelow(res.Errors, errs, e, stepsPath(steps[:len(steps)-c.depth])) {
			down, downRes = cobj, res
		}
	}
	return down, downRes, down != nil
}

// renamed is obj named as a rule of the root requires: a singleton
// (self.metadata.name == 'cluster'), or a field that must hold the
// object's name (self.metadata.name == self.spec.pool.name, set to it).
func (s *Schema) renamed(obj map[string]any, seen map[string]bool) (map[string]any, Result, bool) {
	if s.s == nil || s.s.Source == nil {
		return nil, Result{}, false
	}
	for _, v := range s.s.Source.XValidations {
		h, _ := celhint.Parse(v.Rule)
		for _, out := range nameEdits(obj, h) {
			if !seen[stateKey(out)] {
				return out, s.Apply(out), true
			}
		}
	}
	return nil, Result{}, false
}

// nameEdits are copies of obj with metadata.name set to a literal a root
// rule compares it with, or with a field compared with it set to the name.
func nameEdits(obj map[string]any, h celhint.Hints) []map[string]any {
	name, _ := getPath(obj, []string{"metadata", "name"})
	var out []map[string]any
	for _, val := range h.Values {
		if lit, ok := val.Value.(string); ok && lit != "" && val.Path.String() == "metadata.name" {
			c := jsonvalue.DeepCopy(obj).(map[string]any)
			setPath(c, []string{"metadata", "name"}, lit)
			out = append(out, c)
		}
	}
	for _, pair := range h.Same {
		for i, p := range pair {
			if other := pair[1-i]; p.String() == "metadata.name" && name != nil && !slices.Contains(other, "*") {
				c := jsonvalue.DeepCopy(obj).(map[string]any)
				setPath(c, other, name)
				out = append(out, c)
			}
		}
	}
	return out
}

// getPath is the value at a path of property names in obj.
func getPath(obj map[string]any, path []string) (any, bool) {
	var v any = obj
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// setPath sets x at a path of property names in obj, making the objects
// on the way.
func setPath(obj map[string]any, path []string, x any) {
	m := obj
	for _, k := range path[:len(path)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[path[len(path)-1]] = x
}

// stateKey is obj's JSON, the key of a state the repairs have been in.
func stateKey(obj map[string]any) string {
	b, _ := json.Marshal(obj)
	return string(b)
}

// onlyBelow reports whether errs no longer hold target and every error
// not in before is below the field at path.
func onlyBelow(errs, before field.ErrorList, target *field.Error, path string) bool {
	same := func(a *field.Error) func(*field.Error) bool {
		return func(b *field.Error) bool { return a.Field == b.Field && a.Detail == b.Detail }
	}
	if slices.ContainsFunc(errs, same(target)) {
		return false
	}
	for _, e := range errs {
		if !slices.ContainsFunc(before, same(e)) && !strings.HasPrefix(e.Field, path+".") && !strings.HasPrefix(e.Field, path+"[") {
			return false
		}
	}
	return true
}

// stepsPath writes steps back as a field path.
func stepsPath(steps []string) string {
	var b strings.Builder
	for _, st := range steps {
		switch {
		case strings.HasPrefix(st, "["):
			b.WriteString(st + "]")
		case b.Len() > 0:
			b.WriteString("." + st)
		default:
			b.WriteString(st)
		}
	}
	return b.String()
}

// celNotRun is the detail of the error that says an object's schema
// errors kept its CEL rules from running.
const celNotRun = "some validation rules were not checked because the object was invalid"

// repairScore ranks a candidate's errors, lower is better: their count,
// and far worse while schema errors keep the CEL rules from running (their
// errors are unknown yet).
func repairScore(errs field.ErrorList) int {
	n := len(errs)
	if slices.ContainsFunc(errs, func(e *field.Error) bool { return strings.HasPrefix(e.Detail, celNotRun) }) {
		n += 1000
	}
	return n
}

// quotedPath finds the field of an error reported at the root (a oneOf
// error names it in its detail: "spec.a" must validate one and only one
// schema).
var quotedPath = regexp.MustCompile(`^"([^"]+)"`)

// errorSteps splits an error's field (spec.tasks[1].hooks[key-0]) into
// its steps as objpath.ParseField reads it (a key may hold dots:
// metadata.annotations[app.kubernetes.io/name]): property names, list
// indices and map keys ("[i]" steps marked by a leading '[').
func errorSteps(e *field.Error) []string {
	path := e.Field
	if path == "<nil>" || path == "" {
		m := quotedPath.FindStringSubmatch(e.Detail)
		if m == nil {
			return nil
		}
		path = m[1]
	}
	var out []string
	for _, el := range objpath.ParseField(path) {
		if el.IsKey() {
			out = append(out, "["+el.Name())
		} else {
			out = append(out, el.Name())
		}
	}
	return out
}

// level is one node on the way to an error's field: its value, its
// schema, and how to replace or remove it in its parent.
type level struct {
	value  any
	schema *structural.Schema
	// parent is the container holding value (nil at the root), key its
	// key (a map) or index (a list).
	parent any
	key    string
	index  int
	// removable is set when the schema lets the node be left out.
	removable bool
}

// locate walks obj and its schema along steps; the levels from the
// field's node up to the root's child (nil when a step is not there).
func locate(obj map[string]any, s *structural.Schema, steps []string) []level {
	var v any = obj
	var out []level
	for _, st := range steps {
		l, ok := child(v, s, st)
		if !ok {
			return nil
		}
		out = append(out, l)
		v, s = l.value, l.schema
	}
	slices.Reverse(out)
	if len(out) > 0 {
		out[len(out)-1].removable = false // spec, status: kept
	}
	return out
}

// child is the level of step st below v (schema s).
func child(v any, s *structural.Schema, st string) (level, bool) {
	if s == nil {
		return level{}, false
	}
	switch c := v.(type) {
	case map[string]any:
		key := strings.TrimPrefix(st, "[")
		x, ok := c[key]
		if !ok {
			return level{}, false
		}
		cs, optional := s.Properties[key], true
		switch {
		case cs != nil && s.Source != nil:
			optional = !slices.Contains(s.Source.Required, key)
		case cs == nil && s.AdditionalProperties != nil:
			cs = s.AdditionalProperties.Schema
		}
		minProps := int64(0)
		if s.Source != nil && s.Source.MinProperties != nil {
			minProps = *s.Source.MinProperties
		}
		return level{value: x, schema: cs, parent: c, key: key, removable: optional && int64(len(c)) > minProps}, cs != nil
	case []any:
		i, err := strconv.Atoi(strings.TrimPrefix(st, "["))
		if err != nil || i < 0 || i >= len(c) || s.Items == nil {
			return level{}, false
		}
		minItems := int64(0)
		if s.Source != nil && s.Source.MinItems != nil {
			minItems = *s.Source.MinItems
		}
		return level{value: c[i], schema: s.Items, parent: c, index: i, removable: int64(len(c)) > minItems}, true
	}
	return level{}, false
}

// candidate is a repair at the depth-th level above an error's field:
// the node set to value, or removed. The repaired copy of the object is
// made only when the candidate is tried (fixAt stops at the first that
// scores better), while the values are all drawn up front, so the random
// draws, and every sample after, stay the same.
type candidate struct {
	value  any
	remove bool
	depth  int
}

// candidates are the repairs at the levels of an error's field, the
// field's own first: left out, new values of its schema, the values at
// the boundary of its rules.
func candidates(at []level, r *rand.Rand) []candidate {
	var out []candidate
	for depth, l := range at {
		if depth > 2 {
			break
		}
		add := func(x any, remove bool) {
			out = append(out, candidate{x, remove, depth})
		}
		if l.removable {
			add(nil, true)
		}
		for range freshValues {
			if x, ok := sample.Value(l.schema, r); ok {
				add(x, false)
			}
		}
		for _, x := range ruleVariants(l, r) {
			add(x, false)
		}
	}
	return out
}

// ruleVariants are the values of l's node at the boundary of its CEL
// rules (celhint.Variants); for a string of format byte, also their
// base64 encoding (the rule reads the decoded bytes).
func ruleVariants(l level, r *rand.Rand) []any {
	if l.schema.Source == nil || len(l.schema.Source.XValidations) == 0 {
		return nil
	}
	rules := make([]string, len(l.schema.Source.XValidations))
	for i, v := range l.schema.Source.XValidations {
		rules[i] = v.Rule
	}
	var out []any
	for _, x := range celhint.Variants(l.schema, l.value, celhint.ParseAll(rules), r) {
		out = append(out, x)
		if str, ok := x.(string); ok && l.schema.Source.Format == "byte" {
			out = append(out, base64.StdEncoding.EncodeToString([]byte(str)))
		}
	}
	return out
}

// edited is a copy of obj with the node of at[0] set to x, or removed.
// at runs from that node up to the root's child.
func edited(obj map[string]any, at []level, x any, remove bool) map[string]any {
	out := jsonvalue.DeepCopy(obj).(map[string]any)
	var v any = out
	// Walk the copy down to at[0]'s parent.
	for i := len(at) - 1; i > 0; i-- {
		v = stepInto(v, at[i])
	}
	switch c := v.(type) {
	case map[string]any:
		if remove {
			delete(c, at[0].key)
		} else {
			c[at[0].key] = x
		}
	case []any:
		if remove {
			parentSet(out, at[1:], slices.Delete(slices.Clone(c), at[0].index, at[0].index+1))
		} else {
			c[at[0].index] = x
		}
	}
	return out
}

// stepInto is the child of v that l names.
func stepInto(v any, l level) any {
	switch c := v.(type) {
	case map[string]any:
		return c[l.key]
	case []any:
		return c[l.index]
	}
	return nil
}

// parentSet sets, in obj, the list at at[0] (the levels from a list up
// to the root's child) to list.
func parentSet(obj map[string]any, at []level, list []any) {
	var v any = obj
	for i := len(at) - 1; i > 0; i-- {
		v = stepInto(v, at[i])
	}
	if len(at) == 0 {
		return
	}
	switch c := v.(type) {
	case map[string]any:
		c[at[0].key] = list
	case []any:
		c[at[0].index] = list
	}
}
