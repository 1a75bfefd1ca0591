package main

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/schema"
)

// verbs maps each object verb to the root package's pipeline call; none of
// them changes the object it is given.
var verbs = map[string]func(s *crdschema.Schema, obj map[string]any) crdschema.Result{
	"prune":   (*crdschema.Schema).Prune,
	"default": (*crdschema.Schema).Default,
	"apply":   (*crdschema.Schema).Apply,
}

// compiled caches the pipeline schema of each routing target; the command
// handles objects one at a time, so a plain map suffices.
var compiled = map[*target]*crdschema.Schema{}

// runVerb applies verb to one routed document.
func runVerb(verb string, t *target, d schema.Document) result {
	obj := d.Object
	s, err := pipelineFor(t)
	if err != nil {
		return result{errs: field.ErrorList{field.InternalError(nil, err)}}
	}
	r := verbs[verb](s, obj)
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
