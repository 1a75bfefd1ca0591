package oracle

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"
)

// Cluster is an apiserver for the custom resources of a set of CRDs, in
// memory, made of the apiserver's pieces: per served version the custom
// resource storage (customresource.NewStorage: the generic registry's
// Store with the custom resource strategies, status and scale REST) over
// an in-memory etcd with the custom resource storage codec (memStorage),
// and the handler's field managers (managedfields.NewDefaultCRDFieldManager
// over a type converter built from the static and the CRD's OpenAPI, as
// getOrCreateServingInfoFor does with buildOpenAPIModelsForApply). Do
// answers one request the way the create, update, patch, get and delete
// handlers (k8s.io/apiserver/pkg/endpoints/handlers) drive those pieces.
type Cluster struct {
	kinds map[schema.GroupKind]*clusterKind
	rv    revision
}

type clusterKind struct {
	crd            *checkedCRD
	gk             schema.GroupKind
	storageVersion string
	versions       map[string]*clusterVersion
	mem            *memStorage
}

type clusterVersion struct {
	sv      *servedVersion
	storage customresource.CustomResourceStorage
	fm      *managedfields.FieldManager
	status  *managedfields.FieldManager
	scale   *managedfields.FieldManager
}

// version is the served version's structural schema holder.
func (k *clusterKind) version(name string) *servedVersion {
	return k.versions[name].sv
}

// NewCluster serves the CRDs among docs the apiserver accepts.
func NewCluster(docs []Document) (*Cluster, error) {
	cl := &Cluster{kinds: map[schema.GroupKind]*clusterKind{}}
	c := newCodec()
	r := newRouter(nil)
	for _, d := range docs {
		if !IsCRD(d.Object) {
			continue
		}
		crd, err := c.checkCRD(context.Background(), d, false)
		if err != nil {
			return nil, err
		}
		if !crd.Accepted() {
			return nil, fmt.Errorf("%s: CustomResourceDefinition %q would be rejected: %v", d.File, crd.Name, crd.Errors.ToAggregate())
		}
		k, err := cl.newKind(r, crd)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", crd.Name, err)
		}
		cl.kinds[k.gk] = k
	}
	return cl, nil
}

func (cl *Cluster) newKind(r *router, crd *checkedCRD) (*clusterKind, error) {
	spec := crd.V1.Spec
	k := &clusterKind{crd: crd, gk: schema.GroupKind{Group: spec.Group, Kind: spec.Names.Kind}, versions: map[string]*clusterVersion{}}
	for _, v := range spec.Versions {
		if v.Storage {
			k.storageVersion = v.Name
		}
		if v.Served || v.Storage {
			sv := r.version(crd, v.Name)
			if sv.err != nil {
				return nil, sv.err
			}
			k.versions[v.Name] = &clusterVersion{sv: sv}
		}
	}
	k.mem = &memStorage{k: k, rv: &cl.rv, obj: map[string][]byte{}, ver: map[string]uint64{}}
	tc, err := typeConverter(crd.V1)
	if err != nil {
		return nil, err
	}
	for name, v := range k.versions {
		if err := k.serve(name, v, tc); err != nil {
			return nil, err
		}
	}
	return k, k.serveStatus(tc)
}

// serveStatus builds the status subresource's field managers, whose reset
// fields are every version's (getStatusResetFields).
func (k *clusterKind) serveStatus(tc managedfields.TypeConverter) error {
	spec := k.crd.V1.Spec
	reset := map[fieldpath.APIVersion]*fieldpath.Set{}
	for _, v := range k.versions {
		if v.storage.Status != nil {
			for gv, set := range v.storage.Status.GetResetFields() {
				reset[gv] = set
			}
		}
	}
	for name, v := range k.versions {
		if v.sv.status == nil {
			continue
		}
		gv := schema.GroupVersion{Group: spec.Group, Version: name}
		fm, err := managedfields.NewDefaultCRDFieldManager(tc, safeConverter(k.crd.V1), k.defaulter(), creater{}, gv.WithKind(spec.Names.Kind), gv, "status", fieldpath.NewExcludeFilterSetMap(reset))
		if err != nil {
			return err
		}
		v.status = fm
	}
	return nil
}

// serve builds a version's storage and its main and scale field managers.
func (k *clusterKind) serve(name string, v *clusterVersion, tc managedfields.TypeConverter) error {
	spec := k.crd.V1.Spec
	gv := schema.GroupVersion{Group: spec.Group, Version: name}
	schemaValidator, statusValidator, err := v.sv.schemaValidators()
	if err != nil {
		return err
	}
	strategy := customresource.NewStrategy(crdserverscheme.NewUnstructuredObjectTyper(), v.sv.namespaced, gv.WithKind(spec.Names.Kind),
		schemaValidator, statusValidator, v.sv.structural, v.sv.status, v.sv.scale, v.sv.selectable)
	resource := schema.GroupResource{Group: spec.Group, Resource: spec.Names.Plural}
	singular := schema.GroupResource{Group: spec.Group, Resource: spec.Names.Singular}
	st, err := customresource.NewStorage(resource, singular, gv.WithKind(spec.Names.Kind), gv.WithKind(spec.Names.ListKind), strategy,
		restOptions{k.mem}, nil, rest.NewDefaultTableConvertor(resource), replicasPaths(k.crd.V1))
	if err != nil {
		return err
	}
	v.storage = st
	conv := safeConverter(k.crd.V1)
	v.fm, err = managedfields.NewDefaultCRDFieldManager(tc, conv, k.defaulter(), creater{}, gv.WithKind(spec.Names.Kind), gv, "", fieldpath.NewExcludeFilterSetMap(st.CustomResource.GetResetFields()))
	if err != nil {
		return err
	}
	if v.sv.scale != nil {
		v.scale, err = managedfields.NewDefaultCRDFieldManager(tc, conv, k.defaulter(), creater{}, autoscalingv1.SchemeGroupVersion.WithKind("Scale"), gv, "scale", nil)
	}
	return err
}

// safeConverter is the request scope's converter of a CRD with strategy
// None.
func safeConverter(crd *apiextensionsv1.CustomResourceDefinition) runtime.ObjectConvertor {
	safe, _ := noneConverters(crd)
	return safe
}

// typeConverter is getOrCreateServingInfoFor's: the structured-merge-diff
// types of the static OpenAPI (the built-in definitions the apiextensions
// apiserver generates, autoscaling/v1 Scale marked with its kind as the
// definition namer marks it) merged with every version's OpenAPI v3
// (buildOpenAPIModelsForApply).
func typeConverter(crd *apiextensionsv1.CustomResourceDefinition) (managedfields.TypeConverter, error) {
	static := map[string]*spec.Schema{}
	ref := func(name string) spec.Ref { return spec.MustCreateRef("#/components/schemas/" + name) }
	for name, def := range generatedopenapi.GetOpenAPIDefinitions(common.ReferenceCallback(ref)) {
		s := def.Schema
		static[name] = &s
	}
	scale := static["io.k8s.api.autoscaling.v1.Scale"]
	scale.AddExtension("x-kubernetes-group-version-kind", []any{map[string]any{"group": "autoscaling", "version": "v1", "kind": "Scale"}})
	specs := []*spec3.OpenAPI{{Version: "3.0.0", Info: &spec.Info{InfoProps: spec.InfoProps{Title: "Kubernetes CRD Swagger", Version: "v0.1.0"}}, Components: &spec3.Components{Schemas: static}}}
	for _, v := range crd.Spec.Versions {
		s, err := builder.BuildOpenAPIV3(crd, v.Name, builder.Options{})
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	merged, err := builder.MergeSpecsV3(specs...)
	if err != nil {
		return nil, err
	}
	return managedfields.NewTypeConverter(merged.Components.Schemas, crd.Spec.PreserveUnknownFields)
}

// replicasPaths are getOrCreateServingInfoFor's replicasPathInCustomResource.
func replicasPaths(crd *apiextensionsv1.CustomResourceDefinition) managedfields.ResourcePathMappings {
	out := managedfields.ResourcePathMappings{}
	for _, v := range crd.Spec.Versions {
		gv := schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name}.String()
		if v.Subresources == nil || v.Subresources.Scale == nil {
			out[gv] = nil
			continue
		}
		p := fieldpath.Path{}
		for _, e := range strings.Split(strings.TrimPrefix(v.Subresources.Scale.SpecReplicasPath, "."), ".") {
			p = append(p, fieldpath.PathElement{FieldName: &e})
		}
		out[gv] = p
	}
	return out
}

// restOptions give every version's store the kind's memStorage.
type restOptions struct{ mem *memStorage }

func (o restOptions) GetRESTOptions(resource schema.GroupResource, _ runtime.Object) (generic.RESTOptions, error) {
	return generic.RESTOptions{
		StorageConfig: &storagebackend.ConfigForResource{Config: storagebackend.Config{Codec: memCodec{o.mem}}, GroupResource: resource},
		Decorator: func(*storagebackend.ConfigForResource, string, func(runtime.Object) (string, error), func() runtime.Object, func() runtime.Object, storage.AttrFunc, storage.IndexerFuncs, *cache.Indexers) (storage.Interface, factory.DestroyFunc, error) {
			return o.mem, func() {}, nil
		},
		ResourcePrefix: "/" + resource.Group + "/" + resource.Resource,
	}, nil
}

// defaulter is the handler's unstructuredDefaulter.
func (k *clusterKind) defaulter() runtime.ObjectDefaulter { return kindDefaulter{k} }

type kindDefaulter struct{ k *clusterKind }

func (d kindDefaulter) Default(in runtime.Object) {
	u, ok := in.(*unstructured.Unstructured)
	if !ok || u.GroupVersionKind().GroupKind() != d.k.gk {
		return
	}
	if v := d.k.versions[u.GroupVersionKind().Version]; v != nil {
		structuraldefaulting.Default(u.Object, v.sv.structural)
	}
}

// creater is the handler's unstructuredCreator.
type creater struct{}

func (creater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// ClusterRequest is one request of a custom resource.
type ClusterRequest struct {
	// Verb is create, update, patch, get or delete.
	Verb string
	// Subresource is "", status or scale.
	Subresource string
	// PatchType is a patch's type (merge, JSON, apply).
	PatchType types.PatchType
	// APIVersion, Kind, Namespace and Name are the URL's.
	APIVersion, Kind, Namespace, Name string
	// Body is the request body: the object, the patch, the Scale.
	Body []byte
	// Manager is the fieldManager option; Force is an apply's force.
	Manager string
	Force   bool
	// Preconditions are a delete's.
	Preconditions *metav1.Preconditions
}

// Do answers a request: the response object, or the error status the
// apiserver writes.
func (cl *Cluster) Do(req ClusterRequest) (map[string]any, *metav1.Status) {
	obj, err := cl.do(req)
	if err != nil {
		return nil, responsewriters.ErrorToAPIStatus(err)
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return u.Object, nil
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, responsewriters.ErrorToAPIStatus(err)
	}
	m["apiVersion"], m["kind"] = "autoscaling/v1", "Scale"
	return m, nil
}

// DefaultManager is the manager of a request without fieldManager (the
// apiserver takes the client's user agent).
const DefaultManager = "oracle"

// scoped is a routed request: the version served, the request context
// (namespace), the manager recorded.
type scoped struct {
	ClusterRequest
	k       *clusterKind
	v       *clusterVersion
	gvk     schema.GroupVersionKind
	ctx     context.Context
	manager string
}

func (cl *Cluster) do(req ClusterRequest) (runtime.Object, error) {
	gv, err := schema.ParseGroupVersion(req.APIVersion)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	k := cl.kinds[gv.WithKind(req.Kind).GroupKind()]
	if k == nil || k.versions[gv.Version] == nil || !served(k.crd.V1, gv.Version) {
		return nil, apierrors.NewNotFound(schema.GroupResource{Group: gv.Group}, req.Name)
	}
	s := &scoped{ClusterRequest: req, k: k, v: k.versions[gv.Version], gvk: gv.WithKind(req.Kind), manager: req.Manager}
	if s.manager == "" {
		s.manager = DefaultManager
	}
	ns := req.Namespace
	if !s.v.sv.namespaced {
		ns = ""
	}
	s.Namespace = ns
	s.ctx = genericapirequest.WithNamespace(context.Background(), ns)
	switch req.Verb {
	case "create":
		return s.create()
	case "update":
		return s.update()
	case "patch":
		return s.patch()
	case "get":
		return s.get()
	case "delete":
		obj, _, err := s.v.storage.CustomResource.Delete(s.ctx, req.Name, rest.ValidateAllObjectFunc, &metav1.DeleteOptions{Preconditions: req.Preconditions})
		return obj, err
	}
	return nil, fmt.Errorf("unknown verb %q", req.Verb)
}

func served(crd *apiextensionsv1.CustomResourceDefinition, version string) bool {
	for _, v := range crd.Spec.Versions {
		if v.Name == version {
			return v.Served
		}
	}
	return false
}

// decode is the handler's decoding of a request body of the kind: the
// custom resource codec's schema coercer and defaulter.
func (s *scoped) decode(body []byte) (*unstructured.Unstructured, error) {
	var obj map[string]any
	if err := kjson.Unmarshal(body, &obj); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if _, errs := coerce(obj, s.v.sv.structural, s.k.gk, s.k.crd.V1.Spec.PreserveUnknownFields, coerceOptions{pruneUnknown: true, pruneNulls: true}); len(errs) > 0 {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", s.gvk.Kind, s.gvk.Version, s.gvk.Kind, errs.ToAggregate()))
	}
	structuraldefaulting.Default(obj, s.v.sv.structural)
	return &unstructured.Unstructured{Object: obj}, nil
}

// create is createHandler: decode, wipe the system fields, the request
// namespace, the managed fields of an update from an empty object, the
// store's Create.
func (s *scoped) create() (runtime.Object, error) {
	obj, err := s.decode(s.Body)
	if err != nil {
		return nil, err
	}
	rest.WipeObjectMetaSystemFields(obj)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(s.Namespace, obj); err != nil {
		return nil, err
	}
	live, _ := creater{}.New(s.gvk)
	out := s.v.fm.UpdateNoErrors(live, obj, s.manager)
	return s.v.storage.CustomResource.Create(s.ctx, out, rest.ValidateAllObjectFunc, &metav1.CreateOptions{FieldManager: s.Manager})
}

// updater is the store a request of the subresource updates, with its
// field manager.
func (s *scoped) updater() (rest.Updater, *managedfields.FieldManager, error) {
	switch s.Subresource {
	case "":
		return s.v.storage.CustomResource, s.v.fm, nil
	case "status":
		if s.v.storage.Status != nil {
			return s.v.storage.Status, s.v.status, nil
		}
	case "scale":
		if s.v.storage.Scale != nil {
			return s.v.storage.Scale, s.v.scale, nil
		}
	}
	return nil, nil, apierrors.NewNotFound(schema.GroupResource{Group: s.k.gk.Group, Resource: s.k.crd.V1.Spec.Names.Plural}, s.Name)
}

// update is updateHandler: decode, the name check, the managed fields and
// timestamps transformers, the store's Update.
func (s *scoped) update() (runtime.Object, error) {
	store, fm, err := s.updater()
	if err != nil {
		return nil, err
	}
	var obj runtime.Object
	if s.Subresource == "scale" {
		sc := &autoscalingv1.Scale{}
		if err := json.Unmarshal(s.Body, sc); err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		obj = sc
	} else if obj, err = s.decode(s.Body); err != nil {
		return nil, err
	}
	if err := checkName(obj, s.Name, s.Namespace); err != nil {
		return nil, err
	}
	info := rest.DefaultUpdatedObjectInfo(obj, func(_ context.Context, newObj, liveObj runtime.Object) (runtime.Object, error) {
		return fm.UpdateNoErrors(liveObj, newObj, s.manager), nil
	}, fieldmanager.IgnoreManagedFieldsTimestampsTransformer)
	out, _, err := store.Update(s.ctx, s.Name, info, rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{FieldManager: s.Manager})
	return out, err
}

// checkName is the handlers' check of the object's name and namespace
// against the URL's.
func checkName(obj runtime.Object, name, namespace string) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	if m.GetName() != name {
		return apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", m.GetName(), name))
	}
	return rest.EnsureObjectNamespaceMatchesRequestNamespace(namespace, m)
}

// patch is patchHandler: the patch applied to the current object (JSON
// merge patch, JSON patch, or server-side apply through the field
// manager, creating the object when there is none), then the store's
// Update.
func (s *scoped) patch() (runtime.Object, error) {
	store, fm, err := s.updater()
	if err != nil {
		return nil, err
	}
	apply := s.PatchType == types.ApplyPatchType
	info := rest.DefaultUpdatedObjectInfo(nil, func(_ context.Context, _, current runtime.Object) (runtime.Object, error) {
		var out runtime.Object
		var err error
		if apply {
			out, err = s.applyTo(current, fm)
		} else {
			out, err = s.jsonPatchTo(current, fm)
		}
		if err != nil {
			return nil, err
		}
		return out, checkName(out, s.Name, s.Namespace)
	})
	out, _, err := store.Update(s.ctx, s.Name, info, rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, apply && s.Subresource == "", &metav1.UpdateOptions{FieldManager: s.Manager})
	return out, err
}

// applyTo is applyPatcher: the apply patch merged by the field manager
// into the current object, or into a new one when there is none.
func (s *scoped) applyTo(current runtime.Object, fm *managedfields.FieldManager) (runtime.Object, error) {
	if m, err := meta.Accessor(current); err != nil || m.GetUID() == "" {
		current, _ = creater{}.New(s.gvk)
	}
	patch := &unstructured.Unstructured{Object: map[string]any{}}
	if err := yaml.Unmarshal(s.Body, &patch.Object); err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
	}
	return fm.Apply(current, patch, s.Manager, s.Force)
}

// jsonPatchTo is jsonPatcher: the current object as JSON, patched,
// decoded as a request, its managed fields updated.
func (s *scoped) jsonPatchTo(current runtime.Object, fm *managedfields.FieldManager) (runtime.Object, error) {
	cur, err := json.Marshal(current)
	if err != nil {
		return nil, err
	}
	var patched []byte
	if s.PatchType == types.JSONPatchType {
		p, err := jsonpatch.DecodePatch(s.Body)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		if patched, err = p.Apply(cur); err != nil {
			return nil, apierrors.NewGenericServerResponse(422, "", schema.GroupResource{}, "", err.Error(), 0, false)
		}
	} else if patched, err = jsonpatch.MergePatch(cur, s.Body); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if s.Subresource == "scale" {
		sc := &autoscalingv1.Scale{}
		if err := json.Unmarshal(patched, sc); err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		return fm.UpdateNoErrors(current, sc, s.manager), nil
	}
	obj, err := s.decode(patched)
	if err != nil {
		return nil, err
	}
	return fm.UpdateNoErrors(current, obj, s.manager), nil
}

func (s *scoped) get() (runtime.Object, error) {
	switch s.Subresource {
	case "":
		return s.v.storage.CustomResource.Get(s.ctx, s.Name, &metav1.GetOptions{})
	case "status":
		if s.v.storage.Status != nil {
			return s.v.storage.Status.Get(s.ctx, s.Name, &metav1.GetOptions{})
		}
	case "scale":
		if s.v.storage.Scale != nil {
			return s.v.storage.Scale.Get(s.ctx, s.Name, &metav1.GetOptions{})
		}
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Group: s.k.gk.Group, Resource: s.k.crd.V1.Spec.Names.Plural}, s.Name)
}
