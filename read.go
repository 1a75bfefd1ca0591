package crdschema

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/conversion"
	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/jsonfast"
	"github.com/crdschema/crdschema/internal/kubeversion"
	"github.com/crdschema/crdschema/schema"
)

// Read is what the apiserver serves for stored, an object as stored in
// etcd, on a GET at version (a version name, or GROUP/VERSION): the
// storage read path of the CRD's custom resource storage (Decode), after
// the checks of a request. stored's apiVersion names the version it is
// stored at, which the CRD must define (served or not); version must be
// served, and the CRD one the apiserver accepts. The object is pruned,
// its metadata coerced (malformed fields dropped, a missing generation set
// to 1) and defaulted with the stored version's schema, converted
// (strategy None: only apiVersion changes; strategy Webhook: through the
// CRD's converter, see WithConverter, whose answers are checked and
// restored as the apiserver does), then pruned and coerced with the
// requested version's schema, whose defaults are not applied.
// Result.Pruned lists the unknown fields dropped on both sides, also when
// a malformed embedded resource fails the read after them; the
// apiserver warns a GET only about a deprecated version
// (Result.Deprecation), not about them. ctx bounds the webhook call.
//
// A CRD with strategy Webhook and no converter reports an InternalError
// at apiVersion for an object read at another version. Errors:
// FieldValueNotFound at kind (another kind, or a CRD the apiserver would
// reject) or apiVersion (another group, a version not defined or, for
// version, not served); an InternalError at metadata when stored has no
// metadata (the apiserver's decoder panics); FieldValueInvalid at
// metadata when it is not an object, and at an embedded resource
// malformed under the requested version's schema. stored is not changed.
func (c *CRD) Read(ctx context.Context, stored map[string]any, version string) Result {
	obj, err := copyObject(stored)
	if err != nil {
		return refused(err)
	}
	return c.readOwned(ctx, obj, version, true)
}

// ReadJSON is Read for an object given as the JSON (or YAML) bytes it is
// stored as, decoded as the apiserver's storage decoder does (integers as
// int64). It saves Read's copy of the object, as the decoded object is
// the Result's. It fails when data is not exactly one mapping document.
func (c *CRD) ReadJSON(ctx context.Context, data []byte, version string) (Result, error) {
	if v, ok := jsonfast.Decode(data); ok {
		if obj, ok := v.(map[string]any); ok && !isList(obj) {
			return c.readOwned(ctx, obj, version, true), nil
		}
	}
	docs, err := schema.ReadDocuments("object", data)
	if err != nil {
		return Result{}, err
	}
	if len(docs) != 1 || docs[0].Object == nil {
		return Result{}, errors.New("the object is not exactly one mapping document")
	}
	return c.readOwned(ctx, docs[0].Object, version, true), nil
}

// Decode is the storage read path of Read on its own, below the served
// API: what the CRD's storage decodes stored into at version, for
// analyses of stored data (a storage migration, a new revision replayed
// against what an old one stored). Unlike Read, version may be any
// version the CRD defines, served or not, and a CRD the apiserver would
// reject decodes as its schemas say (as long as they compile); no
// deprecation warning is given, as no request is made. Its errors are
// Read's otherwise. stored is not changed.
func (c *CRD) Decode(ctx context.Context, stored map[string]any, version string) Result {
	obj, err := copyObject(stored)
	if err != nil {
		return refused(err)
	}
	return c.readOwned(ctx, obj, version, false)
}

// Convert is the CRD's storage converter alone: obj, an object at the
// version its apiVersion names (any version the CRD defines), converted
// to version (any version it defines; strategy None: only apiVersion
// changes; strategy Webhook: through the CRD's converter, see
// WithConverter), then pruned and coerced with version's schema:
// malformed metadata or embedded resources fail, no defaults are applied
// and nothing is validated. It is what a write goes through after
// validation on its way to etcd (Write, version being the storage
// version), and how a storage migration or an analysis stores an object
// it takes as it is (a dump of a cluster). A CRD the apiserver would
// reject converts as its schemas say. Result.Pruned lists the unknown
// fields dropped at version (also when a malformed embedded resource
// fails the conversion after them). Errors are those of Decode, and the
// conversion's. obj is not changed.
func (c *CRD) Convert(ctx context.Context, obj map[string]any, version string) Result {
	in, err := copyObject(obj)
	if err != nil {
		return refused(err)
	}
	to, st, ferr := c.readTarget(in, version, false)
	if ferr != nil {
		return refused(ferr)
	}
	out, pruned, errs := st.Convert(ctx, in, to, c.conv)
	if len(errs) > 0 {
		errorsort.Sort(errs)
		return Result{Pruned: sortedUnique(pruned), Errors: errs}
	}
	return Result{Object: out, Pruned: sortedUnique(pruned)}
}

// isList tells a decoded object that schema.ReadDocuments would split
// into its items (a kind ending in List, with an items array).
func isList(obj map[string]any) bool {
	kind, _ := obj["kind"].(string)
	_, items := obj["items"].([]any)
	return items && strings.HasSuffix(kind, "List")
}

// readOwned is Read (request set) or Decode on an object it may change.
func (c *CRD) readOwned(ctx context.Context, obj map[string]any, version string, request bool) Result {
	to, st, ferr := c.readTarget(obj, version, request)
	if ferr != nil {
		return refused(ferr)
	}
	out, pruned, errs := st.Read(ctx, obj, to, c.conv)
	r := Result{Pruned: sortedUnique(pruned)}
	if request { // Decode makes no request: no deprecation warning
		if s, err := c.compiledVersion(to); err == nil {
			r.Deprecation = s.deprecation // built once, with the version
		} else {
			r.Deprecation = c.deprecation(to)
		}
	}
	if len(errs) > 0 {
		errorsort.Sort(errs)
		r.Errors = errs
		return r
	}
	r.Object = out
	return r
}

// readTarget checks an object and a version it is read or converted at
// and returns the version's name and the CRD's storage. A request (Read,
// Write) also needs a CRD the apiserver accepts and a served version;
// otherwise (Decode, Convert) the version must be defined.
func (c *CRD) readTarget(obj map[string]any, version string, request bool) (string, *conversion.Storage, *field.Error) {
	var none *conversion.Storage
	if obj == nil {
		obj = map[string]any{}
	}
	if err := routingTypeMeta(obj); err != nil {
		return "", none, err
	}
	group, from := splitAPIVersion(obj["apiVersion"].(string))
	notFound := func(at string, format string, args ...any) (string, *conversion.Storage, *field.Error) {
		return "", none, &field.Error{Type: field.ErrorTypeNotFound, Field: at, BadValue: field.OmitValueType{}, Detail: fmt.Sprintf(format, args...)}
	}
	kind := obj["kind"].(string)
	switch {
	case kind != c.crd.Spec.Names.Kind:
		return notFound("kind", "CustomResourceDefinition %q defines kind %q, not %q", c.Name(), c.crd.Spec.Names.Kind, kind)
	case group != c.crd.Spec.Group:
		return notFound("apiVersion", "CustomResourceDefinition %q defines group %q, not %q", c.Name(), c.crd.Spec.Group, group)
	case request && len(c.Errors()) > 0:
		return notFound("kind", "%s", (&RejectedError{CRD: c.Name(), APIVersion: obj["apiVersion"].(string), Kind: kind, Errors: c.Errors()}).Error())
	}
	if _, defined := c.serves(from); !defined {
		return notFound("apiVersion", "no matches for kind %q in version %q: CustomResourceDefinition %q does not define version %q", kind, obj["apiVersion"], c.Name(), from)
	}
	if g, v, ok := strings.Cut(version, "/"); ok {
		if g != group {
			return notFound("apiVersion", "the object is of group %q, not of --to group %q", group, g)
		}
		version = v
	}
	served, defined := c.serves(version)
	switch {
	case request && !served:
		return notFound("apiVersion", "CustomResourceDefinition %q does not serve version %q (serves %s)", c.Name(), version, strings.Join(c.ServedVersions(), ", "))
	case !defined:
		return notFound("apiVersion", "CustomResourceDefinition %q does not define version %q", c.Name(), version)
	}
	st, err := c.storage()
	if err != nil {
		return "", none, field.InternalError(field.NewPath("kind"), err)
	}
	return version, st, nil
}

// splitAPIVersion splits an apiVersion into group and version.
func splitAPIVersion(av string) (group, version string) {
	if g, v, ok := strings.Cut(av, "/"); ok {
		return g, v
	}
	return "", av
}

// storage is the CRD's custom resource storage: every defined version's
// schemas and the conversion strategy, built on first use. It is built
// for a CRD the apiserver would reject too, when its schemas compile:
// Read and Write refuse such a CRD before they get here, Replay reads the
// objects an old revision stored with it.
func (c *CRD) storage() (*conversion.Storage, error) {
	c.mu.Lock()
	st := c.store
	c.mu.Unlock()
	if st != nil {
		return st, nil
	}
	versions := map[string]conversion.Version{}
	for _, v := range c.crd.Spec.Versions {
		s, err := c.compiledVersion(v.Name)
		if err != nil {
			return nil, err
		}
		versions[v.Name] = conversion.Version{Schema: s.s, Defaults: s.v.served}
	}
	preserve := c.crd.Spec.PreserveUnknownFields != nil && *c.crd.Spec.PreserveUnknownFields
	webhook := c.crd.Spec.Conversion != nil && c.crd.Spec.Conversion.Strategy == "Webhook"
	st = conversion.NewStorage(c.Name(), c.crd.Spec.Group, versions, preserve, webhook)
	c.mu.Lock()
	c.store = st
	c.mu.Unlock()
	return st, nil
}

// deprecation is the warning a request to version gets: the version's
// deprecationWarning, or the apiserver's default text; "" when the version
// is not deprecated.
func (c *CRD) deprecation(version string) string {
	for _, v := range c.crd.Spec.Versions {
		if v.Name != version || !v.Deprecated {
			continue
		}
		if v.DeprecationWarning != nil {
			return *v.DeprecationWarning
		}
		msg := fmt.Sprintf("%s/%s %s is deprecated", c.crd.Spec.Group, v.Name, c.crd.Spec.Names.Kind)
		// The apiserver points at the highest-priority served version that
		// is not deprecated and has a higher priority than this one.
		var better []string
		for _, o := range c.crd.Spec.Versions {
			if o.Served && !o.Deprecated && kubeversion.Compare(version, o.Name) < 0 {
				better = append(better, o.Name)
			}
		}
		if len(better) > 0 {
			kubeversion.Sort(better)
			msg += fmt.Sprintf("; use %s/%s %s", c.crd.Spec.Group, better[0], c.crd.Spec.Names.Kind)
		}
		return msg
	}
	return ""
}

// Write is what a create (old nil) or an update of old puts into etcd: obj
// is applied at the version its apiVersion names (served) as the request
// is (Schema.Apply, or Schema.ApplyUpdate with old, an object as stored,
// as Read hands it over at that version: defaulted at the version it is
// stored at and not at the request's, as the apiserver's storage decodes
// the existing object of an update), then converted to the storage version
// (Convert, through the CRD's converter for strategy Webhook), which
// prunes with the storage version's schema: fields the storage version
// does not declare are lost on the way in. Result.Object is the object as
// stored (nil when the request is rejected, or the conversion fails);
// Result.Pruned lists the request's unknown fields and those the storage
// version drops. ctx bounds the webhook calls. Neither obj nor old is
// changed.
func (c *CRD) Write(ctx context.Context, obj, old map[string]any) Result {
	if obj == nil {
		obj = map[string]any{}
	}
	if err := routingTypeMeta(obj); err != nil {
		return refused(err)
	}
	_, version := splitAPIVersion(obj["apiVersion"].(string))
	if _, _, err := c.readTarget(obj, version, true); err != nil {
		return refused(err)
	}
	s, err := c.Version(version)
	if err != nil {
		return refused(field.InternalError(field.NewPath("kind"), err))
	}
	var r Result
	if old == nil {
		r = s.Apply(obj)
	} else {
		cur := c.Read(ctx, old, version)
		if cur.Object == nil {
			for _, e := range cur.Errors {
				e.Detail = "the stored object cannot be read: " + e.Detail
			}
			return Result{Pruned: []string{}, Errors: cur.Errors, Deprecation: s.deprecation}
		}
		// cur is the apiserver's existing object: defaulted at its stored
		// version, not at this one (updateRead), and Read's own copy.
		in, err := copyObject(obj)
		if err != nil {
			return refused(err)
		}
		r = s.updateRead(in, cur.Object, false)
	}
	if r.Object == nil || len(r.Errors) > 0 {
		r.Object = nil // a rejected request stores nothing
		return r
	}
	st, err := c.storage()
	if err != nil {
		return refused(field.InternalError(field.NewPath("kind"), err))
	}
	stored, pruned, errs := st.Convert(ctx, r.Object, c.StorageVersion(), c.conv)
	if len(errs) > 0 {
		errorsort.Sort(errs)
		return Result{Pruned: r.Pruned, Errors: errs, Deprecation: r.Deprecation}
	}
	r.Object, r.Pruned = stored, sortedUnique(append(r.Pruned, pruned...))
	return r
}

// StoredVersions returns the versions objects of the CRD may be stored at
// in etcd: status.storedVersions of the document, or when it has none the
// storage version (what a CRD the apiserver creates starts with). A new
// revision must keep every one of them (CheckUpdate), and reading data
// stored under an old revision starts from them. The caller may change
// the returned list.
func (c *CRD) StoredVersions() []string {
	return slices.Clone(c.crd.Status.StoredVersions)
}

// ConversionStrategy returns the CRD's spec.conversion.strategy: "None"
// (only apiVersion changes between versions) or "Webhook" (objects are
// converted by the CRD's webhook, which a program gives with
// WithConverter).
func (c *CRD) ConversionStrategy() string {
	if conv := c.crd.Spec.Conversion; conv != nil && conv.Strategy == "Webhook" {
		return "Webhook"
	}
	return "None"
}
