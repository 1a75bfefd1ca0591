package main

import (
	"strings"

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
