package main

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
)

// compiled caches the pipeline schema of each routing target; the command
// handles objects one at a time, so a plain map suffices.
var compiled = map[*target]*crdschema.Schema{}

// applyVerb is the apply verb applied to one routed object: what the
// apiserver does to a create request, via the root package's pipeline. obj
// is the verb's private copy and is changed in place.
func applyVerb(obj map[string]any, t *target) result {
	s, err := pipelineFor(t)
	if err != nil {
		return result{errs: field.ErrorList{field.InternalError(field.NewPath(""), err)}}
	}
	r := s.ApplyInPlace(obj)
	var object any
	if r.Object != nil {
		object = r.Object
	}
	return result{object: object, pruned: r.Pruned, errs: r.Errors}
}

func pipelineFor(t *target) (*crdschema.Schema, error) {
	if s, ok := compiled[t]; ok {
		return s, nil
	}
	var s *crdschema.Schema
	var err error
	if t.crd != nil {
		s, err = crdschema.NewCRD(t.crd).Version(t.version)
	} else {
		s, err = crdschema.CompileSchema(t.props)
	}
	if err != nil {
		return nil, err
	}
	compiled[t] = s
	return s, nil
}
