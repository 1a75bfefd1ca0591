package crdfake

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/crdschema/crdschema"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// semantics is one fake client's custom resources: the CRDs, the store,
// the warning handler, the options of the builder that concern them.
type semantics struct {
	crds  *CRDs
	warn  rest.WarningHandlerWithContext
	store *store
	// returnManaged is WithReturnManagedFields.
	returnManaged bool
	// seedErrs are, per kind, why the objects given to WithObjects could
	// not all be taken in; every request of the kind fails with it.
	seedErrs map[kschema.GroupKind]error
	// indexes are the field indexes of the CRDs' kinds (WithIndex,
	// AddIndex), guarded by indexMu.
	indexMu sync.RWMutex
	indexes indexes
}

// target is what a request of a custom resource names: the kind, the
// served version, and its group, version and kind.
type target struct {
	k   *kind
	v   *version
	gvk kschema.GroupVersionKind
}

// targetOf routes a request by the group, version and kind of its object:
// nil (and no error) for a kind the CRDs do not define, which the fake
// answers; the error a real client's REST mapper gives for a version the
// CRD does not serve. A routed request gets the deprecated version's
// warning, as every request of one does; a kind whose CRD the apiserver
// would reject, or whose seeded objects were refused, fails with the
// reason.
func (s *semantics) targetOf(ctx context.Context, gvk kschema.GroupVersionKind) (*target, error) {
	k := s.crds.kinds[gvk.GroupKind()]
	if k == nil {
		return nil, nil
	}
	if err := k.accepted(); err != nil {
		return nil, err
	}
	v := k.versions[gvk.Version]
	if v == nil || !v.served {
		return nil, &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
	}
	if v.deprecation != "" && s.warn != nil {
		s.warn.HandleWarningHeaderWithContext(ctx, 299, "-", v.deprecation)
	}
	if err := s.seedErrs[k.gk]; err != nil {
		return nil, err
	}
	return &target{k: k, v: v, gvk: gvk}, nil
}

// route is targetOf for an object (or list) as the client types it.
func (s *semantics) route(ctx context.Context, c client.Client, obj runtime.Object) (*target, error) {
	gvk, err := c.GroupVersionKindFor(obj)
	if err != nil {
		return nil, nil // the fake reports it
	}
	if _, isList := obj.(client.ObjectList); isList {
		gvk.Kind = strings.TrimSuffix(gvk.Kind, "List")
	}
	return s.targetOf(ctx, gvk)
}

// seed takes in the objects of the CRDs' kinds among the objects given to
// WithObjects, WithLists and WithRuntimeObjects, each as stored in etcd
// at the version it was given at, so that reads put it through the
// storage read path (pruned, defaulted), as a cluster serves an object it
// stored; it returns the others, for the fake (a list holding none of the
// CRDs' kinds as it is, the other items of one that does as runtime
// objects). An object whose kind the scheme does not know is the fake's
// to refuse.
func (s *semantics) seed(scheme *runtime.Scheme, objects []client.Object, lists []client.ObjectList, rts []runtime.Object) ([]client.Object, []client.ObjectList, []runtime.Object) {
	var restObjects []client.Object
	for _, obj := range objects {
		if !s.seedObject(scheme, obj) {
			restObjects = append(restObjects, obj)
		}
	}
	var restLists []client.ObjectList
	var restRTs []runtime.Object
	for _, l := range lists {
		items, err := meta.ExtractList(l)
		var rest []runtime.Object
		for _, item := range items {
			if !s.seedObject(scheme, item) {
				rest = append(rest, item)
			}
		}
		if err != nil || len(rest) == len(items) {
			restLists = append(restLists, l)
			continue
		}
		restRTs = append(restRTs, rest...)
	}
	for _, obj := range rts {
		if !s.seedObject(scheme, obj) {
			restRTs = append(restRTs, obj)
		}
	}
	return restObjects, restLists, restRTs
}

// seedObject takes in obj when it is of a CRD's kind, telling whether it
// is; the first object of a kind that cannot be taken in is its kind's
// error.
func (s *semantics) seedObject(scheme *runtime.Scheme, obj runtime.Object) bool {
	gvk, err := apiutil.GVKForObject(obj, scheme)
	if err != nil {
		return false
	}
	k := s.crds.kinds[gvk.GroupKind()]
	if k == nil {
		return false
	}
	m, err := toMap(obj, gvk)
	if err == nil {
		err = s.seedOne(k, m)
	}
	if err != nil && s.seedErrs[k.gk] == nil {
		if s.seedErrs == nil {
			s.seedErrs = map[kschema.GroupKind]error{}
		}
		s.seedErrs[k.gk] = err
	}
	return true
}

// seedOne stores a seeded object: without namespace for a cluster-scoped
// kind, with a uid and resourceVersion when it has none, as every stored
// object has; two objects of one name are an error, as a cluster holds
// one.
func (s *semantics) seedOne(k *kind, obj map[string]any) error {
	if _, ok := obj["metadata"].(map[string]any); !ok {
		return fmt.Errorf("crdfake: a %s given to WithObjects has no metadata object (metadata: %T)", k.gk.Kind, obj["metadata"])
	}
	md := metadata(obj)
	if !k.namespaced {
		delete(md, "namespace")
	}
	key := keyOf(k, metaString(obj, "namespace"), metaString(obj, "name"))
	if prev, dup := s.store.objects[key]; dup {
		return fmt.Errorf("crdfake: %s %q is given to WithObjects twice (as %v and %v); a cluster stores one object per name", k.gk.Kind, key.name, prev["apiVersion"], obj["apiVersion"])
	}
	if metaString(obj, "uid") == "" {
		md["uid"] = string(uuid.NewUUID())
	}
	if metaString(obj, "resourceVersion") == "" {
		md["resourceVersion"] = s.store.nextRV()
	}
	s.store.sawRV(metaString(obj, "resourceVersion"))
	s.store.objects[key] = obj
	return nil
}

// read is a stored object served at the target's version.
func (s *semantics) read(ctx context.Context, t *target, stored map[string]any) (map[string]any, error) {
	r := readAt(ctx, t.k, stored, t.v.name)
	if r.Object == nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("the stored %s %q cannot be read at %s: %v", t.k.gk.Kind, metaString(stored, "name"), t.v.name, r.Errors.ToAggregate()))
	}
	return r.Object, nil
}

// toStorage is obj, an object at the target's version, as the storage
// codec writes it: converted to the storage version (served or not),
// pruned with that version's schema, not defaulted.
func (s *semantics) toStorage(ctx context.Context, t *target, obj map[string]any) (map[string]any, error) {
	r := convertTo(ctx, t.k, obj, t.k.storage)
	if r.Object == nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("%s %q cannot be converted to the storage version %s: %v", t.k.gk.Kind, metaString(obj, "name"), t.k.storage, r.Errors.ToAggregate()))
	}
	return r.Object, nil
}

// decode makes obj the response m, as a real client decodes one: typed
// objects lose their TypeMeta (as the fake's do), managedFields are
// dropped unless the builder asked for them (WithReturnManagedFields).
func (s *semantics) decode(m map[string]any, obj runtime.Object) error {
	if !s.returnManaged {
		if md, ok := m["metadata"].(map[string]any); ok {
			if _, has := md["managedFields"]; has {
				m = shallowWithMetadata(m)
				delete(m["metadata"].(map[string]any), "managedFields")
			}
		}
	}
	if err := fromMap(m, obj); err != nil {
		return err
	}
	switch obj.(type) {
	case runtime.Unstructured, *metav1.PartialObjectMetadata, *metav1.PartialObjectMetadataList:
	default:
		obj.GetObjectKind().SetGroupVersionKind(kschema.GroupVersionKind{})
	}
	return nil
}

// shallowWithMetadata copies m and its metadata one level deep.
func shallowWithMetadata(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	md := m["metadata"].(map[string]any)
	cp := make(map[string]any, len(md))
	for k, v := range md {
		cp[k] = v
	}
	out["metadata"] = cp
	return out
}

// selects tells whether an object read at the target's version matches a
// list's or watch's selectors. A field selector may name what the
// apiserver lets it name for a custom resource: metadata.name,
// metadata.namespace (namespaced kinds) and the version's selectable
// fields; requirementsSupported checks that first.
func (s *semantics) selects(t *target, obj map[string]any, ls labels.Selector, fs fields.Selector) bool {
	if ls != nil && !ls.Empty() {
		u := unstructured.Unstructured{Object: obj}
		if !ls.Matches(labels.Set(u.GetLabels())) {
			return false
		}
	}
	if fs != nil && !fs.Empty() && !fs.Matches(fieldSet(t, obj)) {
		return false
	}
	return true
}

// fieldSet is the field set of the custom resource strategy's GetAttrs.
func fieldSet(t *target, obj map[string]any) fields.Set {
	set := fields.Set{"metadata.name": metaString(obj, "name")}
	if t.k.namespaced {
		set["metadata.namespace"] = metaString(obj, "namespace")
	}
	for _, p := range t.v.selectable {
		v, ok, _ := unstructured.NestedFieldNoCopy(obj, strings.Split(p, ".")...)
		if ok && v != nil {
			set[p] = fmt.Sprint(v)
		} else {
			set[p] = ""
		}
	}
	return set
}

// checkFieldSelector is the apiserver's answer to a field selector naming
// a field a custom resource cannot be selected by.
func checkFieldSelector(t *target, fs fields.Selector) error {
	if fs == nil {
		return nil
	}
	for _, r := range fs.Requirements() {
		if !supportedFieldLabel(t, r.Field) {
			return apierrors.NewBadRequest("field label not supported: " + r.Field)
		}
	}
	return nil
}

func supportedFieldLabel(t *target, label string) bool {
	switch {
	case label == "metadata.name":
		return true
	case label == "metadata.namespace":
		return t.k.namespaced
	}
	for _, p := range t.v.selectable {
		if p == label {
			return true
		}
	}
	return false
}

// invalid is the error of a rejected request, as a real client gets it: a
// request the apiserver cannot decode (malformed metadata) is a bad
// request, any other an Invalid error with one cause per field error.
func invalid(gvk kschema.GroupVersionKind, name string, r crdschema.Result) error {
	if len(r.Errors) == 0 {
		return nil
	}
	if r.Object == nil {
		return apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, gvk.Kind, r.Errors.ToAggregate()))
	}
	return apierrors.NewInvalid(gvk.GroupKind(), name, r.Errors)
}

// optimisticLockErrorMsg is the generic registry's message for a stale
// resourceVersion.
const optimisticLockErrorMsg = "the object has been modified; please apply your changes to the latest version and try again"

func conflict(t *target, name string) error {
	return apierrors.NewConflict(t.k.gr(), name, errors.New(optimisticLockErrorMsg))
}

func notFound(t *target, name string) error {
	return apierrors.NewNotFound(t.k.gr(), name)
}

// serverError is how the apiserver answers an error that is not an API
// status (responsewriters.ErrorToAPIStatus): 500, reason unknown, the
// error's text.
func serverError(err error) error {
	var st apierrors.APIStatus
	if errors.As(err, &st) {
		return err
	}
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusInternalServerError,
		Reason: metav1.StatusReasonUnknown, Message: err.Error(),
	}}
}

func isDryRun(dryRun []string) bool {
	for _, d := range dryRun {
		if d == metav1.DryRunAll {
			return true
		}
	}
	return false
}
