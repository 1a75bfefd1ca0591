package serving

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// factWalk gathers the facts of the fields an explanation lists.
type factWalk struct {
	columns map[string][]string // field path -> printer column names
	// targeted are the rules of enclosing fields that name a field with
	// fieldPath, by that field's path.
	targeted map[string][]ExplainedRule
	out      []ExplainedField
}

// fieldFacts are the facts of the field at path and of the fields listed
// under it (children; descendants when recursive), in kubectl's order,
// for the fields that have any.
func fieldFacts(s *structural.Schema, columns []Column, path []string, recursive bool) []ExplainedField {
	w := &factWalk{columns: map[string][]string{}, targeted: map[string][]ExplainedRule{}}
	for _, c := range columns {
		if c.JSONPath != "" {
			p := strings.Join(jsonPathFields(c.JSONPath), ".")
			w.columns[p] = append(w.columns[p], c.Name)
		}
	}
	p := s.Source
	w.targets(p, "")
	for i, seg := range path {
		if p = child(p, seg); p == nil {
			return nil
		}
		w.targets(p, strings.Join(path[:i+1], "."))
	}
	at := strings.Join(path, ".")
	w.add(p, at)
	w.children(p, at, recursive)
	return w.out
}

// child is the node a path segment reaches from p: its property, or its
// items' or map values' (explain passes through them); nil when none.
func child(p *schema.Props, name string) *schema.Props {
	for ; p != nil; p = inner(p) {
		if c, ok := p.Properties[name]; ok {
			return c
		}
	}
	return nil
}

// inner is the schema explain passes through below p: its items' or its
// map values'; nil when it has neither.
func inner(p *schema.Props) *schema.Props {
	switch {
	case p.Items != nil && p.Items.Schema != nil:
		return p.Items.Schema
	case p.AdditionalProperties != nil && p.AdditionalProperties.Schema != nil:
		return p.AdditionalProperties.Schema
	}
	return nil
}

// fieldsOf are the properties explain lists for p: its own, then its
// items' and its map values' (an array of objects lists the objects').
func fieldsOf(p *schema.Props) map[string]*schema.Props {
	out := map[string]*schema.Props{}
	for ; p != nil; p = inner(p) {
		for k, c := range p.Properties {
			if _, ok := out[k]; !ok {
				out[k] = c
			}
		}
	}
	return out
}

func (w *factWalk) children(p *schema.Props, at string, recursive bool) {
	fields := fieldsOf(p)
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		c := fields[name]
		path := join(at, name)
		w.targets(c, path)
		w.add(c, path)
		if recursive {
			w.children(c, path, true)
		}
	}
}

func join(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

// targets records the rules of p (at path at) that name another field
// with fieldPath.
func (w *factWalk) targets(p *schema.Props, at string) {
	for _, r := range p.XValidations {
		if r.FieldPath == "" {
			continue
		}
		// The names as the apiserver reads the fieldPath (escapes
		// resolved); the check has refused a fieldPath that does not parse.
		names, _ := objpath.ParseJSONPath(r.FieldPath, true)
		target := at
		for _, seg := range names {
			target = join(target, seg)
		}
		if target != at {
			w.targeted[target] = append(w.targeted[target], explainedRule(r, at))
		}
	}
}

func explainedRule(r schema.ValidationRule, on string) ExplainedRule {
	return ExplainedRule{Rule: r.Rule, Message: r.Message, MessageExpression: r.MessageExpression, On: on}
}

// add appends the facts of p at path, when it has any.
func (w *factWalk) add(p *schema.Props, path string) {
	f := ExplainedField{Path: path, PrinterColumns: w.columns[path]}
	for _, r := range p.XValidations {
		f.Rules = append(f.Rules, explainedRule(r, ""))
		rule := strings.Join(strings.Fields(r.Rule), "")
		f.Immutable = f.Immutable || rule == "self==oldSelf" || rule == "oldSelf==self"
	}
	f.Rules = append(f.Rules, w.targeted[path]...)
	if p.XListType != nil {
		f.ListType = *p.XListType
	}
	f.ListMapKeys = slices.Clone(p.XListMapKeys)
	if p.Default != nil && p.Default.Value != nil {
		f.Default = jsonvalue.DeepCopy(p.Default.Value)
	}
	f.Validations = validations(p)
	if len(f.Rules) > 0 || f.ListType != "" || f.Default != nil || len(f.Validations) > 0 || len(f.PrinterColumns) > 0 {
		w.out = append(w.out, f)
	}
}

// validations are p's value validations that kubectl explain leaves out.
func validations(p *schema.Props) map[string]any {
	out := map[string]any{}
	setString(out, "pattern", p.Pattern)
	setString(out, "format", p.Format)
	setBounds(out, p)
	setBool(out, "exclusiveMinimum", p.ExclusiveMinimum && p.Minimum != nil)
	setBool(out, "exclusiveMaximum", p.ExclusiveMaximum && p.Maximum != nil)
	setBool(out, "uniqueItems", p.UniqueItems)
	if len(out) == 0 {
		return nil
	}
	return out
}

// jsonPathFields are the field names a printer column's JSONPath (kubectl's
// dialect, filters and all) reads (.spec.x, .spec['a.b'], .status.conditions[?(@.type=="Ready")].status:
// spec x; spec a.b; status conditions status), indexes and filters left
// out.
func jsonPathFields(p string) []string {
	var out []string
	var cur strings.Builder
	end := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '.':
			end()
		case '[':
			end()
			j := bracketEnd(p, i)
			if inner := p[i+1 : j]; len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0] {
				out = append(out, inner[1:len(inner)-1])
			}
			i = j
		case '{', '}':
		default:
			cur.WriteByte(c)
		}
	}
	end()
	return out
}

// bracketEnd is the index of the ] closing the [ at i (quotes and nested
// brackets skipped), or the end of p.
func bracketEnd(p string, i int) int {
	depth := 0
	var quote byte
	for j := i; j < len(p); j++ {
		c := p[j]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(p)
}

// Plaintext is kubectl explain's text followed by a section of its own
// with the Fields: what the CRD says of them that kubectl explain does
// not show.
func (e *Explanation) Plaintext() string {
	var b strings.Builder
	b.WriteString(e.Text)
	b.WriteString("FROM THE CRD (not shown by kubectl explain):\n")
	if len(e.Fields) == 0 {
		b.WriteString("    no CEL rules, defaults, value validations, list types or printer columns on these fields\n")
	}
	for _, f := range e.Fields {
		writeField(&b, f)
	}
	return b.String()
}

func writeField(b *strings.Builder, f ExplainedField) {
	name := f.Path
	if name == "" {
		name = "(the object)"
	}
	fmt.Fprintf(b, "  %s\n", name)
	if f.Default != nil {
		fmt.Fprintf(b, "    default: %s\n", jsonText(f.Default))
	}
	for _, k := range slices.Sorted(maps.Keys(f.Validations)) {
		v := f.Validations[k]
		if s, ok := v.(string); ok {
			fmt.Fprintf(b, "    %s: %s\n", k, s)
		} else {
			fmt.Fprintf(b, "    %s: %s\n", k, jsonText(v))
		}
	}
	if f.ListType != "" {
		fmt.Fprintf(b, "    list type: %s", f.ListType)
		if len(f.ListMapKeys) > 0 {
			fmt.Fprintf(b, ", keys: %s", strings.Join(f.ListMapKeys, ", "))
		}
		b.WriteString("\n")
	}
	if f.Immutable {
		b.WriteString("    immutable: a rule self == oldSelf refuses any change once set\n")
	}
	for _, r := range f.Rules {
		writeRule(b, r)
	}
	if len(f.PrinterColumns) > 0 {
		fmt.Fprintf(b, "    printer columns: %s\n", strings.Join(f.PrinterColumns, ", "))
	}
}

func writeRule(b *strings.Builder, r ExplainedRule) {
	b.WriteString("    rule: " + strings.ReplaceAll(strings.TrimSpace(r.Rule), "\n", "\n          ") + "\n")
	if r.On != "" {
		fmt.Fprintf(b, "      on: %s\n", r.On)
	}
	if r.Message != "" {
		fmt.Fprintf(b, "      message: %s\n", r.Message)
	}
	if r.MessageExpression != "" {
		fmt.Fprintf(b, "      messageExpression: %s\n", r.MessageExpression)
	}
}

func jsonText(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}
