// Package model is the typed model crdschema reads CRDs and OpenAPI v3
// schemas into, and the readers that fill it as the apiserver would. It is
// internal: users reach it through the root package (ReadDocuments,
// LoadCRD, LoadCRDs, ParseSchema) and see the input errors of package
// schema.
//
//   - Props is one node of an OpenAPI v3 schema, every keyword the apiserver
//     decodes (also those a CRD may not use, so that checks can name them);
//     DecodeProps reads one from JSON.
//   - CRD is a CustomResourceDefinition in the apiserver's internal form:
//     DecodeCRD reads apiextensions.k8s.io/v1 or v1beta1 JSON, applies that
//     version's defaults and converts it, as the apiserver does before it
//     validates a CRD.
//   - ReadDocuments splits a YAML or JSON stream into its documents as
//     kubectl reads it (Lists expanded, integers as int64), each with its
//     file, index and line; unreadable documents come back as
//     schema.InputErrors beside the readable ones.
//
// The names: a Props is a schema node as written; structural.Schema is the
// structural model built from it once (internal/link connects the two);
// crdschema.Schema is a compiled schema ready to apply to objects.
package model
