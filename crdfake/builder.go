package crdfake

import (
	"context"
	"errors"
	"fmt"

	"github.com/crdschema/crdschema"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// Builder returns b (a new fake.ClientBuilder when b is nil) with the
// CRDs' semantics: interceptor funcs for Create, Update, Patch and the
// status subresource's Update and Patch of every kind the CRDs define,
// the status subresource included for every version that has it (the
// interceptors implement it rather than WithStatusSubresource, under
// which the fake rewrites what is stored). Other kinds keep the fake's
// behaviour.
//
// warnings receives the warnings the apiserver would send (pruned fields
// as `unknown field "spec.x"`, deprecated versions), as a real client's
// rest.Config.WarningHandlerWithContext would; nil drops them.
//
// The builder's interceptor funcs are replaced (fake.ClientBuilder keeps
// only one set). Objects given to WithObjects are stored as given, since
// the fake does not show them to interceptors: pass them through
// CRDs.Objects first.
func (c *CRDs) Builder(b *fake.ClientBuilder, warnings rest.WarningHandlerWithContext) *fake.ClientBuilder {
	if b == nil {
		b = fake.NewClientBuilder()
	}
	s := &semantics{crds: c, warn: warnings}
	return b.WithInterceptorFuncs(interceptor.Funcs{
		Get:               s.get,
		List:              s.list,
		Delete:            s.delete,
		Create:            s.create,
		Update:            s.update,
		Patch:             s.patch,
		SubResourceUpdate: s.subResourceUpdate,
		SubResourcePatch:  s.subResourcePatch,
	})
}

// Objects returns objs as the apiserver would store them when created,
// for fake.ClientBuilder.WithObjects: each object of a kind the CRDs
// define goes through the create pipeline (a copy; objs are not changed),
// others are returned as given. It fails on the first object the
// apiserver would reject, naming it. scheme converts typed objects (nil:
// client-go's scheme, as the fake's default).
func (c *CRDs) Objects(scheme *runtime.Scheme, objs ...client.Object) ([]client.Object, error) {
	s := &semantics{crds: c}
	out := make([]client.Object, len(objs))
	for i, obj := range objs {
		gvk, err := apiutil.GVKForObject(obj, schemeOrDefault(scheme))
		if err != nil {
			return nil, fmt.Errorf("crdfake: object %d (%T %q): %w", i, obj, obj.GetName(), err)
		}
		sch, err := s.schema(gvk)
		if err != nil {
			return nil, fmt.Errorf("crdfake: object %d (%s %q): %w", i, gvk.Kind, obj.GetName(), err)
		}
		out[i] = obj
		if sch == nil {
			continue
		}
		cp := obj.DeepCopyObject().(client.Object)
		if _, err := s.prepareCreate(context.Background(), sch, gvk, cp); err != nil {
			return nil, fmt.Errorf("crdfake: object %d: %w", i, err)
		}
		out[i] = cp
	}
	return out, nil
}

// semantics holds what the interceptor funcs share.
type semantics struct {
	crds *CRDs
	warn rest.WarningHandlerWithContext
}

// schema is the compiled schema of the served version gvk selects; nil
// (and no error) for a kind the CRDs do not define. An unserved version is
// the error a real client's REST mapper gives.
func (s *semantics) schema(gvk kschema.GroupVersionKind) (*crdschema.Schema, error) {
	sch, err := crdschema.Route(s.crds.crds, map[string]any{"apiVersion": gvk.GroupVersion().String(), "kind": gvk.Kind})
	var unknown *crdschema.UnknownKindError
	var notServed *crdschema.NotServedError
	switch {
	case errors.As(err, &unknown):
		return nil, nil
	case errors.As(err, &notServed):
		return nil, &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
	}
	return sch, err
}

// route finds the schema of obj's kind through the client's scheme; a nil
// schema and no error mean the fake's own behaviour.
func (s *semantics) route(ctx context.Context, c client.Client, obj runtime.Object) (kschema.GroupVersionKind, *crdschema.Schema, error) {
	gvk, err := c.GroupVersionKindFor(obj)
	if err != nil {
		// The fake reports it.
		return gvk, nil, nil
	}
	sch, err := s.schema(gvk)
	if sch != nil {
		s.deprecation(ctx, gvk)
	}
	return gvk, sch, err
}

// deprecation sends the warning of a deprecated version, as the apiserver
// does on every request of one.
func (s *semantics) deprecation(ctx context.Context, gvk kschema.GroupVersionKind) {
	if msg, ok := s.crds.warnings[gvk]; ok && s.warn != nil {
		s.warn.HandleWarningHeaderWithContext(ctx, 299, "-", msg)
	}
}

// warnPruned sends the warnings of a result's pruned and duplicate
// fields. A deprecated version's warning is not among them: route sends it
// once for every request, reads included, as the apiserver does.
func (s *semantics) warnPruned(ctx context.Context, r crdschema.Result) {
	if s.warn == nil {
		return
	}
	r.Deprecation = ""
	for _, w := range r.Warnings() {
		s.warn.HandleWarningHeaderWithContext(ctx, 299, "-", w)
	}
}

func schemeOrDefault(s *runtime.Scheme) *runtime.Scheme {
	if s != nil {
		return s
	}
	return clientgoscheme.Scheme
}

func (s *semantics) get(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if _, _, err := s.route(ctx, c, obj); err != nil {
		return err
	}
	return c.Get(ctx, key, obj, opts...)
}

func (s *semantics) list(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
	if gvk, err := c.GroupVersionKindFor(list); err == nil {
		gvk.Kind = trimList(gvk.Kind)
		sch, err := s.schema(gvk)
		if err != nil {
			return err
		}
		if sch != nil {
			s.deprecation(ctx, gvk)
		}
	}
	return c.List(ctx, list, opts...)
}

func trimList(kind string) string {
	if len(kind) > 4 && kind[len(kind)-4:] == "List" {
		return kind[:len(kind)-4]
	}
	return kind
}

func (s *semantics) delete(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
	if _, _, err := s.route(ctx, c, obj); err != nil {
		return err
	}
	return c.Delete(ctx, obj, opts...)
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
