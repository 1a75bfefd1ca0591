// Package model is the CustomResourceDefinition model crdschema reads CRDs
// into, and the decoders that fill it as the apiserver would. It is
// internal: users reach it through the root package (LoadCRD, LoadCRDs,
// Document.CRD).
//
//   - CRD is a CustomResourceDefinition in the apiserver's internal form:
//     DecodeCRD reads apiextensions.k8s.io/v1 or v1beta1 JSON, applies that
//     version's defaults and converts it, as the apiserver does before it
//     validates a CRD.
//   - DecodeProps is schema.Decode through a fast decoder, which converts
//     the plain values internal/jsonfast decodes and declines (leaving the
//     exact decoder) wherever the two could differ.
//
// The schema inside a CRD is the public schema.Props (aliased here as
// Props, with its relatives, so that the decoders read as before); the
// documents come from schema.ReadDocuments. The names: a schema.Props is a
// schema node as written; structural.Schema is the structural model built
// from it once (structural.New); crdschema.Schema is a compiled schema
// ready to apply to objects.
package model
