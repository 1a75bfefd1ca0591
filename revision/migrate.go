package revision

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objdiff"
	"github.com/crdschema/crdschema/internal/objpath"
)

// Migration is what the storage-version migration does to one object the
// cluster stores (Migrate): its rewrite by a no-op update, which stores
// it at the CRD's storage version.
type Migration struct {
	// Stored is the object as stored before the migration, at the version
	// its apiVersion names.
	Stored map[string]any
	// Migrated is the object as stored after the rewrite, at the storage
	// version of the CRD migrated under; nil when the rewrite fails.
	Migrated map[string]any
	// Losses are the fields a read of the object had before the rewrite
	// and lacks, or holds with another value (Changed), after it; Step is
	// "read at VERSION".
	Losses []Loss
	// Update are the errors of the rewrite: a read that fails ("read at
	// VERSION: " before the detail), or the update the apiserver rejects
	// (then Migrated is nil: the object stays stored as it was); or a
	// read after the rewrite that fails where the same read before it
	// worked ("read at VERSION after the rewrite: "; Migrated is set).
	// Nil when the object is migrated.
	Update field.ErrorList
	// Errors are why the object is not migrated at all: it is not of the
	// CRD's group and kind, names a version the CRD does not define,
	// cannot be stored under the old revision, or has no metadata.name (a
	// manifest: it names no stored object); the other fields are then
	// empty.
	Errors field.ErrorList
}

// Migrate is the storage-version migration of obj, an object the cluster
// stores, under next, the CRD whose storage version the objects are to
// be moved to: what kube-storage-version-migrator does to each object,
// and the guide "Versions in CustomResourceDefinitions" asks for before
// an old version is dropped from status.storedVersions. obj is read at
// next's preferred version (the first of ServedVersions, the version the
// migrator lists the resource at) and written back unchanged as an update
// of the stored object (CRD.Read, then CRD.Write: ratcheting lets
// unchanged values through, as in the apiserver), which stores it at
// next's storage version. next converts through its converter
// (WithConverter) when its strategy is Webhook; without one, an object
// that needs converting fails its read. obj is not changed.
//
// With old nil, obj is taken as stored under next at the version its
// apiVersion names (a dump of a cluster that already has next), never
// validated. With old, the revision the cluster had before next (the
// storage switch is part of an upgrade; next must be an update of old the
// apiserver accepts, crdschema.CheckUpdate), obj is stored as old stores
// it, as Replay does: converted to old's storage version through old's
// storage.
//
// Losses compare, at every version next serves and at the version obj is
// stored at, the object as the revision it was stored under reads it
// before the rewrite (CRD.Decode: old's read with old, next's without;
// versions it does not define are left out) with next's read of it after
// the rewrite: the fields the rewrite drops (a field the storage
// version's schema does not declare is pruned on the way in) or changes,
// sorted by next's version priority and path. A field only the later
// read has (a default the write persisted) is not a loss. A nil next is
// an error in Errors, and so is metadata without a name (a
// manifest with only generateName names no stored object: no name is
// made up for it, as Replay does for a create).
func Migrate(ctx context.Context, old, next *crdschema.CRD, obj map[string]any) Migration {
	if next == nil {
		return Migration{Errors: field.ErrorList{&field.Error{Type: field.ErrorTypeInternal, BadValue: field.OmitValueType{},
			Detail: "no CRD to migrate under: an object is migrated to the storage version of the CRD that stores it"}}}
	}
	in, errs := normalObject(ctx, next, obj)
	if len(errs) > 0 {
		return Migration{Errors: errs}
	}
	ref := next
	var stored map[string]any
	if old != nil {
		ref = old
		stored, errs = storeAsOld(ctx, old, in)
	} else {
		stored, errs = storedUnder(next, in)
	}
	if len(errs) == 0 {
		errs = unnamed(in)
	}
	if len(errs) > 0 {
		return Migration{Errors: errs}
	}
	m := Migration{Stored: stored}
	served := next.ServedVersions()
	if len(served) == 0 {
		m.Update = field.ErrorList{&field.Error{Type: field.ErrorTypeNotFound, Field: "apiVersion", BadValue: field.OmitValueType{},
			Detail: fmt.Sprintf("CustomResourceDefinition %q serves no version: no client can read or write the object", next.Name())}}
		return m
	}
	via := served[0]
	read := next.Read(ctx, stored, via)
	if read.Object == nil {
		m.Update = stepErrors("read at "+via, read.Errors)
		return m
	}
	written := next.Write(ctx, read.Object, stored)
	if written.Object == nil || len(written.Errors) > 0 {
		m.Update = nonEmpty(written.Errors)
		return m
	}
	m.Migrated = written.Object
	m.Losses, m.Update = rewriteLosses(ctx, ref, next, stored, written.Object)
	return m
}

// unnamed refuses obj when its metadata has no name: a manifest (with
// only generateName, the apiserver names the object on create), not an
// object the cluster stores, so nothing to migrate. Migrate's output is
// objects to write back: it invents no name (Replay does, for a create).
// No metadata, or metadata that is not an object, is left to the
// engine's words (the apiserver's storage decoder fails on it).
func unnamed(obj map[string]any) field.ErrorList {
	meta, ok := obj["metadata"].(map[string]any)
	if !ok {
		return nil
	}
	if name := meta["name"]; name != nil && name != "" {
		return nil
	}
	detail := "an object without a name names no stored object (a manifest, not an object from the cluster)"
	if _, ok := meta["generateName"]; ok {
		detail = "a manifest with only metadata.generateName names no stored object (the apiserver generates the name when it creates it)"
	}
	return field.ErrorList{field.Required(field.NewPath("metadata", "name"), detail)}
}

// normalObject is obj as the apiserver's decoder would have it (obj
// itself when it is, as decoded objects are), or the engine's errors for
// an object it cannot take.
func normalObject(ctx context.Context, crd *crdschema.CRD, obj map[string]any) (map[string]any, field.ErrorList) {
	if jsonvalue.IsNormal(obj, jsonvalue.MaxDepth) {
		if obj == nil {
			return map[string]any{}, nil
		}
		return obj, nil
	}
	in, err := jsonvalue.Normalize(obj, jsonvalue.MaxDepth)
	if err != nil {
		// Nested too deep, or a value with no JSON form: the engine
		// words why it cannot be taken.
		return nil, crd.Convert(ctx, obj, crd.StorageVersion()).Errors
	}
	m, _ := in.(map[string]any)
	return m, nil
}

// storedUnder is a copy of obj, taken as crd stores it at the version its
// apiVersion names, or the errors that say why crd cannot have stored it.
func storedUnder(crd *crdschema.CRD, obj map[string]any) (map[string]any, field.ErrorList) {
	kind, group, version, ok := typeMeta(obj)
	if !ok {
		return nil, crd.Convert(context.Background(), obj, crd.StorageVersion()).Errors
	}
	notFound := func(at, format string, args ...any) field.ErrorList {
		return field.ErrorList{&field.Error{Type: field.ErrorTypeNotFound, Field: at, BadValue: field.OmitValueType{}, Detail: fmt.Sprintf(format, args...)}}
	}
	gk := crd.GroupKind()
	switch {
	case kind != gk.Kind:
		return nil, notFound("kind", "CustomResourceDefinition %q defines kind %q, not %q", crd.Name(), gk.Kind, kind)
	case group != gk.Group:
		return nil, notFound("apiVersion", "CustomResourceDefinition %q defines group %q, not %q", crd.Name(), gk.Group, group)
	case !slices.Contains(crd.Versions(), version):
		return nil, notFound("apiVersion", "CustomResourceDefinition %q does not define version %q, so no object is stored at it", crd.Name(), version)
	}
	return deepCopyMap(obj), nil
}

// rewriteLosses compares stored as ref reads it with migrated as next
// reads it (see Migrate); the second result are the errors of the reads
// of migrated that fail where ref's read of stored worked.
func rewriteLosses(ctx context.Context, ref, next *crdschema.CRD, stored, migrated map[string]any) ([]Loss, field.ErrorList) {
	versions := next.ServedVersions()
	if _, own, _, ok := typeMeta(stored); ok && !slices.Contains(versions, own) {
		versions = append(versions, own)
	}
	var losses []Loss
	var errs field.ErrorList
	defined := ref.Versions()
	for _, v := range versions {
		if !slices.Contains(defined, v) {
			continue
		}
		before := ref.Decode(ctx, stored, v)
		if before.Object == nil {
			continue // nothing a client of v could read before: nothing to lose
		}
		after := next.Decode(ctx, migrated, v)
		if after.Object == nil {
			errs = append(errs, stepErrors("read at "+v+" after the rewrite", after.Errors)...)
			continue
		}
		step := "read at " + v
		objdiff.Walk(before.Object, after.Object, jsonvalue.Equal, func(at objpath.Steps, d objdiff.Kind, _ any) {
			if d != objdiff.Added { // a field only the later read has (a persisted default) is no loss
				losses = append(losses, Loss{Path: at.String(), Step: step, Changed: d == objdiff.Changed})
			}
		})
	}
	return losses, nonEmpty(errs)
}
