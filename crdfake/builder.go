package crdfake

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/watch"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// ClientBuilder builds a controller-runtime fake client with the CRDs'
// semantics: every request of a kind the CRDs define is answered as the
// apiserver answers it, from a store of the client's own holding one
// object per name at the storage version (Get, List, Watch, Create,
// Update, Patch, Apply, Delete, DeleteAllOf, the status and scale
// subresources); other kinds keep the fake's behaviour.
//
// Its methods are fake.ClientBuilder's, with the same arguments and the
// same meaning for kinds without a CRD, so that a test switches by
// replacing fake.NewClientBuilder() with crds.NewClientBuilder(). For the
// CRDs' kinds: interceptor funcs run first and call through to the CRDs'
// semantics (error injection works on custom resources); the REST mapper
// answers for the kinds the CRDs do not define, after a mapper of the
// CRDs' kinds (resources, scope, the preferred version first); objects
// given to WithObjects, WithRuntimeObjects and WithLists are taken in as
// stored objects (read through the storage read path, so defaulted and
// pruned, not validated; CRDs.Objects puts them through the create
// pipeline first); WithStatusSubresource changes nothing, as they get
// the subresources their CRDs define; WithIndex and AddIndex answer a
// List's field selectors the apiserver does not take, as a cached
// client's indexes do. Build once.
type ClientBuilder struct {
	crds *CRDs
	// fake is given the options that concern only the fake as they come;
	// Build gives it the rest.
	fake *fake.ClientBuilder

	scheme         *runtime.Scheme
	mapper         meta.RESTMapper
	funcs          *interceptor.Funcs
	objects        []client.Object
	lists          []client.ObjectList
	runtimeObjects []runtime.Object
	indexes        indexes
	returnManaged  bool
	warn           rest.WarningHandlerWithContext
}

// NewClientBuilder returns a builder of fake clients with the CRDs'
// semantics (see ClientBuilder). Each built client has a store of its
// own; the CRDs' compiled schemas are shared.
func (c *CRDs) NewClientBuilder() *ClientBuilder {
	return &ClientBuilder{crds: c, fake: fake.NewClientBuilder(), indexes: indexes{}}
}

// WithScheme sets the scheme (client-go's by default), as
// fake.ClientBuilder.WithScheme. Typed objects of the CRDs' kinds must be
// registered in it.
func (b *ClientBuilder) WithScheme(scheme *runtime.Scheme) *ClientBuilder {
	b.scheme = scheme
	b.fake.WithScheme(scheme)
	return b
}

// WithRESTMapper sets the REST mapper for the kinds the CRDs do not
// define; the client's mapper knows the CRDs' kinds first.
func (b *ClientBuilder) WithRESTMapper(mapper meta.RESTMapper) *ClientBuilder {
	b.mapper = mapper
	return b
}

// WithObjects adds objects the client starts with: for the CRDs' kinds,
// as stored in etcd at the version they are given at (a uid and
// resourceVersion added when missing; two objects of one name are an
// error on every request of the kind); others as the fake takes them.
func (b *ClientBuilder) WithObjects(objs ...client.Object) *ClientBuilder {
	b.objects = append(b.objects, objs...)
	return b
}

// WithLists is WithObjects for the items of lists.
func (b *ClientBuilder) WithLists(lists ...client.ObjectList) *ClientBuilder {
	b.lists = append(b.lists, lists...)
	return b
}

// WithRuntimeObjects is WithObjects for runtime.Objects.
func (b *ClientBuilder) WithRuntimeObjects(objs ...runtime.Object) *ClientBuilder {
	b.runtimeObjects = append(b.runtimeObjects, objs...)
	return b
}

// WithObjectTracker sets the fake's object tracker, as
// fake.ClientBuilder.WithObjectTracker: it holds the kinds without a CRD.
func (b *ClientBuilder) WithObjectTracker(tracker testing.ObjectTracker) *ClientBuilder {
	b.fake.WithObjectTracker(tracker)
	return b
}

// WithGlobalResourceVersionCounter is fake.ClientBuilder's, for the kinds
// without a CRD; the CRDs' kinds share one counter, as etcd's revision.
func (b *ClientBuilder) WithGlobalResourceVersionCounter() *ClientBuilder {
	b.fake.WithGlobalResourceVersionCounter()
	return b
}

// WithIndex registers an index of field for the objects of obj's group,
// version and kind, as fake.ClientBuilder.WithIndex (which panics on an
// object the scheme does not know and on an index registered twice). A
// List of a CRD's kind answers a field selector on it with the index,
// exact matches only, as a cached client does.
func (b *ClientBuilder) WithIndex(obj runtime.Object, field string, extractValue client.IndexerFunc) *ClientBuilder {
	b.fake.WithIndex(obj, field, extractValue)
	scheme := b.scheme
	if scheme == nil {
		scheme = clientgoscheme.Scheme
	}
	if gvk, err := apiutil.GVKForObject(obj, scheme); err == nil { // the fake panicked otherwise
		_ = b.indexes.add(gvk, field, extractValue)
	}
	return b
}

// WithStatusSubresource is fake.ClientBuilder's for the kinds without a
// CRD; the CRDs' kinds have the subresources their CRDs define.
func (b *ClientBuilder) WithStatusSubresource(objs ...client.Object) *ClientBuilder {
	b.fake.WithStatusSubresource(objs...)
	return b
}

// WithInterceptorFuncs sets interceptor funcs that see every request
// first; the client they are given answers the CRDs' kinds with the
// CRDs' semantics.
func (b *ClientBuilder) WithInterceptorFuncs(funcs interceptor.Funcs) *ClientBuilder {
	b.funcs = &funcs
	return b
}

// WithTypeConverters is fake.ClientBuilder's, for server-side apply of
// the kinds without a CRD; the CRDs' kinds are applied with type
// converters built from their published OpenAPI.
func (b *ClientBuilder) WithTypeConverters(converters ...managedfields.TypeConverter) *ClientBuilder {
	b.fake.WithTypeConverters(converters...)
	return b
}

// WithReturnManagedFields makes the client return managedFields, as
// fake.ClientBuilder.WithReturnManagedFields; without it they are dropped
// from every answer.
func (b *ClientBuilder) WithReturnManagedFields() *ClientBuilder {
	b.returnManaged = true
	b.fake.WithReturnManagedFields()
	return b
}

// WithWarningHandler sets the handler of the warnings the apiserver would
// send (pruned fields as `unknown field "spec.x"`, deprecated versions on
// every request of one, finalizer names), as a real client's
// rest.Config.WarningHandlerWithContext receives them; without one they
// are dropped.
func (b *ClientBuilder) WithWarningHandler(handler rest.WarningHandlerWithContext) *ClientBuilder {
	b.warn = handler
	return b
}

// Build builds the client. As fake.ClientBuilder.Build, it panics when
// called twice and when the fake refuses an object of a kind without a
// CRD.
func (b *ClientBuilder) Build() client.WithWatch {
	scheme := b.scheme
	if scheme == nil {
		scheme = clientgoscheme.Scheme
	}
	s := &semantics{crds: b.crds, warn: b.warn, store: newStore(), returnManaged: b.returnManaged, indexes: b.indexes.clone()}
	objects, lists, runtimeObjects := s.seed(scheme, b.objects, b.lists, b.runtimeObjects)
	b.fake.WithObjects(objects...).WithLists(lists...).WithRuntimeObjects(runtimeObjects...)
	b.fake.WithRESTMapper(newRESTMapper(b.crds, scheme, b.mapper))
	funcs := s.funcs()
	if b.funcs != nil {
		funcs = stacked(*b.funcs, funcs)
	}
	return &fakeClient{WithWatch: b.fake.WithInterceptorFuncs(funcs).Build(), s: s}
}

// fakeClient is a built client: the fake with the CRDs' interceptors,
// and the semantics AddIndex registers indexes with.
type fakeClient struct {
	client.WithWatch
	s *semantics
}

// Unwrap is the client below, as interceptor clients have it, so that
// fake.AddIndex finds the fake.
func (c *fakeClient) Unwrap() client.WithWatch { return c.WithWatch }

// AddIndex registers an index on a client built by ClientBuilder, as
// fake.AddIndex does on a fake client (which does not reach the CRDs'
// kinds): for the kinds without a CRD through fake.AddIndex, for the
// CRDs' kinds in the client's own indexes. It fails when c is not such a
// client (or one wrapping it), when obj's group, version and kind are not
// known, and when the field is indexed already.
func AddIndex(c client.Client, obj runtime.Object, field string, extractValue client.IndexerFunc) error {
	fc := unwrapFakeClient(c)
	if fc == nil {
		return fmt.Errorf("crdfake.AddIndex: %T is not a client built by crdfake's ClientBuilder", c)
	}
	gvk, err := apiutil.GVKForObject(obj, fc.Scheme())
	if err != nil {
		return fmt.Errorf("crdfake.AddIndex: %w", err)
	}
	if fc.s.crds.kinds[gvk.GroupKind()] == nil {
		return fake.AddIndex(fc.WithWatch, obj, field, extractValue)
	}
	fc.s.indexMu.Lock()
	defer fc.s.indexMu.Unlock()
	return fc.s.indexes.add(gvk, field, extractValue)
}

// unwrapFakeClient finds the crdfake client below c, nil when there is
// none.
func unwrapFakeClient(c client.Client) *fakeClient {
	for c != nil {
		if fc, ok := c.(*fakeClient); ok {
			return fc
		}
		u, ok := c.(interface{ Unwrap() client.WithWatch })
		if !ok {
			return nil
		}
		c = u.Unwrap()
	}
	return nil
}

// funcs are the interceptor funcs of the semantics.
func (s *semantics) funcs() interceptor.Funcs {
	return interceptor.Funcs{
		Get:               s.get,
		List:              s.list,
		Watch:             s.watch,
		Create:            s.create,
		Update:            s.update,
		Patch:             s.patch,
		Apply:             s.apply,
		Delete:            s.delete,
		DeleteAllOf:       s.deleteAllOf,
		SubResourceGet:    s.subResourceGet,
		SubResourceUpdate: s.subResourceUpdate,
		SubResourcePatch:  s.subResourcePatch,
		SubResourceApply:  s.subResourceApply,
	}
}

// stacked are interceptor funcs calling outer's funcs, which see a client
// that is the fake intercepted by inner: the caller's interceptors first,
// then the CRDs' semantics.
func stacked(outer, inner interceptor.Funcs) interceptor.Funcs {
	wrap := func(c client.WithWatch) client.WithWatch {
		return interceptor.NewClient(interceptor.NewClient(c, inner), outer)
	}
	return interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			return wrap(c).Get(ctx, key, obj, opts...)
		},
		List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			return wrap(c).List(ctx, list, opts...)
		},
		Watch: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) (watch.Interface, error) {
			return wrap(c).Watch(ctx, list, opts...)
		},
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			return wrap(c).Create(ctx, obj, opts...)
		},
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			return wrap(c).Update(ctx, obj, opts...)
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
			return wrap(c).Patch(ctx, obj, patch, opts...)
		},
		Apply: func(ctx context.Context, c client.WithWatch, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
			return wrap(c).Apply(ctx, obj, opts...)
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			return wrap(c).Delete(ctx, obj, opts...)
		},
		DeleteAllOf: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteAllOfOption) error {
			return wrap(c).DeleteAllOf(ctx, obj, opts...)
		},
		SubResource: func(c client.WithWatch, sub string) client.SubResourceClient {
			return wrap(c).SubResource(sub)
		},
	}
}

// Objects returns objs as the apiserver would store them when created,
// for ClientBuilder.WithObjects: each object of a kind the CRDs define
// goes through the create pipeline (a copy; objs are not changed),
// others are returned as given. It fails on the first object the
// apiserver would reject, naming it. scheme converts typed objects (nil:
// client-go's scheme, as the fake's default).
func (c *CRDs) Objects(scheme *runtime.Scheme, objs ...client.Object) ([]client.Object, error) {
	if scheme == nil {
		scheme = clientgoscheme.Scheme
	}
	s := &semantics{crds: c, store: newStore()}
	out := make([]client.Object, len(objs))
	for i, obj := range objs {
		out[i] = obj
		gvk, err := apiutil.GVKForObject(obj, scheme)
		if err != nil {
			return nil, fmt.Errorf("crdfake: object %d (%T %q): %w", i, obj, obj.GetName(), err)
		}
		k := c.kinds[gvk.GroupKind()]
		if k == nil {
			continue
		}
		if err := k.accepted(); err != nil {
			return nil, fmt.Errorf("crdfake: object %d (%s %q): %w", i, gvk.Kind, obj.GetName(), err)
		}
		v := k.versions[gvk.Version]
		if v == nil || !v.served {
			return nil, fmt.Errorf("crdfake: object %d (%s %q): version %s is not served", i, gvk.Kind, obj.GetName(), gvk.Version)
		}
		t := &target{k: k, v: v, gvk: gvk}
		m, err := toMap(obj, gvk)
		if err != nil {
			return nil, err
		}
		created, err := s.prepareCreate(context.Background(), t, m, managerName(""))
		if err != nil {
			return nil, fmt.Errorf("crdfake: object %d: %w", i, err)
		}
		cp := obj.DeepCopyObject().(client.Object)
		if err := fromMap(created, cp); err != nil {
			return nil, err
		}
		out[i] = cp
	}
	return out, nil
}

// indexes are a client's field indexes of the CRDs' kinds, by group,
// version and kind, then field.
type indexes map[kschema.GroupVersionKind]map[string]client.IndexerFunc

func (x indexes) add(gvk kschema.GroupVersionKind, field string, fn client.IndexerFunc) error {
	if x[gvk] == nil {
		x[gvk] = map[string]client.IndexerFunc{}
	}
	if x[gvk][field] != nil {
		return fmt.Errorf("index %s already exists", field)
	}
	x[gvk][field] = fn
	return nil
}

func (x indexes) clone() indexes {
	out := make(indexes, len(x))
	for gvk, fields := range x {
		out[gvk] = make(map[string]client.IndexerFunc, len(fields))
		for f, fn := range fields {
			out[gvk][f] = fn
		}
	}
	return out
}
