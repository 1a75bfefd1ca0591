// Package conversion reads custom resources stored at one version of a
// CustomResourceDefinition at another, as the apiserver's custom resource
// storage does (the storage read path), and converts them through the
// CRD's conversion strategy: None (only apiVersion changes) or Webhook (a
// ConversionReview, whose answer is checked and restored as the apiserver
// checks it).
//
// The package stands on the schema walkers (prune, defaulting, embedded)
// and knows nothing of CRD documents: the module root ([crdschema.CRD.Read])
// builds a [Storage] from a CRD and is the front door.
package conversion
