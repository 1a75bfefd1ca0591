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
func runVerb(verb string, s *crdschema.Schema, d crdschema.Document) crdschema.Result {
	return verbs[verb](s, d.Object)
}
