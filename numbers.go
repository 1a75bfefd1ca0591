package crdschema

import (
	"errors"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// Objects reach the pipeline decoded in many ways. Every entry point that
// takes a map (Apply, Prune, Default, Validate, ApplyUpdate,
// ApplyStatusUpdate) first turns what encoding/json (float64,
// json.Number), sigs.k8s.io/yaml, runtime.DefaultUnstructuredConverter and
// hand-written Go (map[string]string labels, []string lists, int replicas,
// types with a MarshalJSON method) produce into the values the apiserver's
// JSON decoder produces, so that the answer is the apiserver's for the same
// JSON text: integers as int64, other numbers as float64. A float64 that is
// a whole number is taken as the integer its JSON text ("3") decodes to;
// the apiserver keeps the text "3.0" a float, which the scale subresource's
// replica paths tell apart. ApplyJSON decodes text exactly; the readers
// (ReadDocuments, Documents), whose objects all come from that decoder,
// hand their whole floats over as json.Number with a fraction ("3.0";
// jsonvalue.KeepFloats), which every entry point takes for the float that
// text is.

// inputError is the error for an object that cannot be taken: tooDeep, or
// one Invalid error at the path of a value with no JSON form, naming its Go
// type.
func inputError(err error) *field.Error {
	if errors.Is(err, jsonvalue.ErrTooDeep) {
		return tooDeep()
	}
	path := ""
	var te *jsonvalue.TypeError
	if errors.As(err, &te) {
		path = te.Path
	}
	return &field.Error{Type: field.ErrorTypeInvalid, Field: path, BadValue: field.OmitValueType{}, Detail: err.Error()}
}
