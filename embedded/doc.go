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
// validates them.
package embedded
