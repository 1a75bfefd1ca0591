package conversion

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

// Version is what the storage needs of one version of a CRD.
type Version struct {
	// Schema is the version's structural schema: objects at the version
	// are pruned with it and their embedded resources coerced by it. Nil
	// for a version without schema.
	Schema *structural.Schema
	// Defaults is the schema objects read at the version are defaulted
	// with (the apiserver's: defaults pruned and coerced, see
	// defaulting.PruneDefaults); nil applies no defaults.
	Defaults *structural.Schema
}

// Storage is the storage of one CRD's custom resources: its group, the
// schemas of every version it defines (served or not) and its conversion
// strategy. It is immutable and safe for concurrent use.
type Storage struct {
	name, group           string
	versions              map[string]Version
	preserveUnknownFields bool
	webhook               bool
	// class numbers the versions, equal for versions with the same
	// schemas (schemaClasses).
	class map[string]int
	// apiVersion is each version's apiVersion (group/version), which
	// every object converted to it gets, boxed once.
	apiVersion map[string]any
	// narrow holds how step 4 of Read coerces, by versions read from and
	// at (step4), built on first use under mu.
	mu     sync.Mutex
	narrow map[[2]string]coercion
}

// NewStorage is the storage of the CRD named name (its metadata.name, for
// messages) of group, defining versions (by name); preserveUnknownFields
// is spec.preserveUnknownFields (v1beta1 CRDs: nothing is pruned); webhook
// is set for the conversion strategy Webhook (otherwise None: conversion
// only sets apiVersion). versions must not be changed afterwards.
func NewStorage(name, group string, versions map[string]Version, preserveUnknownFields, webhook bool) *Storage {
	apiVersion := make(map[string]any, len(versions))
	for v := range versions {
		apiVersion[v] = group + "/" + v
	}
	return &Storage{name: name, group: group, versions: versions, preserveUnknownFields: preserveUnknownFields, webhook: webhook,
		class: schemaClasses(versions), apiVersion: apiVersion, narrow: map[[2]string]coercion{}}
}

// Read is what the apiserver serves for stored, an object as stored in
// etcd at the version its apiVersion names, on a request at version to
// (the apiserver's versioning codec with the CRD's schema-coercing
// decoder, defaulter and converter):
//
//  1. with the stored version's schema: coerce the root metadata,
//     malformed fields dropped; prune; drop non-nullable nulls without
//     default; coerce embedded resources, malformed parts dropped; a
//     missing (or zero) metadata.generation becomes 1;
//  2. apply the stored version's defaults;
//  3. convert to version to (strategy Webhook: through conv; without one,
//     only objects already at version to can be read);
//  4. with to's schema: coerce metadata (malformed metadata fails); prune;
//     drop nulls; coerce embedded resources (a malformed one fails the
//     read).
//
// to's defaults are not applied. Where step 4 gets the object as step 1
// left it but for apiVersion and defaults (strategy None, or strategy
// Webhook from a version to itself), it does what would change nothing
// only where it could change something: between versions whose schemas
// are the same it does not prune again (there is nothing left to prune),
// otherwise it prunes only where their schemas differ, and it does not
// coerce the root's metadata again, which step 1 coerced, unless the
// defaults put something there. Read changes stored in place and returns
// the served object (nil on error), the unknown-field paths dropped in
// steps 1 and 4 (unsorted, possibly repeated), and the errors. A read that
// fails in step 4 on a malformed embedded resource still returns the paths
// dropped before (step 1's, and step 4's pruning, which precedes the
// coercion), as the apiserver's answers list them; one that fails earlier
// returns none. The caller checks that stored is of the storage's group
// and kind and that its version is defined, and to served.
func (s *Storage) Read(ctx context.Context, stored map[string]any, to string, conv *Converter) (map[string]any, []string, field.ErrorList) {
	from := versionOf(stored)
	if _, found := stored["metadata"]; !found {
		// The decoder repairs the generation of the ObjectMeta it did not
		// find: a nil pointer dereference, answered with a 500.
		return nil, nil, field.ErrorList{field.InternalError(field.NewPath("metadata"),
			fmt.Errorf("the storage decoder panics on an object without metadata: runtime error: invalid memory address or nil pointer dereference"))}
	}
	pruned, errs := s.coerce(stored, s.versions[from].Schema, coercion{onRead: true, prune: true, pruneWith: s.versions[from].Schema, rootMeta: true})
	if len(errs) > 0 {
		return nil, nil, errs
	}
	defaulting.Default(stored, s.versions[from].Defaults)
	out, errs := s.convert(ctx, stored, from, to, conv)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	// Between versions with the same schemas, where only apiVersion
	// changes, step 4's pruning finds nothing left to prune, and elsewhere
	// only where the schemas differ (step4). Its coercion of embedded
	// resources still runs: step 1 keeps some malformed embedded metadata
	// (a string metadata) that step 4 rejects.
	more, errs := s.coerce(out, s.versions[to].Schema, s.step4(from, to))
	pruned = append(pruned, more...)
	if len(errs) > 0 {
		return nil, pruned, errs
	}
	return out, pruned, nil
}

// Convert is the storage's converter alone: obj, an object at the version
// its apiVersion names (already pruned and defaulted there), converted to
// version to and then pruned and coerced with to's schema (malformed
// metadata or embedded resources fail; no defaults). It is what a create
// or an update goes through on its way to etcd (to is then the storage
// version), and steps 3 and 4 of Read. obj may be changed; the result
// (nil on error) may share with it. The unknown-field paths dropped at to
// are returned unsorted, also when a malformed embedded resource fails
// the coercion after them (as in Read).
func (s *Storage) Convert(ctx context.Context, obj map[string]any, to string, conv *Converter) (map[string]any, []string, field.ErrorList) {
	out, errs := s.convert(ctx, obj, versionOf(obj), to, conv)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	pruned, errs := s.coerce(out, s.versions[to].Schema, coercion{prune: true, pruneWith: s.versions[to].Schema, rootMeta: true})
	if len(errs) > 0 {
		return nil, pruned, errs
	}
	return out, pruned, nil
}

// coercion says what coerce does.
type coercion struct {
	// onRead is the storage decoder's coercion (malformed metadata
	// dropped, generation repaired), otherwise the converter's.
	onRead bool
	// prune prunes (with the drop of non-nullable nulls) with pruneWith.
	prune     bool
	pruneWith *structural.Schema
	// rootMeta coerces the root's metadata.
	rootMeta bool
}

// coerce is the apiserver's unstructuredSchemaCoercer on obj with schema
// sch, in place, as how says. When a malformed embedded resource fails the
// coercion, the paths of the root metadata and pruning, which come before
// it, are returned with the error; those of embedded metadata are not (the
// apiserver walks maps in random order, so which of them precede the
// failure is not fixed).
func (s *Storage) coerce(obj map[string]any, sch *structural.Schema, how coercion) ([]string, field.ErrorList) {
	opts := embedded.CoerceOptions{DropMalformed: how.onRead, ReturnPaths: true}
	var metaPaths []string
	if how.rootMeta {
		var err *field.Error
		if metaPaths, err = embedded.CoerceResourceMeta(obj, opts); err != nil {
			return nil, field.ErrorList{err}
		}
	}
	var paths []string
	if how.prune && !s.preserveUnknownFields {
		paths = prune.Prune(obj, how.pruneWith, prune.Options{ResourceRoot: true, ReturnPaths: true, DropNulls: true})
	}
	out := append(metaPaths, paths...)
	embeddedPaths, errs := embedded.CoerceEmbedded(obj, sch, opts)
	if len(errs) > 0 {
		// The apiserver stops at the first malformed resource it meets.
		return out, errs[:1]
	}
	if how.onRead {
		repairGeneration(obj)
	}
	return append(out, embeddedPaths...), nil
}

// repairGeneration sets a missing metadata.generation to 1, as the storage
// decoder does for very old objects (coercion already dropped a zero one).
func repairGeneration(obj map[string]any) {
	meta, ok := obj["metadata"].(map[string]any)
	if !ok {
		meta = map[string]any{}
		obj["metadata"] = meta
	}
	if _, ok := meta["generation"]; !ok {
		meta["generation"] = int64(1)
	}
}

// convert is step 3 of Read: obj, read at version from, converted to
// version to.
func (s *Storage) convert(ctx context.Context, obj map[string]any, from, to string, conv *Converter) (map[string]any, field.ErrorList) {
	boxed, ok := s.apiVersion[to]
	if !ok {
		boxed = s.group + "/" + to
	}
	desired := boxed.(string)
	if !s.webhook || from == to {
		obj["apiVersion"] = boxed
		return obj, nil
	}
	if conv == nil {
		return nil, field.ErrorList{field.InternalError(field.NewPath("apiVersion"),
			fmt.Errorf("converting %s/%s to %s needs the conversion webhook of CustomResourceDefinition %q", s.group, from, desired, s.name))}
	}
	out, err := conv.Convert(ctx, []map[string]any{obj}, desired)
	if err != nil {
		return nil, field.ErrorList{err}
	}
	return out[0], nil
}

// versionOf is the version part of obj's apiVersion.
func versionOf(obj map[string]any) string {
	av, _ := obj["apiVersion"].(string)
	if i := strings.LastIndexByte(av, '/'); i >= 0 {
		return av[i+1:]
	}
	return av
}
