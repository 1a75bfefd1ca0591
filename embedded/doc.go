// Package embedded handles what the apiserver handles implicitly at the root
// of every custom resource and at every x-kubernetes-embedded-resource node:
// apiVersion, kind and metadata.
//
// Coercion (CoerceResourceMeta for the root, CoerceEmbedded below it)
// makes metadata what a round trip through the ObjectMeta Go type makes of
// it — unknown fields dropped and reported, empty values normalised away,
// timestamps in UTC — and either drops malformed fields (as a read from
// storage does) or reports them as the rejection of a create or update
// request. It does so from a table of ObjectMeta's JSON fields, without
// importing the type.
//
// Validation checks ObjectMeta and the type fields as the apiserver
// validates them: ValidateResourceMeta the root's metadata on create,
// ValidateObjectMetaUpdate its changes on update, Validate the embedded
// resources below the root, ValidateObjectMeta any ObjectMeta with a name
// rule of choice (NameIsDNSSubdomain, NameIsPathSegment).
//
// A request's metadata is not what the client sent: the apiserver fills in
// what it owns before validating. MetaForCreate (a generated name, the
// request's namespace) and MetaForUpdate (generation, uid, timestamps and
// resourceVersion from the stored object) return that metadata;
// MetaIsAsCreated and SameExceptMetadata tell when nothing needs filling in
// or the generation stays.
package embedded
