package oracle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/storage"
)

// memStorage is etcd for one custom resource kind (every version's store
// shares it, as they share the etcd prefix), with the custom resource
// storage codec of crdConversionRESTOptionsGetter: objects are written
// converted to the storage version and coerced with its schema (the
// schemaCoercingConverter), and read with the storage decoder (coercion
// dropping malformed metadata, generation repair, the stored version's
// defaults) then converted to the version of the object asked for and
// coerced with its schema. The resourceVersion counter is the store's,
// shared by the kinds of one Cluster.
type memStorage struct {
	k   *clusterKind
	rv  *revision
	mu  sync.Mutex
	obj map[string][]byte
	ver map[string]uint64
}

// revision is etcd's revision counter.
type revision struct {
	mu sync.Mutex
	n  uint64
}

func (r *revision) next() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	return r.n
}

var _ storage.Interface = (*memStorage)(nil)

func (m *memStorage) Versioner() storage.Versioner { return storage.APIObjectVersioner{} }

// encode is the storage codec's write: to the storage version, coerced
// with its schema, without resourceVersion.
func (m *memStorage) encode(obj runtime.Object) ([]byte, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("memStorage: cannot store %T", obj)
	}
	u = u.DeepCopy()
	if err := (storage.APIObjectVersioner{}).PrepareObjectForStorage(u); err != nil {
		return nil, err
	}
	sv := m.k.version(m.k.storageVersion)
	target := schema.GroupVersion{Group: m.k.gk.Group, Version: m.k.storageVersion}
	out, err := noneConverter(m.k.crd.V1).ConvertToVersion(u, target)
	if err != nil {
		return nil, err
	}
	u = out.(*unstructured.Unstructured)
	if _, errs := coerce(u.Object, sv.structural, m.k.gk, m.k.crd.V1.Spec.PreserveUnknownFields, coerceOptions{pruneUnknown: true, pruneNulls: true}); len(errs) > 0 {
		return nil, errs.ToAggregate()
	}
	return u.MarshalJSON()
}

// decode is the storage codec's read into an object of the version into
// names (its GVK, set by the store's NewFunc), with resourceVersion rv.
func (m *memStorage) decode(data []byte, rv uint64, into runtime.Object) error {
	u, ok := into.(*unstructured.Unstructured)
	if !ok {
		return fmt.Errorf("memStorage: cannot decode into %T", into)
	}
	version := u.GroupVersionKind().Version
	var obj map[string]any
	if err := kjson.Unmarshal(data, &obj); err != nil {
		return err
	}
	preserve := m.k.crd.V1.Spec.PreserveUnknownFields
	stored := m.k.version(m.k.storageVersion)
	if _, errs := coerce(obj, stored.structural, m.k.gk, preserve, coerceOptions{pruneUnknown: true, pruneNulls: true, dropInvalidMetadata: true, repairGeneration: true}); len(errs) > 0 {
		return errs.ToAggregate()
	}
	structuraldefaulting.Default(obj, stored.structural)
	if version == "" {
		version = m.k.storageVersion
	}
	out, err := noneConverter(m.k.crd.V1).ConvertToVersion(&unstructured.Unstructured{Object: obj}, schema.GroupVersion{Group: m.k.gk.Group, Version: version})
	if err != nil {
		return err
	}
	obj = out.(*unstructured.Unstructured).Object
	if _, errs := coerce(obj, m.k.version(version).structural, m.k.gk, preserve, coerceOptions{pruneUnknown: true, pruneNulls: true}); len(errs) > 0 {
		return errs.ToAggregate()
	}
	u.Object = obj
	return (storage.APIObjectVersioner{}).UpdateObject(u, rv)
}

func (m *memStorage) Create(_ context.Context, key string, obj, out runtime.Object, _ uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, err := (storage.APIObjectVersioner{}).ObjectResourceVersion(obj); err == nil && v != 0 {
		return errors.New("resourceVersion should not be set on objects to be created")
	}
	if _, ok := m.obj[key]; ok {
		return storage.NewKeyExistsError(key, 0)
	}
	data, err := m.encode(obj)
	if err != nil {
		return err
	}
	rv := m.rv.next()
	m.obj[key], m.ver[key] = data, rv
	return m.decode(data, rv, out)
}

func (m *memStorage) Delete(ctx context.Context, key string, out runtime.Object, preconditions *storage.Preconditions, validateDeletion storage.ValidateObjectFunc, _ runtime.Object, _ storage.DeleteOptions) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	data, ok := m.obj[key]
	if !ok {
		return storage.NewKeyNotFoundError(key, 0)
	}
	if err := m.decode(data, m.ver[key], out); err != nil {
		return err
	}
	if preconditions != nil {
		if err := preconditions.Check(key, out); err != nil {
			return err
		}
	}
	if err := validateDeletion(ctx, out); err != nil {
		return err
	}
	delete(m.obj, key)
	delete(m.ver, key)
	return (storage.APIObjectVersioner{}).UpdateObject(out, m.rv.next())
}

func (m *memStorage) Get(_ context.Context, key string, opts storage.GetOptions, out runtime.Object) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	data, ok := m.obj[key]
	if !ok {
		if opts.IgnoreNotFound {
			return runtime.SetZeroValue(out)
		}
		return storage.NewKeyNotFoundError(key, 0)
	}
	return m.decode(data, m.ver[key], out)
}

// GuaranteedUpdate is etcd3's: the update function gets the current
// object (a zero one when there is none and ignoreNotFound); a result
// that encodes to the stored bytes is no write.
func (m *memStorage) GuaranteedUpdate(ctx context.Context, key string, dest runtime.Object, ignoreNotFound bool, preconditions *storage.Preconditions, tryUpdate storage.UpdateFunc, _ runtime.Object) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	data, exists := m.obj[key]
	existing := dest.DeepCopyObject()
	var existingRV uint64
	switch {
	case exists:
		existingRV = m.ver[key]
		if err := m.decode(data, existingRV, existing); err != nil {
			return err
		}
		if preconditions != nil {
			if err := preconditions.Check(key, existing); err != nil {
				return err
			}
		}
	case !ignoreNotFound:
		return storage.NewKeyNotFoundError(key, 0)
	default:
		existing = &unstructured.Unstructured{}
	}
	ret, _, err := tryUpdate(existing, storage.ResponseMeta{ResourceVersion: existingRV})
	if err != nil {
		return err
	}
	next, err := m.encode(ret)
	if err != nil {
		return err
	}
	if exists && bytes.Equal(next, data) {
		return m.decode(data, existingRV, dest)
	}
	rv := m.rv.next()
	m.obj[key], m.ver[key] = next, rv
	return m.decode(next, rv, dest)
}

func (m *memStorage) Watch(context.Context, string, storage.ListOptions) (watch.Interface, error) {
	return nil, errors.New("memStorage: no watch")
}

func (m *memStorage) GetList(context.Context, string, storage.ListOptions, runtime.Object) error {
	return errors.New("memStorage: no list")
}

func (m *memStorage) Stats(context.Context) (storage.Stats, error) { return storage.Stats{}, nil }
func (m *memStorage) ReadinessCheck() error                        { return nil }
func (m *memStorage) RequestWatchProgress(context.Context) error   { return nil }
func (m *memStorage) GetCurrentResourceVersion(context.Context) (uint64, error) {
	return m.rv.n, nil
}
func (m *memStorage) EnableResourceSizeEstimation(storage.KeysFunc) error { return nil }
func (m *memStorage) CompactRevision() int64                              { return 0 }

// memCodec is the codec the registry's dry-run storage copies objects
// with: the storage codec's write and read.
type memCodec struct{ m *memStorage }

func (c memCodec) Encode(obj runtime.Object, w io.Writer) error {
	data, err := c.m.encode(obj)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

func (c memCodec) Decode(data []byte, _ *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	if into == nil {
		into = &unstructured.Unstructured{}
	}
	err := c.m.decode(data, 0, into)
	gvk := into.GetObjectKind().GroupVersionKind()
	return into, &gvk, err
}

func (c memCodec) Identifier() runtime.Identifier { return "oracle-memstorage" }
