// Package crdfake gives controller-runtime's fake client the apiserver's
// semantics for custom resources, so that a reconciler test sees what a
// cluster would store and refuse, without envtest.
//
// Read the CRDs once, then give any fake.ClientBuilder their semantics:
//
//	crds, err := crdfake.ReadFS(crdFS, "config/crd/bases") // or ReadFiles, Parse
//	if err != nil { ... } // a CRD the apiserver would reject, named with its first errors
//	c := crds.Builder(fake.NewClientBuilder().WithScheme(scheme), warnings).Build()
//
// For every kind the CRDs define, Create prunes, drops nulls, coerces
// metadata, defaults, drops .status under the status subresource and
// validates (OpenAPI, list types, embedded resources, CEL), as the
// apiserver does, through crdschema's pipeline; Update and Patch (JSON
// merge patch, JSON patch) keep the stored status, validate against the
// stored object (transition rules, ratcheting) and bump
// metadata.generation when anything outside metadata changes; the status
// subresource's Update and Patch change only .status. Rejections are the
// *apierrors.StatusError a real client gets (reason Invalid, one cause per
// field error); pruned fields and deprecated versions reach the warning
// handler as the apiserver's warnings. Other kinds keep the fake's
// behaviour.
//
// Typed objects are sent as their JSON encoding, as a real client sends
// them, and the stored object is decoded back into them; see the README
// for zero values. Objects for WithObjects go through [CRDs.Objects].
package crdfake
