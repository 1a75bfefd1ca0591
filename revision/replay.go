package revision

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objdiff"
	"github.com/crdschema/crdschema/internal/objpath"
)

// Effect is what a new revision of a CRD does to one object the cluster
// stores under the old revision (Replay).
type Effect struct {
	// Stored is the object as the old revision stores it: converted to
	// the old storage version through the old revision's storage.
	Stored map[string]any
	// Losses are the fields a read under the new revision drops or
	// changes, at each version the new revision serves, that a read under
	// the old revision kept as they were; Step is "read at VERSION".
	Losses []Loss
	// Update are the errors the next write of the unchanged object gets
	// under the new revision (read at its version, written back as an
	// update of the stored object, with ratcheting); nil when accepted.
	Update field.ErrorList
	// Create are the errors a create of the object under the new revision
	// gets (as `kubectl apply` of it to a cluster that does not have it);
	// nil when accepted.
	Create field.ErrorList
	// OldUpdate and OldCreate are the same under the old revision: what
	// the object already failed before the new revision.
	OldUpdate, OldCreate field.ErrorList
	// Manifest is set when the object carried none of the metadata the
	// apiserver sets (uid, resourceVersion, creationTimestamp): a
	// manifest, not a dump, so Stored is what its create under the old
	// revision stored (defaults persisted), not the object as given.
	Manifest bool
	// RefusedManifest is set instead of Manifest for a manifest the old
	// revision refuses to create: it is taken as stored, as a dump is,
	// and OldCreate says why. A refusal that is the old revision's
	// missing conversion webhook is not one (NotChecked says so).
	RefusedManifest bool
	// NotChecked are the steps that need a CRD's conversion webhook,
	// which the revision was not given (CRD.WithConverter), each an
	// InternalError whose detail names the step: what they do is
	// unknown, neither a loss nor a failure. Stored is nil when storing
	// the object under the old revision is one of them.
	NotChecked field.ErrorList
	// Errors are why the object could not be replayed (another kind, a
	// version the old revision does not define, a failing conversion);
	// the other fields are then empty.
	Errors field.ErrorList
}

// Replay reports what next, a new revision of old, does to obj, an object
// the cluster stores under old (typically from a dump of the cluster or a
// repository's examples). Each revision converts through its own
// converter (WithConverter) when its strategy is Webhook. obj is not
// changed; a nil old or next is an error in Effect.Errors.
//
// An object with any of the metadata the apiserver sets (uid,
// resourceVersion, creationTimestamp) comes from a dump: it is taken as
// stored, never validated (a dump has status, server-set metadata and
// values older rules accepted), converted from the version its
// apiVersion names to old's storage version through old's storage
// (CRD.Convert: with strategy None apiVersion changes and the storage
// version's schema prunes) and becomes Effect.Stored. An object with
// none of them is a manifest (Effect.Manifest): it is created under old
// first (CRD.Write), so Stored holds the defaults and pruning of that
// create, as the cluster would; a manifest old refuses is taken as
// stored, as a dump is (Effect.RefusedManifest; OldCreate says why).
// Either way a manifest is stored with the metadata the apiserver gives
// it on create: a name generated from generateName when it has none
// (five fixed letters for the random ones), the request's namespace
// ("default") when it names none. An object that is not of old's group
// and kind, names a version old does not define, or fails that
// conversion is not replayed: Effect.Errors says why and nothing else is
// filled. An old revision the apiserver would reject (old.Errors) is
// still used for the conversion and the reads losses are measured
// against (CRD.Decode), but its requests are refused: OldUpdate and
// OldCreate then hold that refusal (and a manifest is a RefusedManifest).
//
// Then, under next:
//
//   - Losses: Stored read at every version next serves (CRD.Read),
//     against Stored decoded by old at the same version, or at old's
//     storage version when old does not serve it (apiVersion aside):
//     every field the old read has that the new read lacks, or holds with
//     another value (Changed), sorted by next's version priority and
//     path; then the same after the next write (Update below) stored the
//     object as next stores it, read back at every version (Step
//     "written back, read at VERSION": what a new storage version drops),
//     for fields the read alone kept. Fields only the new read has (a new
//     default) are not losses.
//     A read at a version old serves that fails under next and not under
//     old loses nothing field by field: its errors go to Update, each
//     detail prefixed "read at VERSION: " (a client of that version can
//     no longer get the object to write it back). A read that fails under
//     both (a Webhook strategy without a converter) is no finding.
//   - Update: the controller's next write of the unchanged object: Stored
//     read at obj's own version (next's storage version when it no longer
//     serves it), written back as an update of Stored (CRD.Write, so
//     ratcheting applies to unchanged values); a failing read there is
//     the write's error. OldUpdate is the same under old.
//   - Create: obj as a fresh `kubectl apply` to a cluster that does not
//     have it: obj without the metadata the apiserver sets itself (uid,
//     resourceVersion, creationTimestamp, generation, managedFields,
//     selfLink, deletionTimestamp, deletionGracePeriodSeconds), created at
//     its apiVersion (CRD.Write with no old object: status is reset where
//     the status subresource is on). OldCreate is the same under old.
//
// A step that needs a CRD's conversion webhook which it was not given
// (strategy Webhook, no WithConverter) is neither a loss nor a failure:
// it goes to NotChecked, and so does the storing of the object when that
// needs the old revision's webhook (nothing else is filled then).
//
// Errors in each list are sorted; a nil list is an accepted request.
func Replay(ctx context.Context, old, next *crdschema.CRD, obj map[string]any) Effect {
	if old == nil || next == nil {
		return Effect{Errors: field.ErrorList{&field.Error{Type: field.ErrorTypeInternal, BadValue: field.OmitValueType{},
			Detail: "no old or no new revision: an object is replayed from the revision that stores it to the next one"}}}
	}
	// obj as the apiserver's decoder would have it; obj itself when it is
	// (as decoded objects are), since nothing below changes it.
	inObj := obj
	if !jsonvalue.IsNormal(obj, jsonvalue.MaxDepth) {
		in, err := jsonvalue.Normalize(obj, jsonvalue.MaxDepth)
		if err != nil {
			// An object nested too deep, or holding a value with no JSON
			// form: the engine words why it cannot be taken.
			return Effect{Errors: old.Convert(ctx, obj, old.StorageVersion()).Errors}
		}
		inObj, _ = in.(map[string]any)
	}
	if inObj == nil {
		inObj = map[string]any{}
	}
	var r Effect
	stored, errs := storeAsOld(ctx, old, inObj)
	if isManifest(inObj) && len(errs) == 0 {
		created := old.Write(ctx, inObj, nil)
		if created.Object != nil {
			stored, r.Manifest = created.Object, true
		} else {
			r.RefusedManifest = !needsWebhook(created.Errors)
		}
		stored = withCreatedMeta(old, stored)
	}
	if len(errs) > 0 {
		if needsWebhook(errs) {
			return Effect{NotChecked: errs}
		}
		return Effect{Errors: errs}
	}
	r.Stored = stored
	_, _, own, _ := typeMeta(inObj)
	o, n := side{old, old.ServedVersions()}, side{next, next.ServedVersions()}
	losses, readErrs, atOwn := readLosses(ctx, o, n, stored, n.writeAt(own))
	update, written := n.nextWrite(ctx, stored, own, atOwn)
	var oldWritten map[string]any
	r.OldUpdate, oldWritten = o.nextWrite(ctx, stored, own, nil)
	r.Losses = append(losses, writtenLosses(ctx, o, n, writes{stored, oldWritten, written}, losses)...)
	r.Update = append(update, readErrs...)
	fresh := forCreate(inObj)
	r.Create = next.Write(ctx, fresh, nil).Errors
	r.OldCreate = old.Write(ctx, fresh, nil).Errors
	r.setNotChecked()
	return r
}

// isManifest reports an object with none of the metadata the apiserver
// sets on a create that a dump always has: a manifest.
func isManifest(obj map[string]any) bool {
	meta, _ := obj["metadata"].(map[string]any)
	for _, k := range []string{"uid", "resourceVersion", "creationTimestamp"} {
		if _, ok := meta[k]; ok {
			return false
		}
	}
	return true
}

// withCreatedMeta is stored, a manifest as stored under old (a map of
// its own), with the metadata the cluster stores it with and which
// CRD.Write's create result leaves out (the command's contract: nothing
// the server populates is added): a name generated from generateName
// when it has none, the request's namespace ("default") when a namespaced
// kind names none, no namespace for a cluster-scoped one (see
// embedded.MetaForCreate). Without the name, the next write of an object
// the apiserver did name is refused ("name or generateName is
// required"). Metadata that is not an object is left as it is.
func withCreatedMeta(old *crdschema.CRD, stored map[string]any) map[string]any {
	meta, ok := stored["metadata"].(map[string]any)
	if !ok {
		return stored
	}
	if s, _ := old.Version(old.StorageVersion()); s != nil {
		stored["metadata"] = embedded.MetaForCreate(meta, s.Namespaced())
	}
	return stored
}

// setNotChecked moves the errors of steps that need a conversion
// webhook to NotChecked, and leaves every list sorted (nil when empty).
func (r *Effect) setNotChecked() {
	for _, l := range []*field.ErrorList{&r.Update, &r.Create, &r.OldUpdate, &r.OldCreate} {
		var rest field.ErrorList
		for _, e := range *l {
			if needsWebhook(field.ErrorList{e}) {
				r.NotChecked = append(r.NotChecked, e)
			} else {
				rest = append(rest, e)
			}
		}
		errorsort.Sort(rest)
		*l = nonEmpty(rest)
	}
	errorsort.Sort(r.NotChecked)
	r.NotChecked = nonEmpty(slices.CompactFunc(r.NotChecked, func(a, b *field.Error) bool { return a.Error() == b.Error() }))
}

// needsWebhook reports errors that are the engine's refusal to convert
// without a converter (crdschema.CRD.Read: an InternalError at apiVersion
// naming the conversion webhook), the only errors there.
func needsWebhook(errs field.ErrorList) bool {
	for _, e := range errs {
		if e.Type != field.ErrorTypeInternal || !strings.Contains(e.Detail, "needs the conversion webhook") {
			return false
		}
	}
	return len(errs) > 0
}

// writes are a stored object and what the next write of it stored under
// each revision (nil where refused).
type writes struct {
	stored, old, next map[string]any
}

// writtenLosses are the fields the next write under next loses: the
// object it stored read back at every version next serves, against the
// object the old revision's next write stored (the stored object itself
// when that write is refused) read at the same version under old; a field
// already lost on the read at a version (losses) is not repeated.
func writtenLosses(ctx context.Context, old, next side, w writes, losses []Loss) []Loss {
	if w.next == nil {
		return nil
	}
	base := w.stored
	if w.old != nil {
		base = w.old
	}
	seen := map[string]bool{}
	for _, l := range losses {
		seen[l.Step+"\x00"+l.Path] = true
	}
	var out []Loss
	for _, v := range next.served {
		after := next.crd.Read(ctx, w.next, v)
		if after.Object == nil {
			continue
		}
		before, _ := old.readAsOld(ctx, base, v)
		delete(before, "apiVersion")
		objdiff.Walk(before, after.Object, jsonvalue.Equal, func(at objpath.Steps, d objdiff.Kind, _ any) {
			if d != objdiff.Added && !seen["read at "+v+"\x00"+at.String()] {
				out = append(out, Loss{Path: at.String(), Step: "written back, read at " + v, Changed: d == objdiff.Changed})
			}
		})
	}
	return out
}

// side is one revision of a replay, with the versions it serves (listed
// once).
type side struct {
	crd    *crdschema.CRD
	served []string
}

func (s side) serves(version string) bool { return slices.Contains(s.served, version) }

// storeAsOld converts obj, a normal JSON object of its own, to old's
// storage version through old's storage, as old stores it; obj is not
// changed. An object of another kind or group, or at a version old does
// not define, is refused with errors that name the old revision; those
// of the conversion are prefixed "store under the old revision: ".
func storeAsOld(ctx context.Context, old *crdschema.CRD, obj map[string]any) (map[string]any, field.ErrorList) {
	kind, group, version, ok := typeMeta(obj)
	if !ok {
		// A missing kind, an apiVersion with two slashes: the apiserver's
		// decoder refuses it, and so does Convert, in its words.
		return nil, old.Convert(ctx, obj, old.StorageVersion()).Errors
	}
	notFound := func(at, format string, args ...any) field.ErrorList {
		return field.ErrorList{&field.Error{Type: field.ErrorTypeNotFound, Field: at, BadValue: field.OmitValueType{}, Detail: fmt.Sprintf(format, args...)}}
	}
	gk := old.GroupKind()
	switch {
	case kind != gk.Kind:
		return nil, notFound("kind", "the old revision of CustomResourceDefinition %q defines kind %q, not %q", old.Name(), gk.Kind, kind)
	case group != gk.Group:
		return nil, notFound("apiVersion", "the old revision of CustomResourceDefinition %q defines group %q, not %q", old.Name(), gk.Group, group)
	case !slices.Contains(old.Versions(), version):
		return nil, notFound("apiVersion", "the old revision of CustomResourceDefinition %q does not define version %q, so the object cannot be stored under it", old.Name(), version)
	}
	r := old.Convert(ctx, obj, old.StorageVersion())
	if r.Object == nil {
		return nil, stepErrors("store under the old revision", r.Errors)
	}
	return r.Object, nil
}

// typeMeta is obj's kind and its apiVersion's group and version, when
// both are non-empty strings and the apiVersion holds at most one slash
// (what the apiserver's decoder takes).
func typeMeta(obj map[string]any) (kind, group, version string, ok bool) {
	kind, _ = obj["kind"].(string)
	apiVersion, _ := obj["apiVersion"].(string)
	if kind == "" || apiVersion == "" || strings.Count(apiVersion, "/") > 1 {
		return "", "", "", false
	}
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", apiVersion
	}
	return kind, group, version, true
}

// readLosses compares stored read at every version next serves with the
// same read under old (see Replay); the second result are the errors of
// the reads that fail under next, except at version written, whose
// failure is the next write's; the third the read at written, for the
// next write (nil when next does not serve it).
func readLosses(ctx context.Context, old, next side, stored map[string]any, written string) ([]Loss, field.ErrorList, *crdschema.Result) {
	var losses []Loss
	var errs field.ErrorList
	var atWritten *crdschema.Result
	for _, v := range next.served {
		after := next.crd.Read(ctx, stored, v)
		if v == written {
			read := after
			atWritten = &read
		}
		before, ok := old.readAsOld(ctx, stored, v)
		if after.Object == nil {
			if ok && v != written && old.serves(v) {
				errs = append(errs, stepErrors("read at "+v, after.Errors)...)
			}
			continue
		}
		delete(before, "apiVersion")
		step := "read at " + v
		objdiff.Walk(before, after.Object, jsonvalue.Equal, func(at objpath.Steps, d objdiff.Kind, _ any) {
			if d != objdiff.Added { // a field only the new read has (a new default) is no loss
				losses = append(losses, Loss{Path: at.String(), Step: step, Changed: d == objdiff.Changed})
			}
		})
	}
	return losses, errs, atWritten
}

// readAsOld is stored decoded at version v by s, an old revision (its own
// validity and the served flags aside: CRD.Decode), at its storage
// version when s does not serve v. When the read fails: a copy of stored
// itself, and false.
func (s side) readAsOld(ctx context.Context, stored map[string]any, v string) (map[string]any, bool) {
	if !s.serves(v) {
		v = s.crd.StorageVersion()
	}
	if r := s.crd.Decode(ctx, stored, v); r.Object != nil {
		return r.Object, true
	}
	return deepCopyMap(stored), false
}

// nextWrite is the update a controller makes of the unchanged object
// under s: stored read at version own (the storage version when s does
// not serve own), written back over stored: its errors, and the object
// as stored (nil when refused). read is that read when the caller has
// made it (nil: made here).
func (s side) nextWrite(ctx context.Context, stored map[string]any, own string, read *crdschema.Result) (field.ErrorList, map[string]any) {
	at := s.writeAt(own)
	var cur crdschema.Result
	if read != nil {
		cur = *read
	} else {
		cur = s.crd.Read(ctx, stored, at)
	}
	if cur.Object == nil {
		return stepErrors("read at "+at, cur.Errors), nil
	}
	w := s.crd.Write(ctx, cur.Object, stored)
	return nonEmpty(w.Errors), w.Object
}

// writeAt is the version a client of version own reads and writes the
// object at under s: own, or the storage version when s does not serve
// own.
func (s side) writeAt(own string) string {
	if !s.serves(own) {
		return s.crd.StorageVersion()
	}
	return own
}

// serverSet are the metadata fields the apiserver sets itself on a
// create: a create request carrying a resourceVersion is refused, uid
// and creationTimestamp are overwritten, deletionTimestamp and its grace
// period are cleared, the generation restarts at 1, managedFields are
// the field manager's.
var serverSet = []string{
	"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields",
	"selfLink", "deletionTimestamp", "deletionGracePeriodSeconds",
}

// forCreate is obj without the metadata the apiserver sets itself on a
// create (serverSet): a fresh `kubectl apply` of an object taken from a
// dump carries none of them. obj is not changed.
func forCreate(obj map[string]any) map[string]any {
	out := deepCopyMap(obj)
	if meta, ok := out["metadata"].(map[string]any); ok {
		for _, k := range serverSet {
			delete(meta, k)
		}
	}
	return out
}

// deepCopyMap copies a JSON object so that nothing is shared with it.
func deepCopyMap(m map[string]any) map[string]any {
	out, _ := jsonvalue.DeepCopy(m).(map[string]any)
	return out
}

// nonEmpty is errs, nil when empty.
func nonEmpty(errs field.ErrorList) field.ErrorList {
	if len(errs) == 0 {
		return nil
	}
	return errs
}
