// Package oracle is the reference implementation of the crdschema command
// contract (shared/docs/cli-contract.md) built on the real apiserver code,
// k8s.io/apiextensions-apiserver v0.37.2 with a 1.37 apiserver's default
// feature gates.
//
// Every step calls the apiserver's own functions, in the apiserver's order:
//
//   - check: a CRD document is decoded with the apiextensions scheme's codec
//     (defaults applied, converted to the internal version), prepared as the
//     CRD registry does on create, and validated with
//     validation.ValidateCustomResourceDefinition. A bare schema is wrapped
//     into a minimal valid v1 CRD; its error paths are made relative to the
//     schema root.
//   - prune: the custom resource handler's storage decoding (pruning with
//     unknown field paths, ObjectMeta round trip and coercion of embedded
//     resources, dropping malformed metadata).
//   - default: removal of non-nullable nulls without defaults, then
//     structural defaulting.
//   - apply: a create request with fieldValidation=Warn: request decoding
//     (pruning, nulls, metadata coercion rejecting malformed metadata),
//     defaulting, then the custom resource registry strategy's Validate on
//     the object as rest.BeforeCreate hands it over (request namespace,
//     generated name).
//
// Run is the command; Router.Process runs a verb on one object.
package oracle
