// Package crdfake gives controller-runtime's fake client the apiserver's
// semantics for custom resources, so that a reconciler test sees what a
// cluster would store, return and refuse, without envtest.
//
// Read the CRDs once, then build clients with their semantics, with the
// options of controller-runtime's fake.ClientBuilder:
//
//	crds, err := crdfake.ReadFiles("../../config/crd/bases") // or ReadFS, Parse
//	if err != nil { ... } // a document that cannot be read
//	c := crds.NewClientBuilder().WithScheme(scheme).WithWarningHandler(warnings).Build()
//
// Each kind's CRD is checked and compiled on the first request of the
// kind, and decoded then too when its file is the block YAML generators
// write (reading such a set reads only the CRDs' names), so that a test
// pays for the kinds it uses, not for the whole set; a CRD the apiserver
// would reject fails every request of its kind, named with its first
// errors.
//
// Every request of a kind the CRDs define is answered from a store of the
// client's own holding one object per name at the CRD's storage version,
// served at every served version through the storage read path. Create,
// Update and Patch (JSON merge patch, JSON patch) are decoded, defaulted,
// prepared and validated as the apiserver does (OpenAPI, list types,
// embedded resources, CEL with transition rules and ratcheting), through
// crdschema's pipeline, with the generic registry's metadata rules (uid,
// generation decided on the stored JSON, resourceVersion required and
// checked, deletion with finalizers, namespaces, generateName). Apply is
// server-side apply with the CRD's list types and managed fields
// (apimachinery's field manager for CRDs). The status and scale
// subresources, Watch, DeleteAllOf and label and field selectors behave
// as on a cluster. Rejections are the *apierrors.StatusError a real client
// gets; pruned fields and deprecated versions reach the warning handler as
// the apiserver's warnings. Other kinds keep the fake's behaviour.
//
// Interceptor funcs, a REST mapper, indexes and objects given to the
// builder are kept (objects of the CRDs' kinds are taken in as stored
// objects, see [CRDs.Objects] for created ones); the client's REST mapper
// knows the CRDs' kinds first; [AddIndex] is fake.AddIndex for the CRDs'
// kinds. crdfake uses controller-runtime's exported API only. Typed
// objects are sent as their JSON encoding, as a real client sends them;
// see the README for zero values, for moving from the former
// CRDs.Builder, and for what still differs from a cluster.
package crdfake
