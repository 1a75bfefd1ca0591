// Package revision tells what a new revision of a CustomResourceDefinition
// does to the objects a cluster stores under the old one, and what a round
// trip between a CRD's versions does to an object: the questions to answer
// before `kubectl apply` of a changed CRD, or in the go test of a
// conversion.
//
// Every answer is computed by running objects through the engine of the
// parent package, github.com/crdschema/crdschema, and only through its
// public entries: crdschema.CheckUpdate for the CRD itself, CRD.Read,
// CRD.Write, CRD.Decode and CRD.Convert for the objects, Schema.Samples
// and the schemas' structural models for the probe objects. So the
// answers are the apiserver's, exactly as the engine gives them, and a
// program can check any of them with the same calls.
//
// Calls read in time order: the old revision first, then the next one.
//
//	old, _ := crdschema.LoadCRD(storedYAML) // what the cluster has
//	next, _ := crdschema.LoadCRD(newYAML)   // what is about to be applied
//	errs, warnings := crdschema.CheckUpdate(old, next)
//	for _, c := range revision.Changes(old, next) {
//		// c.Class: rejected, data-loss, ratcheted, breaking or safe
//	}
//	e := revision.Replay(ctx, old, next, obj) // obj: an object from a dump
//	// e.Losses: fields a read under next drops; e.Update, e.Create: what
//	// the next write of obj and a fresh create of it get under next
//
// # Changes
//
// [Changes] lists every difference between the two revisions (versions
// added, removed or no longer served, a new storage version, every
// tightened or changed keyword of a version's schema, CEL rules added or
// changed) and classifies each by what the apiserver does about it. A
// rejected change is an error of the CRD update; every other one is
// classified by probes: objects the old revision accepts, with a value at
// the changed field the new schema may refuse, stored as the old revision
// stores them, then read, created and updated under the new one. Whatever
// no probe can show is classified from the schemas alone (Change.Static).
//
// # Replays
//
// [Replay] takes one real object (from a dump of the cluster, or a
// repository's examples) as stored under the old revision and reports the
// fields every read under the new revision loses, and whether the next
// write of the unchanged object and a fresh create still pass: ratcheting
// lets unchanged values through, as the apiserver does.
//
// # Round trips
//
// [RoundTrip] creates an object at its version, reads it at another,
// writes it back there and reads it at the first again, and reports what
// was lost or changed, and at which step; [RoundTrips] does it for sample
// objects of every served version to every other, deterministically by
// seed (a fuzz target's input).
//
// A CRD with conversion strategy Webhook converts through the converter it
// was given with crdschema.CRD.WithConverter; without one, a read at
// another version fails, as it would in a cluster whose webhook is down.
// Changes never calls a converter: its answers depend on the two CRDs
// alone.
package revision
