package main

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
)

// pos is a place in an input file: 1-based line and column (column 0 when
// only the line is known).
type pos struct{ line, column int }

// locator finds the fields of one document in the text it was read from
// (crdschema.Document.Locator, which parses the text again, so only for
// documents with errors or warnings: the readers' fast paths stay as they
// are).
type locator struct {
	at func(fieldPath string) (line, column int)
	// crdV1 is set for an apiextensions.k8s.io/v1 CRD, whose errors the
	// apiserver may name by the internal version's paths.
	crdV1 bool
}

// newLocator prepares the lookup of d's fields in its text.
func newLocator(d crdschema.Document) *locator {
	return &locator{
		at:    d.Locator(),
		crdV1: d.IsCRD() && d.Object["apiVersion"] == "apiextensions.k8s.io/v1",
	}
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
	line, column := l.at(path)
	return pos{line: line, column: column}
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
func place(oc *outcome, line any, d crdschema.Document) any {
	ws := oc.warnings()
	if len(oc.errs) == 0 && len(oc.lint) == 0 && !slices.ContainsFunc(ws, func(w warning) bool { return w.path != "" }) {
		return line
	}
	l := newLocator(d)
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
func located(errs field.ErrorList, d crdschema.Document) []jsonError {
	out := toJSONErrors(errs) // sorts errs
	if len(errs) == 0 {
		return out
	}
	return placeJSON(out, newLocator(d).errorsAt(errs))
}

func placeJSON(errs []jsonError, at []placed) []jsonError {
	for i := range errs {
		if i < len(at) {
			errs[i].Line, errs[i].Column, errs[i].UserField = at[i].line, at[i].column, at[i].userField
		}
	}
	return errs
}
