package crdfake

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	clientgoapply "k8s.io/client-go/applyconfigurations"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/kube-openapi/pkg/schemaconv"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// Managed fields, as the apiserver keeps them for custom resources: one
// field manager per version and subresource, built by apimachinery's
// managedfields.NewDefaultCRDFieldManager (the apiserver's own), over a
// type converter made from the OpenAPI the CRD publishes, so that
// server-side apply merges lists by their x-kubernetes-list-type and
// list-map keys. The definitions the CRD's OpenAPI refers to but does not
// hold (ObjectMeta and what it uses, autoscaling/v1 Scale) come from
// client-go's schema of the built-in types, which is generated from the
// same Kubernetes OpenAPI as the apiserver's.

// fieldManagers are a kind's type converter and field managers, built on
// first use and shared by every client of the CRDs.
type fieldManagers struct {
	once sync.Once
	tc   *typeConverter
	err  error

	mu       sync.Mutex
	managers map[string]*managedfields.FieldManager
}

// scaleGVK is the kind of the scale subresource's objects.
var scaleGVK = kschema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}

// fieldManager is the field manager of a served version's main resource
// (sub ""), status or scale subresource.
func (k *kind) fieldManager(version, sub string) (*managedfields.FieldManager, error) {
	k.managed.once.Do(func() { k.managed.tc, k.managed.err = newTypeConverter(k) })
	if k.managed.err != nil {
		return nil, k.managed.err
	}
	k.managed.mu.Lock()
	defer k.managed.mu.Unlock()
	id := version + "/" + sub
	if fm := k.managed.managers[id]; fm != nil {
		return fm, nil
	}
	gvk := k.gk.WithVersion(version)
	if sub == "scale" {
		gvk = scaleGVK
	}
	fm, err := managedfields.NewDefaultCRDFieldManager(
		k.managed.tc, versionConverter{k}, defaulter{k}, creater{},
		gvk, k.gk.WithVersion(version).GroupVersion(), sub, k.resetFields(version, sub))
	if err != nil {
		return nil, err
	}
	if k.managed.managers == nil {
		k.managed.managers = map[string]*managedfields.FieldManager{}
	}
	k.managed.managers[id] = fm
	return fm, nil
}

// resetFields are the fields a request cannot set, which its manager
// does not own: .status for the main resource of a version with the
// status subresource, metadata and .spec of every such version for the
// status subresource (the registry strategies' GetResetFields).
func (k *kind) resetFields(version, sub string) map[fieldpath.APIVersion]fieldpath.Filter {
	sets := map[fieldpath.APIVersion]*fieldpath.Set{}
	switch sub {
	case "":
		if v := k.versions[version]; v.status {
			sets[fieldpath.APIVersion(k.gk.WithVersion(version).GroupVersion().String())] = fieldpath.NewSet(fieldpath.MakePathOrDie("status"))
		}
	case "status":
		for name, v := range k.versions {
			if v.status {
				sets[fieldpath.APIVersion(k.gk.WithVersion(name).GroupVersion().String())] = fieldpath.NewSet(fieldpath.MakePathOrDie("metadata"), fieldpath.MakePathOrDie("spec"))
			}
		}
	default:
		return nil
	}
	return fieldpath.NewExcludeFilterSetMap(sets)
}

// typeConverter is a managedfields.TypeConverter for one kind's served
// versions and autoscaling/v1 Scale.
type typeConverter struct {
	types map[kschema.GroupVersionKind]*typed.ParseableType
}

// newTypeConverter builds the structured-merge-diff types of every served
// version from its published OpenAPI v3, with the built-in definitions
// they refer to.
func newTypeConverter(k *kind) (*typeConverter, error) {
	models, kindModels, err := openAPIModels(k)
	if err != nil {
		return nil, err
	}
	for name, def := range scaleModels() {
		models[name] = def
	}
	kindModels[scaleGVK] = scaleModel
	out, err := schemaconv.ToSchemaFromOpenAPI(models, k.preserveUnknownFields)
	if err != nil {
		return nil, fmt.Errorf("crdfake: the field manager's types of %s: %w", k.gk, err)
	}
	builtin, err := builtinSchema()
	if err != nil {
		return nil, err
	}
	parser := &typed.Parser{Schema: smdschema.Schema{Types: addReferenced(out.Types, builtin)}}
	tc := &typeConverter{types: map[kschema.GroupVersionKind]*typed.ParseableType{}}
	for gvk, model := range kindModels {
		t := parser.Type(model)
		tc.types[gvk] = &t
	}
	return tc, nil
}

// openAPIModels are the definitions the served versions publish, by model
// name, and the model of each version's kind.
func openAPIModels(k *kind) (map[string]*spec.Schema, map[kschema.GroupVersionKind]string, error) {
	models := map[string]*spec.Schema{}
	kindModels := map[kschema.GroupVersionKind]string{}
	for name, v := range k.versions {
		if !v.served {
			continue
		}
		defs, err := openAPIAt(k, name)
		if err != nil {
			return nil, nil, err
		}
		for model, def := range defs {
			s := &spec.Schema{}
			data, err := json.Marshal(def)
			if err == nil {
				err = json.Unmarshal(data, s)
			}
			if err != nil {
				return nil, nil, fmt.Errorf("crdfake: the OpenAPI of %s %s: %w", k.gk, name, err)
			}
			models[model] = s
			if strings.HasSuffix(model, "."+k.gk.Kind) {
				kindModels[k.gk.WithVersion(name)] = model
			}
		}
	}
	return models, kindModels, nil
}

const scaleModel = "io.k8s.api.autoscaling.v1.Scale"

// scaleModels are the OpenAPI definitions of autoscaling/v1 Scale, which
// the apiserver's static OpenAPI holds and client-go's schema does not.
func scaleModels() map[string]*spec.Schema {
	ref := func(model string) spec.Schema {
		return spec.Schema{SchemaProps: spec.SchemaProps{Ref: spec.MustCreateRef("#/components/schemas/" + model), Default: map[string]any{}}}
	}
	str := spec.Schema{SchemaProps: spec.SchemaProps{Type: []string{"string"}}}
	int32s := spec.Schema{SchemaProps: spec.SchemaProps{Type: []string{"integer"}, Format: "int32"}}
	obj := func(props map[string]spec.Schema) *spec.Schema {
		return &spec.Schema{SchemaProps: spec.SchemaProps{Type: []string{"object"}, Properties: props}}
	}
	scale := obj(map[string]spec.Schema{
		"apiVersion": str, "kind": str,
		"metadata": ref("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"),
		"spec":     ref("io.k8s.api.autoscaling.v1.ScaleSpec"),
		"status":   ref("io.k8s.api.autoscaling.v1.ScaleStatus"),
	})
	return map[string]*spec.Schema{
		scaleModel:                              scale,
		"io.k8s.api.autoscaling.v1.ScaleSpec":   obj(map[string]spec.Schema{"replicas": int32s}),
		"io.k8s.api.autoscaling.v1.ScaleStatus": obj(map[string]spec.Schema{"replicas": int32s, "selector": str}),
	}
}

var builtinOnce struct {
	sync.Once
	schema *smdschema.Schema
	err    error
}

// builtinSchema is client-go's structured-merge-diff schema of the
// built-in types (the one its apply configurations use).
func builtinSchema() (*smdschema.Schema, error) {
	builtinOnce.Do(func() {
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}}
		tv, err := clientgoapply.NewTypeConverter(clientgoscheme.Scheme).ObjectToTyped(u)
		if err != nil {
			builtinOnce.err = fmt.Errorf("crdfake: client-go's schema of the built-in types: %w", err)
			return
		}
		builtinOnce.schema = tv.Schema()
	})
	return builtinOnce.schema, builtinOnce.err
}

// addReferenced adds to types the built-in types they refer to but do
// not define, transitively.
func addReferenced(types []smdschema.TypeDef, builtin *smdschema.Schema) []smdschema.TypeDef {
	defined := map[string]bool{}
	for _, t := range types {
		defined[t.Name] = true
	}
	var queue []string
	want := func(name string) {
		if !defined[name] {
			defined[name] = true
			queue = append(queue, name)
		}
	}
	for _, t := range types {
		walkRefs(t.Atom, want)
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if t, ok := builtin.FindNamedType(name); ok {
			types = append(types, t)
			walkRefs(t.Atom, want)
		}
	}
	return types
}

func walkRefs(a smdschema.Atom, want func(string)) {
	ref := func(r smdschema.TypeRef) {
		if r.NamedType != nil {
			want(*r.NamedType)
		}
		walkRefs(r.Inlined, want)
	}
	if a.List != nil {
		ref(a.List.ElementType)
	}
	if a.Map != nil {
		ref(a.Map.ElementType)
		for _, f := range a.Map.Fields {
			ref(f.Type)
		}
	}
}

// ObjectToTyped is the typed value of an object of a known kind.
func (c *typeConverter) ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	gvk := obj.GetObjectKind().GroupVersionKind()
	t := c.types[gvk]
	if t == nil {
		return nil, fmt.Errorf("no corresponding type for %v", gvk)
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return t.FromUnstructured(u.Object, opts...)
	}
	return t.FromStructured(obj, opts...)
}

// TypedToObject is the unstructured object of a typed value.
func (c *typeConverter) TypedToObject(v *typed.TypedValue) (runtime.Object, error) {
	m, ok := v.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("failed to convert value to unstructured for type %T", v.AsValue().Unstructured())
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// versionConverter is the request scope's converter of a custom resource
// (the safe converter): a copy at another version. With conversion
// strategy None only apiVersion changes; with Webhook the object goes
// through the storage read path, which fails without a converter.
type versionConverter struct{ k *kind }

func (c versionConverter) Convert(in, out, _ any) error {
	inObj, ok := in.(*unstructured.Unstructured)
	outObj, ok2 := out.(*unstructured.Unstructured)
	if !ok || !ok2 {
		return fmt.Errorf("input type %T in not valid for unstructured conversion to %T", in, out)
	}
	conv, err := c.ConvertToVersion(inObj, outObj.GroupVersionKind().GroupVersion())
	if err != nil {
		return err
	}
	outObj.Object = conv.(*unstructured.Unstructured).Object
	return nil
}

func (c versionConverter) ConvertToVersion(in runtime.Object, target runtime.GroupVersioner) (runtime.Object, error) {
	from := in.GetObjectKind().GroupVersionKind()
	to, ok := target.KindForGroupVersionKinds([]kschema.GroupVersionKind{from})
	if !ok {
		return nil, fmt.Errorf("%v is unstructured and is not suitable for converting to %q", from, target)
	}
	u, ok := in.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("input type %T in not valid for unstructured conversion", in)
	}
	if from.GroupKind() == scaleGVK.GroupKind() {
		return u.DeepCopy(), nil
	}
	for _, gvk := range []kschema.GroupVersionKind{to, from} {
		if gvk.Group != c.k.gk.Group || c.k.versions[gvk.Version] == nil {
			return nil, fmt.Errorf("request to convert CR to an invalid group/version: %s", gvk.GroupVersion())
		}
	}
	out := u.DeepCopy()
	if from.Version == to.Version {
		return out, nil
	}
	if !c.k.webhook {
		out.SetAPIVersion(to.GroupVersion().String())
		return out, nil
	}
	r := convertTo(context.Background(), c.k, out.Object, to.Version)
	if r.Object == nil {
		return nil, fmt.Errorf("conversion of %s to %s failed: %v", from, to.Version, r.Errors.ToAggregate())
	}
	return &unstructured.Unstructured{Object: r.Object}, nil
}

func (c versionConverter) ConvertFieldLabel(gvk kschema.GroupVersionKind, label, value string) (string, string, error) {
	return "", "", fmt.Errorf("field label not supported: %s", label)
}

// defaulter applies the defaults of an object's version, as the
// apiserver's unstructuredDefaulter does to an apply's result (crdschema's
// Default also drops non-nullable nulls without default, which the
// apiserver's storage drops when it writes the object).
type defaulter struct{ k *kind }

func (d defaulter) Default(in runtime.Object) {
	u, ok := in.(*unstructured.Unstructured)
	if !ok || u.GroupVersionKind().GroupKind() != d.k.gk {
		return
	}
	sch, err := schemaAt(d.k, u.GroupVersionKind().Version)
	if err != nil {
		return
	}
	if r := sch.Default(u.Object); r.Object != nil {
		u.Object = r.Object
	}
}

// creater makes the empty objects the field manager starts a create from.
type creater struct{}

func (creater) New(gvk kschema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// recordUpdate records in obj's managedFields that manager wrote it over
// live (nil for a create), with the field manager of the target's version
// and subresource, as the apiserver does for every request that is not an
// apply. As there, a failure keeps live's managed fields.
func (s *semantics) recordUpdate(t *target, sub string, live, obj map[string]any, manager string) map[string]any {
	fm, err := t.k.fieldManager(t.v.name, sub)
	if err != nil {
		if live != nil {
			copyKey(metadata(obj), metadata(live), "managedFields")
		}
		return obj
	}
	var liveObj runtime.Object
	if live == nil {
		liveObj, _ = creater{}.New(t.gvk)
	} else {
		liveObj = &unstructured.Unstructured{Object: deepCopy(live)}
	}
	out := fm.UpdateNoErrors(liveObj, &unstructured.Unstructured{Object: obj}, manager)
	if u, ok := out.(*unstructured.Unstructured); ok {
		return u.Object
	}
	return obj
}

// managerName is the manager a request is recorded under: its
// fieldManager option, or what the apiserver takes from a client's
// default user agent (the program's name).
func managerName(fieldManager string) string {
	if fieldManager != "" {
		return fieldManager
	}
	return defaultManager()
}

// defaultManager is the program's name as the apiserver takes it from a
// client's default user agent, built once: the user agent formats the
// binary's name, version and platform, which do not change in a process.
var defaultManager = sync.OnceValue(func() string {
	ua := rest.DefaultKubernetesUserAgent()
	if i := strings.IndexByte(ua, '/'); i >= 0 {
		ua = ua[:i]
	}
	if len(ua) > 128 {
		ua = ua[:128]
	}
	return ua
})
