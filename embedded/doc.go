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
//
// Objects and metadata are read as the JSON that encoding/json writes for
// them, the rule of every package of this module (package prune says it
// in full): labels given as a map[string]string are the object they are
// written as, a nil map or slice is null. The validating functions and
// MetaIsAsCreated, MetaForCreate, MetaForUpdate and SameExceptMetadata read
// such values through their JSON forms and change nothing; CoerceEmbedded
// replaces, in the object, a typed value on its way to an embedded
// resource by its JSON form, and CoerceResourceMeta replaces the metadata
// as always. A value with no JSON form (a channel, NaN) where they read is
// one FieldValueInvalid error at its path naming its Go type; MetaForCreate
// and MetaForUpdate, which return no error, then read the metadata as it
// is.
package embedded
