// Package validation validates objects against the full OpenAPI v3 schema of
// a CustomResourceDefinition the way the Kubernetes apiserver does on create:
// the errors of kube-openapi's validate engine (the engine the apiserver
// uses) for the schema converted exactly as the apiserver converts it,
// turned into an apimachinery field.ErrorList with the apiserver's error
// types, paths and messages, plus the x-kubernetes-list-type set/map
// uniqueness checks. The schema is compiled once into native checks that
// reproduce the engine's results without allocating for valid values (New
// compiles each part of the schema when a value first reaches it); the
// engine itself is used only for schemas and values the compiled checks do
// not cover (see Validator).
//
// A Validator is compiled once from a structural schema and is then safe for
// concurrent use by any number of goroutines:
//
//	v := validation.New(s)          // the custom resource's validator
//	errs := v.Validate(obj)         // value validation + list-type set/map uniqueness
//	errs = v.ValidateUpdate(obj, old) // the same on update, with ratcheting
//
// On update the apiserver ratchets (CRDValidationRatcheting): an error on a
// value unchanged from the stored object is not reported, values being
// correlated by field name, by map keys in x-kubernetes-list-type=map
// lists, and not at all inside atomic lists and sets; list-type errors are
// reported only when the stored object's lists were valid. ValidateUpdate
// and ValidateValueUpdate do the same, and an unchanged valid object costs
// no allocation.
//
// Two conversions exist in the apiserver and both are offered: New mirrors
// how a custom resource's schema is converted (x-kubernetes-int-or-string
// unfolded to the types integer,string; formats the apiserver does not
// support dropped), NewForDefaults mirrors the structural conversion used to
// validate default values (no unfolding, formats kept).
//
// What this package does not do: it does not evaluate x-kubernetes-validations
// (CEL) rules, and it does not validate ObjectMeta/TypeMeta of the resource
// root or of embedded resources (package embedded does).
//
// Objects are never changed, and are read as the JSON that encoding/json
// writes for them, the rule of every package of this module (package prune
// says it in full): plain JSON values (map[string]any, []any, string, bool,
// int64, float64, nil) as they are, a nil map or slice as null, any other
// Go value (a map[string]string, a []string, an int32, a json.Number, a
// struct with a MarshalJSON method) as its JSON form, in the new and in
// the old object of an update. A value with no JSON form (a channel, NaN)
// is one FieldValueInvalid error at its path naming its Go type; in an old
// object it makes nothing correlate (no ratcheting). The walks find such
// values where they meet them, so plain objects cost nothing more.
package validation
