package revision

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/revision/internal/revdiff"
)

// Change is one difference between two revisions of a CRD and what the
// apiserver does about it (Changes).
type Change struct {
	// Kind names the change. Of the whole CRD, from the apiserver's
	// update validation (Class "rejected"): "name-changed" (another
	// CRD: compare revisions of one CRD), "scope-changed",
	// "group-changed", "names-changed", "version-removed" (a stored
	// version), "preserve-unknown-fields-changed", "invalid" (the new
	// revision breaks a CRD rule the old one did not). Of a version:
	// "version-removed", "version-unserved", "version-added",
	// "storage-version-changed". Of a field: "field-removed",
	// "type-changed", "enum-narrowed", "required-added",
	// "bounds-tightened" (minimum, maximum, their exclusive flags,
	// minLength, maxLength, minItems, maxItems, minProperties,
	// maxProperties, multipleOf), "pattern-changed", "format-changed",
	// "default-changed" (added, changed or removed), "nullable-removed",
	// "preserve-unknown-fields-removed", "list-type-changed" (to set or
	// map, other map keys, or from set or map to atomic),
	// "map-type-changed" (granular to atomic), "rule-added",
	// "rule-changed" (CEL x-kubernetes-validations),
	// "embedded-resource-changed", "int-or-string-changed"; of what a
	// version shows: "printer-columns-changed", "scale-changed". Other
	// loosenings are not reported.
	Kind string
	// Version is the CRD version the change is in; "" for a change of the
	// whole CRD.
	Version string
	// Path is the field in that version's objects, as the apiserver
	// writes field paths, with [*] for any list item or map value
	// (spec.containers[*].image); "" for a change of the whole CRD or
	// version, and for a rejected change, whose Detail is the apiserver's
	// error with the CRD's own field path.
	Path string
	// Class is what the apiserver does about it: "rejected" (the update of
	// the CRD fails), "data-loss" (stored objects lose data when read, or
	// once their next write stores them at a new storage version),
	// "breaking" (a request the old revision accepted fails or gets
	// another answer: clients of a version no longer served, an update
	// changing a field a transition rule makes immutable, server-side
	// apply of a list or map made atomic, the scale subresource moved),
	// "ratcheted" (objects that break the new rule may keep their
	// unchanged values; creates and changed values fail),
	// "default-changed" (the same manifest stores another value from now
	// on), "unchecked" (it depends on a conversion webhook the CRD was not
	// given) or "safe" (no object or request the old revision accepts is
	// treated differently).
	Class string
	// Detail says what changed and what will happen, in a sentence.
	Detail string
	// Static is set when the class is inferred from the schemas alone
	// rather than computed by running objects through the engine.
	Static bool
}

// changesSeed fixes the probe objects of Changes.
const changesSeed = 24

// Changes returns every change from old to next, a new revision of the
// same CRD, classified by what the apiserver does about it, sorted
// by version, path, kind and detail (versions as strings).
//
// The rejected changes are the errors of crdschema.CheckUpdate, one Change per
// distinct error. Every other change is classified by running probes
// through the engine. A probe is an object the old revision accepts at
// that version (the smallest object of its schema, else a sample), with
// a value at the changed field that the new schema may not accept (a
// removed enum value, a string one longer than the new maxLength, a
// null, an unknown field, the field left out, ...), stored as the old
// revision stores it (created, converted to its storage version; at the
// version itself when the new revision drops that storage version, as
// after the storage migration that removal needs). Then,
// under the new revision: a read at the version that drops or changes
// the field is "data-loss"; a create of the object as the old revision
// reads it that is accepted is "safe" (unless an update of the unchanged
// object fails: "breaking"); a create that fails while an update of the
// unchanged stored object (as read under the new revision) is accepted
// is "ratcheted"; both failing is "breaking", the Detail giving the
// update's error and the ratcheting carve-out (KEP-4008) it hits. Only
// what the change itself can cause counts, at, above or below the changed
// field: fields lost on read only for the kinds that prune (a field
// removed, unknown fields or nullable no longer allowed, an embedded
// resource or a type changed); for a rule added or changed, only that
// rule's errors; for any other kind, only errors no CEL rule produced (so
// several changes of one object are each classified by their own
// effects). Fields that other changes make invalid (an ancestor's rule,
// a blocking error that keeps the CEL rules from running, a new maxLength
// on the field of a new rule) get sampled values and the probe runs
// again.
//
// A CEL rule added or changed is also probed at its boundary: values of
// its node built from what the rule (and the node's old rules) reads,
// from their syntax: the fields present and absent, the literals they are
// compared with and their neighbours, their old enum values, sizes around
// those compared, strings passing and failing each function applied
// (startsWith, matches, isURL, ...), and pairs of those; fields the old
// schema lacks are never set (no stored object has them). A rule none of
// the probes the old revision accepts breaks is "safe", computed. A
// transition rule (oldSelf) is probed with changing updates too: each
// pair of probe objects, one stored and the other sent as its update; an
// update the old revision accepts and the rule refuses is "breaking" (a
// field made immutable).
//
// A default changed or removed is "default-changed" when a create that
// leaves the field out stores another value under the new revision; a
// default added is "safe" (the field appears, no value changes).
//
// A version added reads objects of the old storage version: probes
// holding the fields the storage version has and the new one lacks,
// read at the new version (conversion None), are "data-loss" when a field
// is lost. A new storage version is "data-loss" when such probes (and a
// sample) written back lose a field. A version removed or no longer served
// is "breaking" for its clients (a create at it fails). The printer
// columns (safe: what kubectl get prints) and the scale subresource
// (added: safe; removed or re-pathed: breaking) of every version both
// revisions serve are compared on a marker object through CRD.Columns and
// CRD.Scale. Server-side apply's merging (a list or map made atomic) is
// said from the schemas (Static).
//
// When no probe can be built the class is a static approximation (Static,
// and said in Detail). A version the old revision does not serve, or a
// revision the apiserver would not create, cannot be probed. Loosenings
// are not reported, except a version added and a default removed.
//
// A CRD with strategy Webhook converts its probes through the converter
// it was given (CRD.WithConverter): without one, what needs the webhook
// (a version added, a new storage version, the probes of a version that
// is not the storage version) is "unchecked", never a guess.
//
// Changes is deterministic (as far as a converter is), reads neither
// revision's objects from anywhere and changes neither CRD. A nil old or
// next has no changes.
func Changes(old, next *crdschema.CRD) []Change {
	if old == nil || next == nil {
		return nil
	}
	ctx := context.Background()
	out := rejectedChanges(old, next)
	out = append(out, versionChanges(ctx, old, next)...)
	oldVersions := old.Versions()
	for _, v := range next.Versions() {
		if slices.Contains(oldVersions, v) {
			out = append(out, schemaChanges(ctx, old, next, v)...)
			out = append(out, presentationChanges(old, next, v)...)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Detail < b.Detail
	})
	// The apiserver reports an immutable metadata field twice (the
	// generic registry's check and the strategy's); one Change each.
	return slices.Compact(out)
}

// rejectedChanges are the errors of the CRD's update validation.
func rejectedChanges(old, next *crdschema.CRD) []Change {
	var out []Change
	errs, _ := crdschema.CheckUpdate(old, next)
	versions := next.Versions()
	for _, e := range errs {
		kind, version := rejectedKind(e, versions)
		out = append(out, Change{Kind: kind, Version: version, Class: "rejected", Detail: e.Error()})
	}
	return out
}

// rejectedKind names the change an update error is about, and the version
// it is in ("" for the whole CRD); versions are the new revision's, in
// spec.versions order.
func rejectedKind(e *field.Error, versions []string) (string, string) {
	f := e.Field
	switch {
	case f == "spec.scope":
		return "scope-changed", ""
	case f == "spec.group":
		return "group-changed", ""
	case f == "metadata.name":
		return "name-changed", ""
	case strings.HasPrefix(f, "spec.names"):
		return "names-changed", ""
	case f == "spec.preserveUnknownFields":
		return "preserve-unknown-fields-changed", ""
	case strings.HasPrefix(f, "status.storedVersions"):
		v, _ := e.BadValue.(string)
		return "version-removed", v
	case strings.HasPrefix(f, "spec.versions["):
		i, err := strconv.Atoi(f[len("spec.versions["):strings.IndexByte(f, ']')])
		if err == nil && i >= 0 && i < len(versions) {
			return "invalid", versions[i]
		}
	}
	return "invalid", ""
}

// versionChanges are the versions removed, unserved or added, and a
// change of the storage version.
func versionChanges(ctx context.Context, old, next *crdschema.CRD) []Change {
	var out []Change
	oldServed, nextServed := old.ServedVersions(), next.ServedVersions()
	oldVersions, nextVersions := old.Versions(), next.Versions()
	stored := old.StoredVersions()
	for _, v := range oldVersions {
		wasServed := slices.Contains(oldServed, v)
		defined := slices.Contains(nextVersions, v)
		switch {
		case !defined && slices.Contains(stored, v):
			// rejected: CheckUpdate names it
		case !defined:
			out = append(out, versionGone(ctx, old, next, v, wasServed, "version-removed", "removed from spec.versions"))
		case wasServed && !slices.Contains(nextServed, v):
			out = append(out, versionGone(ctx, old, next, v, true, "version-unserved", "no longer served"))
		}
	}
	for _, v := range nextVersions {
		if !slices.Contains(oldVersions, v) {
			out = append(out, versionAdded(ctx, old, next, v))
		}
	}
	// A storage version the new revision drops is rejected (it is in
	// status.storedVersions), reported as version-removed.
	if from, to := old.StorageVersion(), next.StorageVersion(); from != to && from != "" && to != "" {
		if slices.Contains(nextVersions, from) {
			out = append(out, storageChange(ctx, old, next, from, to))
		}
	}
	return out
}

// versionGone classifies a version the new revision no longer serves: a
// request the old revision accepted at it fails now.
func versionGone(ctx context.Context, old, next *crdschema.CRD, version string, wasServed bool, kind, what string) Change {
	ch := Change{Kind: kind, Version: version}
	if !wasServed {
		ch.Class, ch.Detail = "safe", version+" "+what+"; the old revision did not serve it either"
		return ch
	}
	objs := probeObjects(old, version, false)
	if len(objs) == 0 {
		ch.Class, ch.Static = "breaking", true
		ch.Detail = version + " " + what + "; static approximation: clients of " + version + " fail"
		return ch
	}
	r := next.Write(ctx, objs[0], nil)
	if len(r.Errors) == 0 {
		ch.Class, ch.Detail = "safe", version+" "+what+"; a create at "+version+" is still accepted"
		return ch
	}
	ch.Class = "breaking"
	ch.Detail = fmt.Sprintf("%s %s; clients of %s fail: %s", version, what, version, r.Errors[0].Error())
	return ch
}

// storageChange classifies a new storage version: objects stored at the
// old one are read as before; an unchanged object written back is
// stored at the new one, which may drop what it does not declare.
func storageChange(ctx context.Context, old, next *crdschema.CRD, from, to string) Change {
	ch := Change{Kind: "storage-version-changed", Version: to, Class: "safe"}
	base := fmt.Sprintf("storage version %s → %s: new writes are stored as %s; objects stored as %s stay so until rewritten, and %s stays in status.storedVersions (and so in spec.versions) until a storage migration removes it", from, to, to, from, from)
	if needsConverter(old) || needsConverter(next) {
		ch.Class = "unchecked"
		ch.Detail = base + "; the next write of an object stored at " + from + " stores it at " + to + " through the CRD's conversion webhook: not checked (no converter)"
		return ch
	}
	if lost, _ := lostBetween(ctx, old, next, from, func(stored map[string]any) (before, after map[string]any) {
		return rewritten(ctx, next, stored, from)
	}, to); len(lost) > 0 {
		ch.Class = "data-loss"
		ch.Detail = base + "; the next write of an object stored at " + from + " stores it at " + to + ", which drops " + strings.Join(lost, ", ")
		return ch
	}
	p := newProber(ctx, old, next, from, nil, nil)
	var stored map[string]any
	if slices.Contains(next.ServedVersions(), from) {
		// A sample holds more fields that the new storage version may
		// drop than the smallest object does.
		for _, obj := range probeObjects(old, from, true) {
			if st, ok := p.store(obj); ok {
				stored = st
				break
			}
		}
	}
	if stored == nil {
		ch.Static, ch.Detail = true, base+"; static approximation: no object of "+from+" could be stored and read back"
		return ch
	}
	before := next.Read(ctx, stored, from)
	rewritten := next.Write(ctx, before.Object, stored)
	if before.Object == nil || rewritten.Object == nil {
		ch.Static, ch.Detail = true, base+"; static approximation: the probe object could not be rewritten"
		return ch
	}
	after := next.Read(ctx, rewritten.Object, from)
	if lost, _ := readDiff(before.Object, after.Object); len(lost) > 0 {
		ch.Class = "data-loss"
		ch.Detail = base + "; an unchanged object of " + from + " written back loses " + strings.Join(lost, ", ")
		return ch
	}
	ch.Detail = base + "; an object of " + from + " written back and read again is unchanged"
	return ch
}

// schemaChanges are the changes of one version's schema, each classified
// by its probes.
func schemaChanges(ctx context.Context, old, next *crdschema.CRD, version string) []Change {
	// Version gives the schema of any version a CRD defines, with an
	// error when it is not served or the CRD is rejected: the changes are
	// the same. A schema that does not compile has no changes.
	oldS, _ := old.Version(version)
	newS, _ := next.Version(version)
	if oldS == nil || newS == nil {
		return nil
	}
	diffs := revdiff.Diff(oldS.Structural(), newS.Structural(), changesSeed)
	if len(diffs) == 0 {
		return nil
	}
	p := newProber(ctx, old, next, version, oldS, newS)
	p.bases[0], _ = smallestObject(old, oldS, version)
	out := make([]Change, 0, len(diffs))
	for i, d := range diffs {
		out = append(out, p.classify(d, uint64(i)))
	}
	return out
}

// probeObjects are objects the old revision may accept at a version it
// serves: a sample and the smallest object, when sampleFirst; else the
// smallest object, or a sample when there is none.
func probeObjects(crd *crdschema.CRD, version string, sampleFirst bool) []map[string]any {
	var out []map[string]any
	s, err := crd.Version(version)
	if s == nil || err != nil {
		return nil
	}
	if base, ok := smallestObject(crd, s, version); ok {
		out = append(out, base)
	}
	if !sampleFirst && len(out) > 0 {
		return out
	}
	if objs := s.Samples(changesSeed, 1); len(objs) > 0 {
		if sampleFirst {
			return append(objs[:1], out...)
		}
		out = append(out, objs[0])
	}
	return out
}

// smallestObject is the smallest object of the version's schema s, named
// "probe" (revdiff.Base, seeded with changesSeed).
func smallestObject(crd *crdschema.CRD, s *crdschema.Schema, version string) (map[string]any, bool) {
	gk := crd.GroupKind()
	apiVersion := version
	if gk.Group != "" {
		apiVersion = gk.Group + "/" + version
	}
	return revdiff.Base(s.Structural(), apiVersion, gk.Kind, "probe", rand.New(rand.NewPCG(changesSeed, 0)))
}
