package main

import (
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
)

// pos is a place in an input file: 1-based line and column (column 0 when
// only the line is known).
type pos struct{ line, column int }

// locator finds the fields of one document in the text it was read from.
// The text is parsed again (with go.yaml.in/yaml/v3, which keeps positions
// and reads JSON too) only when the document has errors or warnings, so
// the readers' fast paths stay as they are.
type locator struct {
	start pos        // the document's first line: the last resort
	root  *yaml.Node // the document's node; nil when the text cannot be parsed
	line  int        // the text's first line in the file
	// crdV1 is set for an apiextensions.k8s.io/v1 CRD, whose errors the
	// apiserver may name by the internal version's paths.
	crdV1 bool
}

// newLocator prepares the lookup of d's fields in text.
func newLocator(d crdschema.Document, text *docText) *locator {
	l := &locator{start: pos{line: d.Line}}
	l.crdV1 = d.IsCRD() && d.Object["apiVersion"] == "apiextensions.k8s.io/v1"
	if text == nil {
		return l
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(text.data, &doc); err != nil || len(doc.Content) == 0 {
		return l
	}
	l.root, l.line = doc.Content[0], text.line
	if item := d.Index - text.first; item > 0 || isList(l.root) {
		// An item of a List document.
		l.root = listItem(l.root, item)
	}
	return l
}

func isList(n *yaml.Node) bool {
	k := child(n, "kind")
	return k != nil && strings.HasSuffix(k.Value, "List") && child(n, "items") != nil
}

func listItem(n *yaml.Node, i int) *yaml.Node {
	items := resolve(child(n, "items"))
	if items == nil || items.Kind != yaml.SequenceNode || i >= len(items.Content) {
		return nil
	}
	return items.Content[i]
}

// userPath is the path of field where the user wrote it: the apiserver
// names the schema, subresources and columns of a v1 CRD whose versions
// all share them by the internal version's fields (spec.validation...);
// the file has them under spec.versions[0]. "" when field is as written.
func (l *locator) userPath(field string) string {
	if !l.crdV1 {
		return ""
	}
	for _, m := range [][2]string{
		{"spec.validation", "spec.versions[0].schema"},
		{"spec.subresources", "spec.versions[0].subresources"},
		{"spec.additionalPrinterColumns", "spec.versions[0].additionalPrinterColumns"},
	} {
		if rest, ok := strings.CutPrefix(field, m[0]); ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
			return m[1] + rest
		}
	}
	return ""
}

// find returns the position of the field at path (the apiserver's field
// path syntax: spec.list[2].name, properties[a.b]): the field's key, or
// the nearest ancestor present when the field is missing, or the
// document's start.
func (l *locator) find(path string) pos {
	if l.root == nil {
		return l.start
	}
	n, best := l.root, l.root
	for _, seg := range splitPath(path) {
		n = step(resolve(n), seg)
		if n == nil {
			break
		}
		best = n
	}
	return pos{line: l.line + best.Line - 1, column: best.Column}
}

// step goes from n to its child seg: a mapping's key (the key node, which
// holds the field's name) or a sequence's item.
func step(n *yaml.Node, seg string) *yaml.Node {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == seg {
				return keyed{n.Content[i], n.Content[i+1]}.node()
			}
		}
	case yaml.SequenceNode:
		i := 0
		for _, c := range seg {
			if c < '0' || c > '9' {
				return nil
			}
			i = i*10 + int(c-'0')
			if i > len(n.Content) {
				return nil
			}
		}
		if seg != "" && i < len(n.Content) {
			return n.Content[i]
		}
	}
	return nil
}

// keyed is a mapping entry: its position is the key's, its content the
// value's.
type keyed struct{ key, value *yaml.Node }

func (k keyed) node() *yaml.Node {
	c := *k.value
	c.Line, c.Column = k.key.Line, k.key.Column
	return &c
}

// child is the value of key in the mapping n.
func child(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// resolve follows aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// splitPath splits a field path into its keys and indices:
// "spec.list[2].m[a.b]" is spec, list, 2, m, a.b.
func splitPath(p string) []string {
	var out []string
	for p != "" {
		switch p[0] {
		case '.':
			p = p[1:]
		case '[':
			end := closing(p)
			out = append(out, p[1:end])
			p = p[min(end+1, len(p)):]
		default:
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				end = len(p)
			}
			out = append(out, p[:end])
			p = p[end:]
		}
	}
	return out
}

// closing is the index of the ']' that ends the bracket p starts with: the
// first one followed by the end, '.' or '['.
func closing(p string) int {
	for i := 1; i < len(p); i++ {
		if p[i] == ']' && (i+1 == len(p) || p[i+1] == '.' || p[i+1] == '[') {
			return i
		}
	}
	return len(p)
}

// placed is where an error (or a warning that names a field) is in the file,
// and the path the user wrote it at when the apiserver names another.
type placed struct {
	pos
	userField string
}

// place finds the positions of a document's errors and warnings and
// adds them to its outcome and to its JSON line's errors (which are in the
// same order). Documents with neither errors nor warnings that name a
// field are not parsed again.
func place(oc *outcome, line any, d crdschema.Document, text *docText) any {
	ws := oc.warnings()
	if len(oc.errs) == 0 && len(oc.lint) == 0 && !slices.ContainsFunc(ws, func(w warning) bool { return w.path != "" }) {
		return line
	}
	l := newLocator(d, text)
	oc.errAt = l.errorsAt(oc.errs)
	// A warning that names no field (a CRD's) is at the document's line.
	oc.warnAt = make([]placed, len(ws))
	for i, w := range ws {
		if w.path != "" {
			oc.warnAt[i] = placed{pos: l.find(w.path)}
		}
	}
	oc.lintAt = make([]placed, len(oc.lint))
	for i, f := range oc.lint {
		oc.lintAt[i] = placed{pos: l.find(f.Field)}
		oc.lint[i].Line, oc.lint[i].Column = oc.lintAt[i].line, oc.lintAt[i].column
	}
	switch r := line.(type) {
	case objectResult:
		r.Errors = placeJSON(r.Errors, oc.errAt)
		return r
	case checkResult:
		r.Errors = placeJSON(r.Errors, oc.errAt)
		return r
	}
	return line
}

// errorsAt are the places of errs.
func (l *locator) errorsAt(errs field.ErrorList) []placed {
	out := make([]placed, len(errs))
	for i, e := range errs {
		user := l.userPath(e.Field)
		at := e.Field
		if user != "" {
			at = user
		}
		out[i] = placed{pos: l.find(at), userField: user}
	}
	return out
}

// located is toJSONErrors with each error's place in the document's text,
// for the verbs that print no outcome (openapi, columns, scale, convert
// --review). The text is parsed only when there are errors.
func located(errs field.ErrorList, d crdschema.Document, text *docText) []jsonError {
	out := toJSONErrors(errs) // sorts errs
	if len(errs) == 0 {
		return out
	}
	return placeJSON(out, newLocator(d, text).errorsAt(errs))
}

func placeJSON(errs []jsonError, at []placed) []jsonError {
	for i := range errs {
		if i < len(at) {
			errs[i].Line, errs[i].Column, errs[i].UserField = at[i].line, at[i].column, at[i].userField
		}
	}
	return errs
}
