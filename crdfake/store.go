package crdfake

import (
	"sort"
	"strconv"
	"sync"

	"k8s.io/apimachinery/pkg/watch"
)

// objectKey is where a cluster keeps a custom resource: one object per
// group, kind, namespace ("" for a cluster-scoped kind) and name, whatever
// the version it is written or read at.
type objectKey struct {
	group, kind, namespace, name string
}

func keyOf(k *kind, namespace, name string) objectKey {
	if !k.namespaced {
		namespace = ""
	}
	return objectKey{group: k.gk.Group, kind: k.gk.Kind, namespace: namespace, name: name}
}

// store is etcd for the CRDs' kinds of one fake client: the objects as
// stored (at the storage version, or as seeded), a resourceVersion counter
// shared by all of them, as the apiserver's, and the watchers. Every
// request holds mu from its read of the stored object to its write, so
// requests are serialized and no optimistic-concurrency retry is needed.
type store struct {
	mu       sync.Mutex
	rv       uint64
	objects  map[objectKey]map[string]any
	watchers map[*watcher]bool
}

func newStore() *store {
	return &store{
		objects:  map[objectKey]map[string]any{},
		watchers: map[*watcher]bool{},
	}
}

// nextRV is the resourceVersion of the next write.
func (s *store) nextRV() string {
	s.rv++
	return strconv.FormatUint(s.rv, 10)
}

// sawRV keeps the counter above a resourceVersion given with a seeded
// object.
func (s *store) sawRV(rv string) {
	if n, err := strconv.ParseUint(rv, 10, 64); err == nil && n > s.rv {
		s.rv = n
	}
}

// list returns the keys of a kind's objects in a namespace ("" for all),
// in etcd's key order.
func (s *store) list(k *kind, namespace string) []objectKey {
	var out []objectKey
	for key := range s.objects {
		if key.group == k.gk.Group && key.kind == k.gk.Kind && (namespace == "" || !k.namespaced || key.namespace == namespace) {
			out = append(out, key)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].namespace != out[j].namespace {
			return out[i].namespace < out[j].namespace
		}
		return out[i].name < out[j].name
	})
	return out
}

// put stores obj under key and tells the watchers.
func (s *store) put(key objectKey, obj map[string]any, event watch.EventType) {
	s.objects[key] = obj
	s.notify(key, event, obj)
}

// remove deletes the object under key (a write: etcd's revision moves
// on) and tells the watchers, with the object as it was last stored.
func (s *store) remove(key objectKey) {
	obj := s.objects[key]
	delete(s.objects, key)
	s.nextRV()
	s.notify(key, watch.Deleted, obj)
}

func (s *store) notify(key objectKey, event watch.EventType, obj map[string]any) {
	for w := range s.watchers {
		w.offer(key, event, obj)
	}
}
