// Package crdschema does what the Kubernetes apiserver does with the
// OpenAPI v3 schemas of CustomResourceDefinitions, without importing the
// apiserver: it checks that a CRD would be accepted, and it prunes,
// defaults and validates custom resources exactly as a create request
// would have them pruned, defaulted and validated, with the apiserver's
// error types, field paths and messages.
//
// # The one-call pipeline
//
// This package is the front door. Load a CRD, pick a version, and hand it
// objects:
//
//	crd, err := crdschema.LoadCRD(data) // one CRD document, YAML or JSON
//	if err != nil { ... }
//	if errs := crd.Errors(); len(errs) > 0 { ... } // kubectl create would fail
//	s, err := crd.Version("v1") // a served version; compiled once, then shared
//	if err != nil { ... }
//	r := s.Apply(obj) // obj is a map[string]any, left unchanged
//	// r.Errors empty: the cluster accepts the request and stores r.Object;
//	// otherwise it is rejected (r.Object is then what validation saw, or nil
//	// when decoding already refused it)
//	// r.Pruned: the unknown fields dropped, as the apiserver's warnings name them
//	// r.Errors: what the apiserver would refuse the object for
//
// [Schema.ApplyJSON] takes a request body instead of a decoded object.
//
// Inputs with many documents (a repository's manifests) are read with
// [ReadDocuments] (every document with its [schema.Position]: file, index, line),
// [Documents] (the same from a stream, one document at a time) or
// [LoadCRDs] (only the CRDs); [Route] finds the served version an
// object's apiVersion and kind select among several CRDs, as the
// apiserver routes a request. The readers decode as the apiserver does,
// whole floats included, and name the fields a JSON document holds twice
// ([Document].Duplicates), which [Result.Warnings] and [Result.Strict]
// (fieldValidation=Strict) report. [Document.Locator] finds an error's
// field in the document's text (line and column, as a CI annotation
// wants them; the command places its errors with it).
//
// A bare schema (no CRD around it) is compiled with
// [ParseSchema] and treated as the schema of a resource root. It compiles
// even when the apiserver would reject it in a CRD: [Schema.Errors] says
// why, [Schema.StructuralErrors] gives only the structural-schema rules.
//
// Errors callers act on are typed, to tell apart with errors.As:
// [NotCRDError] (a document that is not a CRD), [NotServedError] (a
// version the CRD does not serve; [CRD.Version] still returns the schema
// of a version it defines, for data stored under it, together with the
// error), [RejectedError] (a CRD or schema the apiserver would reject,
// which serves nothing) and [UnknownKindError] (no CRD for an object's
// group and kind).
//
// [Schema.Apply] follows the apiserver's order for a create request with
// fieldValidation=Warn:
//
//  1. prune: drop every field the schema does not specify, honouring
//     x-kubernetes-preserve-unknown-fields, x-kubernetes-embedded-resource and
//     the implicit apiVersion, kind and metadata of the resource root;
//  2. drop nulls: remove null values of fields that are not nullable and have
//     no default;
//  3. coerce metadata: round-trip the root metadata and the metadata of every
//     embedded resource through ObjectMeta, dropping unknown metadata fields.
//     Malformed metadata (not an object, a field of the wrong type) or a
//     non-string apiVersion or kind of an embedded resource is not repaired:
//     the apiserver rejects such a request while decoding it, and Apply
//     returns a nil Object with a FieldValueInvalid error at that path;
//  4. default: apply the schema's defaults (deep copies), also to
//     non-nullable nulls;
//  5. validate: OpenAPI v3 value validation (the results of the
//     kube-openapi validator the apiserver uses, from checks compiled once
//     per schema), ObjectMeta of the root and of embedded resources,
//     x-kubernetes-list-type set and map uniqueness, the scale subresource's
//     replica paths; then the x-kubernetes-validations (CEL) rules, unless
//     one of those errors is blocking (Required, NotSupported, TooLong,
//     TooMany, TypeInvalid), in which case the rules are skipped and one
//     Invalid error at the root (field <nil>) says so, as in the apiserver.
//
// # Updates
//
// [Schema.ApplyUpdate] answers an update request (PUT) of a stored object,
// [Schema.ApplyStatusUpdate] one of the status subresource, both returning
// the same [Result]:
//
//	r := s.ApplyUpdate(obj, old) // old: the object as the cluster stores it
//
// The stored object goes through the read path only (prune, coerce
// metadata, drop nulls, default). The new object is decoded as on create,
// then prepared as the registry prepares an update (with the status
// subresource, .status comes from the stored object; for a status update,
// everything but .status does; the request carries the stored
// resourceVersion), and validated as the apiserver validates an update with
// CRDValidationRatcheting: ObjectMeta and its update rules (name,
// namespace, uid, creationTimestamp, deletionTimestamp immutable, no
// decremented generation, no new finalizers while deleting); OpenAPI value
// validation with ratcheting, where an error below a value equal to its
// correlated old value is not reported (fields correlate by name through
// the structural schema, x-kubernetes-list-type=map items by their keys,
// nothing inside atomic lists and sets, never the root's apiVersion and
// kind); the scale paths; embedded metadata; list-type uniqueness, reported
// only when the stored object's lists were valid; and the CEL rules with
// oldSelf (transition rules, optionalOldSelf) and CEL ratcheting. The
// value validation of an unchanged valid object allocates nothing.
//
// [Schema.Prune], [Schema.Default] and [Schema.Validate] run the parts of
// the pipeline on their own, as the command's prune and default verbs do.
//
// CEL rules (x-kubernetes-validations) are compiled once per schema, each
// node's when a value first reaches it, by the internal package cel, with
// the apiserver's environment, libraries and cost limits; a CRD check
// reports their compile and cost errors.
//
// # The packages
//
// Three things are schemas, by stage: a schema.Props is a schema as
// written, with every keyword; a structural.Schema is its structural model,
// built once (structural.New); a [Schema] of this package is that model
// compiled with its CEL rules, ready to apply to objects
// ([Schema.Structural] returns the model).
//
// The packages form one-way layers; each imports only packages of the
// layers below it (deps_test.go holds the list), none has an init
// function, and the command imports no internal package. From the bottom:
//
//  1. internal helpers with no package of this module below them: jsonfast,
//     yamlfast, jsonvalue, errorsort, semantic, kubeversion, objpath (the
//     one path package: object paths, lazy field paths and the one parser
//     of field paths), and above objpath objdiff (the one walk of two
//     objects' differences, behind Result.Patch and revision's losses).
//  2. schema: the schema as written (Props), its readers (Parse, Decode,
//     ReadDocuments) with the positions and errors of their inputs.
//  3. intorstring: the x-kubernetes-int-or-string junctor patterns.
//  4. structural: the structural model (New; immutable, children by
//     pointer, per-subtree summaries) and the NonStructural rules 1–4.
//  5. prune (drops unknown fields, reports their paths; DropNulls), then
//     defaulting (drops non-nullable nulls and applies defaults), then
//     embedded (TypeMeta and ObjectMeta of the resource root and of
//     embedded resources), then validation (the full schema, compiled
//     checks giving kube-openapi's results; list-type uniqueness;
//     ratcheting on update). Layers 2–5 are the light chain: no CEL.
//  6. conversion (the storage read path: an object stored at one version
//     read at another; conversion webhooks and ConversionReview checks) and
//     serving (the published OpenAPI v2/v3, the kubectl get table, the
//     scale subresource), and internal/sample (valid example objects
//     generated from a schema): the rooms on the light chain, no CEL
//     either; above them revision/internal/revdiff (the changes between
//     two revisions of a version's schema, with the probe objects that
//     test them), which only package revision uses.
//  7. internal/model (the CRD model and its fast decoders), internal/cel
//     (CEL compilation, cost checks and evaluation; with the layers above
//     it, the only code that links cel-go), internal/celhint (what a CEL
//     rule says about the values it accepts, from its syntax: the values
//     at its boundary that repair samples and probe revisions),
//     internal/check (the CRD checks).
//  8. this package, the engine's front door: CRDs, CEL, the pipeline,
//     updates, reads and writes, serving, documents, errors.
//  9. revision: what revisions of a CRD do to the objects it stores
//     (changes classified by probes, replays of stored objects, round
//     trips between versions, storage-version migrations), built on this
//     package's public entries only.
//  10. layout: what each file of a repository is to the tools that read it
//     (kustomize patches, chainsaw and kuttl test assertions and negative
//     tests, Helm charts), so that a linter checks each file by its role;
//     it imports no package of this module.
//  11. cmd/crdschema: the command.
//
// The command (check with its warnings and check --old for CRD revisions;
// prune, default, apply and apply --old for updates; convert, openapi,
// columns and scale for what the apiserver serves; sample, jsonschema and
// explain; revision for what a new CRD revision does to the stored objects;
// migrate for the storage-version migration) has a stable -o json contract.
//
// # Stored objects and CRD revisions
//
// [CRD.Read] is what a GET of a stored object at a version serves (the
// storage read path: prune, default, convert, prune), [CRD.Write] what a
// create or an update puts into etcd; [CRD.Decode] and [CRD.Convert] are
// the storage's two halves on their own, below the served API (any version
// the CRD defines, no request checks), for analyses of stored data. A CRD
// with conversion strategy Webhook converts through the converter given
// once with [CRD.WithConverter].
//
// A new revision of a CRD is an update of the one the cluster stores:
// [CheckUpdate] is the apiserver's answer to it (errors and warnings:
// ratcheting per rule, immutable names and scope, [CRD.StoredVersions]).
// What the new revision does to the objects the old one stored (every
// change classified by probes run through this package's read, create and
// update paths; a replay of each stored object; round trips between
// versions; the storage-version migration of stored objects) is package
// revision's.
//
// # Admission webhooks and operators
//
// [Result.Patch] is the RFC 6902 JSON Patch from the request object to the
// result (pruned, defaulted, metadata coerced), what a mutating webhook
// answers; [Result.Warnings] are the pruned fields in the apiserver's
// wording (`unknown field "spec.foo"`). [Schema.DefaultInto] defaults a Go
// struct through its JSON form. The package example Example_admissionReview
// answers admission.k8s.io/v1 AdmissionReviews for CREATE and UPDATE end to
// end.
//
// Objects are JSON values however they were decoded: encoding/json (float64
// or json.Number numbers), sigs.k8s.io/yaml, apimachinery's unstructured
// and runtime.DefaultUnstructuredConverter, or built in Go
// (map[string]string labels, []string lists, int replicas, values with a
// MarshalJSON method). Every entry point takes them as the apiserver takes
// the same JSON text (a whole float64 as the integer it was written as); a
// value with no JSON form (a channel, NaN, a map with int keys) is one
// FieldValueInvalid error naming its path and Go type. Compiled schemas are
// immutable and safe for concurrent use; no function of this package
// changes the objects it is given.
package crdschema
