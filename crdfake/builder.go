package crdfake

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// Builder returns b (a new fake.ClientBuilder when b is nil) with the
// CRDs' semantics: every request of a kind the CRDs define is answered
// as the apiserver answers it, from a store of its own holding one object
// per name at the storage version (Get, List, Watch, Create, Update,
// Patch, Apply, Delete, DeleteAllOf, the status and scale subresources);
// other kinds keep the fake's behaviour.
//
// warnings receives the warnings the apiserver would send (pruned fields
// as `unknown field "spec.x"`, deprecated versions on every request of
// one), as a real client's rest.Config.WarningHandlerWithContext would;
// nil drops them.
//
// What the builder was given before is kept: interceptor funcs set with
// WithInterceptorFuncs run first and call through to these semantics
// (error injection works on custom resources), a REST mapper set with
// WithRESTMapper answers for the kinds the CRDs do not define. Builder
// sets a REST mapper that knows the CRDs' kinds (resources, scope) and the
// scheme's. Objects given to WithObjects are taken in as stored objects
// (read through the storage read path, so defaulted and pruned, not
// validated); CRDs.Objects puts them through the create pipeline first.
// WithStatusSubresource has no effect on the CRDs' kinds, which get the
// subresources their CRDs define. Call interceptor funcs, REST mapper and
// objects on b before Builder, and Build once.
func (c *CRDs) Builder(b *fake.ClientBuilder, warnings rest.WarningHandlerWithContext) *fake.ClientBuilder {
	if b == nil {
		b = fake.NewClientBuilder()
	}
	s := &semantics{crds: c, warn: warnings, store: newStore(), builder: b}
	prev, _ := builderField[*interceptor.Funcs](b, "interceptorFuncs")
	mapper, _ := builderField[restMapperType](b, "restMapper")
	b = b.WithRESTMapper(newRESTMapper(c, b, mapper))
	funcs := s.funcs()
	if prev == nil {
		return b.WithInterceptorFuncs(funcs)
	}
	return b.WithInterceptorFuncs(stacked(*prev, funcs))
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
// for fake.ClientBuilder.WithObjects: each object of a kind the CRDs
// define goes through the create pipeline (a copy; objs are not changed),
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
