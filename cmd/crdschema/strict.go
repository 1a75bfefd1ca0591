package main

import (
	"bytes"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/util/validation/field"
	kjson "sigs.k8s.io/json"

	crdschema "github.com/crdschema/crdschema"
)

// strictResult turns a create's result into the apiserver's answer under
// fieldValidation=Strict: a request with unknown fields (the pruned ones)
// or duplicate fields is rejected while decoding, with one error per field
// and no object. A request already rejected while decoding (malformed
// metadata) keeps that answer: the apiserver meets it first.
func strictResult(r result, d crdschema.Document) result {
	if r.object == nil && len(r.errs) > 0 {
		return r
	}
	errs := duplicateFields(d)
	for _, p := range r.pruned {
		errs = append(errs, &field.Error{Type: field.ErrorTypeNotFound, Field: p, BadValue: field.OmitValueType{}, Detail: warningText(p)})
	}
	if len(errs) == 0 {
		return r
	}
	return result{pruned: r.pruned, errs: errs, deprecation: r.deprecation}
}

// duplicateFields finds the keys that occur twice in one JSON object of the
// document, as the apiserver's strict JSON decoder reports them: the path of
// the duplicated field, keys joined by "." and list indices as "[i]".
func duplicateFields(d crdschema.Document) field.ErrorList {
	var v any
	strictErrs, err := kjson.UnmarshalStrict(d.JSON, &v)
	if err != nil {
		return nil // the document was read before; it decodes
	}
	var errs field.ErrorList
	for _, se := range strictErrs {
		fp, ok := se.(interface{ FieldPath() string })
		if !ok || !strings.HasPrefix(se.Error(), "duplicate field ") {
			continue
		}
		errs = append(errs, &field.Error{Type: field.ErrorTypeDuplicate, Field: fp.FieldPath(), BadValue: field.OmitValueType{}, Detail: se.Error()})
	}
	return errs
}

// duplicatePaths are the paths of the fields the document holds twice.
func duplicatePaths(d crdschema.Document) []string {
	var out []string
	for _, e := range duplicateFields(d) {
		out = append(out, e.Field)
	}
	return out
}

// isJSONText reports whether a document was read from JSON text.
func isJSONText(text *docText) bool {
	if text == nil {
		return false
	}
	t := bytes.TrimLeftFunc(text.data, unicode.IsSpace)
	return len(t) > 0 && t[0] == '{'
}
