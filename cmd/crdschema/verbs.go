package main

import (
	crdschema "github.com/crdschema/crdschema"
)

// verbs maps each object verb to the root package's pipeline call; none of
// them changes the object it is given.
var verbs = map[string]func(s *crdschema.Schema, obj map[string]any) crdschema.Result{
	"prune":   (*crdschema.Schema).Prune,
	"default": (*crdschema.Schema).Default,
	"apply":   (*crdschema.Schema).Apply,
}

// runVerb applies verb to one routed document.
func runVerb(verb string, s *crdschema.Schema, d crdschema.Document) result {
	r := verbs[verb](s, d.Object)
	var object any
	if r.Object != nil {
		object = r.Object
	}
	return result{object: object, pruned: r.Pruned, errs: r.Errors, deprecation: r.Deprecation}
}
