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
//
// Objects are read as the JSON that encoding/json writes for them, the
// rule of every package of this module (package prune says it in full):
// Storage.Read and Storage.Convert change the object in place as the
// walkers they run do, a Func gets copies holding only plain JSON values,
// and the objects a Func returns are read as their JSON forms. A value
// with no JSON form in an object to convert is one FieldValueInvalid error
// at its path below request.objects[i], naming its Go type.
package conversion
