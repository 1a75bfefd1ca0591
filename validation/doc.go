// Package validation validates objects against the full OpenAPI v3 schema of
// a CustomResourceDefinition the way the Kubernetes apiserver does on create:
// kube-openapi's validate engine (the engine the apiserver uses) run against
// the schema converted exactly as the apiserver converts it, with its results
// turned into an apimachinery field.ErrorList with the apiserver's error
// types, paths and messages, plus the x-kubernetes-list-type set/map
// uniqueness checks.
//
// A Validator is compiled once from a structural schema and is then safe for
// concurrent use by any number of goroutines:
//
//	v := validation.New(s)          // the custom resource's validator
//	errs := v.Validate(obj)         // value validation + list-type set/map uniqueness
//
// Two conversions exist in the apiserver and both are offered: New mirrors
// how a custom resource's schema is converted (x-kubernetes-int-or-string
// unfolded to the types integer,string; formats the apiserver does not
// support dropped), NewForDefaults mirrors the structural conversion used to
// validate default values (no unfolding, formats kept).
//
// What this package does not do: it does not evaluate x-kubernetes-validations
// (CEL) rules, and it does not validate ObjectMeta/TypeMeta of the resource
// root or of embedded resources (package embedded does). Objects are plain JSON
// values (map[string]any, []any, string, bool, int64, float64, json.Number,
// nil) and are never changed.
package validation
