package crdschema

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/conversion"
	"github.com/crdschema/crdschema/internal/errorsort"
)

// Replay is what a new revision of a CRD does to one object the cluster
// stores under the old revision (CRD.Replay).
type Replay struct {
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
	// Errors are why the object could not be replayed (another kind, a
	// version the old revision does not define, a failing conversion);
	// the other fields are then empty.
	Errors field.ErrorList
}

// Replay reports what the receiver, a new revision of old, does to obj,
// an object the cluster stores under old (typically from a dump of the
// cluster or a repository's examples). conv converts for a CRD with
// strategy Webhook (nil: none) under either revision. obj is not changed;
// a nil old is an error in Replay.Errors.
//
// obj is taken as stored, never validated (a dump has status, server-set
// metadata and values older rules accepted): it is converted from the
// version its apiVersion names to old's storage version through old's
// storage (strategy None: apiVersion changes and the storage version's
// schema prunes) and becomes Replay.Stored. An object that is not of
// old's group and kind, names a version old does not define, or fails
// that conversion is not replayed: Replay.Errors says why and nothing
// else is filled. An old revision the apiserver would reject (old.Errors)
// is still used for the conversion and the reads losses are measured
// against, but its requests are refused: OldUpdate and OldCreate then
// hold that refusal.
//
// Then, under the receiver:
//
//   - Losses: Stored read at every version the receiver serves (ReadWith),
//     against Stored read under old at the same version, or at old's
//     storage version when old does not serve it (apiVersion aside): every
//     field the old read has that the new read lacks, or holds with
//     another value (Changed), sorted by the receiver's version priority
//     and path. Fields only the new read has (a new default) are not
//     losses. A read at a version old serves that fails under the
//     receiver and not under old loses nothing field by field: its errors
//     go to Update, each detail prefixed "read at VERSION: " (a client of
//     that version can no longer get the object to write it back). A read
//     that fails under both (a Webhook strategy without conv) is no
//     finding.
//   - Update: the controller's next write of the unchanged object: Stored
//     read at obj's own version (the receiver's storage version when it
//     no longer serves it), written back as an update of Stored (Write,
//     so ratcheting applies to unchanged values); a failing read there is
//     the write's error. OldUpdate is the same under old.
//   - Create: obj as a fresh `kubectl apply` to a cluster that does not
//     have it: obj without the metadata the apiserver sets itself (uid,
//     resourceVersion, creationTimestamp, generation, managedFields,
//     selfLink, deletionTimestamp, deletionGracePeriodSeconds), created at
//     its apiVersion (Write with no old object: status is reset where the
//     status subresource is on). OldCreate is the same under old.
//
// Errors in each list are sorted; a nil list is an accepted request.
func (c *CRD) Replay(ctx context.Context, old *CRD, obj map[string]any, conv *conversion.Converter) Replay {
	if old == nil {
		return Replay{Errors: field.ErrorList{&field.Error{Type: field.ErrorTypeInternal, BadValue: field.OmitValueType{},
			Detail: "no old revision: an object is replayed from the revision that stores it"}}}
	}
	in, err := copyObject(obj)
	if err != nil {
		return Replay{Errors: field.ErrorList{err}}
	}
	if in == nil {
		in = map[string]any{}
	}
	stored, errs := old.storeAsOld(ctx, in, conv)
	if len(errs) > 0 {
		return Replay{Errors: errs}
	}
	r := Replay{Stored: stored}
	_, own := splitAPIVersion(in["apiVersion"].(string))
	losses, readErrs, written := c.readLosses(ctx, old, stored, c.writeAt(own), conv)
	r.Losses = losses
	r.Update = nonEmpty(append(c.nextWrite(ctx, stored, own, conv, written), readErrs...))
	errorsort.Sort(r.Update)
	r.OldUpdate = old.nextWrite(ctx, stored, own, conv, nil)
	fresh := forCreate(in)
	r.Create = nonEmpty(c.Write(ctx, fresh, nil, conv).Errors)
	r.OldCreate = nonEmpty(old.Write(ctx, fresh, nil, conv).Errors)
	return r
}

// storeAsOld converts obj to the receiver's storage version through its
// storage, as the receiver stores it; obj is not changed.
func (c *CRD) storeAsOld(ctx context.Context, obj map[string]any, conv *conversion.Converter) (map[string]any, field.ErrorList) {
	if err := routingTypeMeta(obj); err != nil {
		return nil, field.ErrorList{err}
	}
	group, version := splitAPIVersion(obj["apiVersion"].(string))
	notFound := func(at, format string, args ...any) field.ErrorList {
		return field.ErrorList{&field.Error{Type: field.ErrorTypeNotFound, Field: at, BadValue: field.OmitValueType{}, Detail: fmt.Sprintf(format, args...)}}
	}
	switch kind := obj["kind"].(string); {
	case kind != c.crd.Spec.Names.Kind:
		return nil, notFound("kind", "the old revision of CustomResourceDefinition %q defines kind %q, not %q", c.Name(), c.crd.Spec.Names.Kind, kind)
	case group != c.crd.Spec.Group:
		return nil, notFound("apiVersion", "the old revision of CustomResourceDefinition %q defines group %q, not %q", c.Name(), c.crd.Spec.Group, group)
	}
	if _, defined := c.serves(version); !defined {
		return nil, notFound("apiVersion", "the old revision of CustomResourceDefinition %q does not define version %q, so the object cannot be stored under it", c.Name(), version)
	}
	st, err := c.storage()
	if err != nil {
		return nil, field.ErrorList{field.InternalError(field.NewPath("kind"), err)}
	}
	out, _, errs := st.Convert(ctx, deepCopyMap(obj), c.StorageVersion(), conv)
	if len(errs) > 0 {
		return nil, stepErrors("store under the old revision", Result{Errors: errs})
	}
	return out, nil
}

// readLosses compares stored read at every version the receiver serves
// with the same read under old (see Replay); the second result are the
// errors of the reads that fail under the receiver, except at version
// written, whose failure is the next write's; the third the read at
// written, for the next write (nil when the receiver does not serve it).
func (c *CRD) readLosses(ctx context.Context, old *CRD, stored map[string]any, written string, conv *conversion.Converter) ([]Loss, field.ErrorList, *Result) {
	var losses []Loss
	var errs field.ErrorList
	var atWritten *Result
	for _, v := range c.ServedVersions() {
		after := c.ReadWith(ctx, stored, v, conv)
		if v == written {
			read := after
			atWritten = &read
		}
		before, ok := old.readAsOld(ctx, stored, v, conv)
		if after.Object == nil {
			if served, _ := old.serves(v); served && ok && v != written {
				errs = append(errs, stepErrors("read at "+v, after)...)
			}
			continue
		}
		delete(before, "apiVersion")
		step := "read at " + v
		diffFields(before, after.Object, "", func(path string, d fieldDiff, _ any) {
			if d != fieldAdded { // a field only the new read has (a new default) is no loss
				losses = append(losses, Loss{Path: path, Step: step, Changed: d == fieldChanged})
			}
		})
	}
	return losses, errs, atWritten
}

// readAsOld is stored read at version v under the receiver, an old
// revision, through its storage (the receiver's own validity and the
// served flags aside): at its storage version when it does not serve v.
// When the read fails: stored itself, and false.
func (c *CRD) readAsOld(ctx context.Context, stored map[string]any, v string, conv *conversion.Converter) (map[string]any, bool) {
	if served, _ := c.serves(v); !served {
		v = c.StorageVersion()
	}
	if st, err := c.storage(); err == nil {
		if out, _, errs := st.Read(ctx, deepCopyMap(stored), v, conv); len(errs) == 0 {
			return out, true
		}
	}
	return deepCopyMap(stored), false
}

// nextWrite is the update a controller makes of the unchanged object
// under the receiver: stored read at version own (the storage version
// when the receiver does not serve own), written back over stored.
// read is that read when the caller has made it (nil: made here).
func (c *CRD) nextWrite(ctx context.Context, stored map[string]any, own string, conv *conversion.Converter, read *Result) field.ErrorList {
	at := c.writeAt(own)
	var cur Result
	if read != nil {
		cur = *read
	} else {
		cur = c.ReadWith(ctx, stored, at, conv)
	}
	if cur.Object == nil {
		return stepErrors("read at "+at, cur)
	}
	return nonEmpty(c.Write(ctx, cur.Object, stored, conv).Errors)
}

// writeAt is the version a client of version own reads and writes the
// object at under the receiver: own, or the storage version when the
// receiver does not serve own.
func (c *CRD) writeAt(own string) string {
	if served, _ := c.serves(own); !served {
		return c.StorageVersion()
	}
	return own
}

// forCreate is obj without the metadata the apiserver sets itself on a
// create: a create request carrying a resourceVersion is refused, uid and
// creationTimestamp are overwritten, deletionTimestamp and its grace
// period are cleared, the generation restarts at 1, managedFields are the
// field manager's. A fresh `kubectl apply` of an object taken from a dump
// carries none of them.
func forCreate(obj map[string]any) map[string]any {
	out := deepCopyMap(obj)
	if meta, ok := out["metadata"].(map[string]any); ok {
		for _, k := range []string{
			"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields",
			"selfLink", "deletionTimestamp", "deletionGracePeriodSeconds",
		} {
			delete(meta, k)
		}
	}
	return out
}

// nonEmpty is errs, nil when empty.
func nonEmpty(errs field.ErrorList) field.ErrorList {
	if len(errs) == 0 {
		return nil
	}
	return errs
}
