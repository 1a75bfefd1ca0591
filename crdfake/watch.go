package crdfake

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// watcher is one Watch of a kind at a version: the store offers it every
// change (under the store's lock), it queues those it selects, read at its
// version, and a goroutine of its own delivers them, so a slow consumer
// never blocks a write. As the fake's watches, it starts with the changes
// after it was opened (no initial list).
type watcher struct {
	s         *semantics
	t         *target
	namespace string
	labels    labels.Selector
	fields    fields.Selector
	// newObject makes the event objects: the type of the list's items.
	newObject func() client.Object

	result chan watch.Event
	stop   chan struct{}
	wake   chan struct{}
	once   sync.Once

	mu    sync.Mutex
	queue []watch.Event
}

func (s *semantics) openWatch(t *target, o *client.ListOptions, newObject func() client.Object) *watcher {
	w := &watcher{
		s: s, t: t, namespace: o.Namespace, labels: o.LabelSelector, fields: o.FieldSelector, newObject: newObject,
		result: make(chan watch.Event), stop: make(chan struct{}), wake: make(chan struct{}, 1),
	}
	s.store.mu.Lock()
	s.store.watchers[w] = true
	s.store.mu.Unlock()
	go w.run()
	return w
}

// offer queues an event when the watch selects it.
func (w *watcher) offer(key objectKey, event watch.EventType, stored map[string]any) {
	if key.group != w.t.k.gk.Group || key.kind != w.t.k.gk.Kind || (w.t.k.namespaced && w.namespace != "" && key.namespace != w.namespace) {
		return
	}
	r := readAt(context.Background(), w.t.k, stored, w.t.v.name)
	if r.Object == nil || !w.s.selects(w.t, r.Object, w.labels, w.fields) {
		return
	}
	obj := w.newObject()
	if err := w.s.decode(r.Object, obj); err != nil {
		return
	}
	w.mu.Lock()
	w.queue = append(w.queue, watch.Event{Type: event, Object: obj})
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *watcher) run() {
	defer close(w.result)
	for {
		w.mu.Lock()
		q := w.queue
		w.queue = nil
		w.mu.Unlock()
		for _, ev := range q {
			select {
			case w.result <- ev:
			case <-w.stop:
				return
			}
		}
		select {
		case <-w.wake:
		case <-w.stop:
			return
		}
	}
}

// Stop ends the watch; its result channel is closed.
func (w *watcher) Stop() {
	w.once.Do(func() {
		w.s.store.mu.Lock()
		delete(w.s.store.watchers, w)
		w.s.store.mu.Unlock()
		close(w.stop)
	})
}

// ResultChan delivers the events.
func (w *watcher) ResultChan() <-chan watch.Event { return w.result }

var _ watch.Interface = (*watcher)(nil)

// itemFactory returns a function making objects of the type of list's
// items: the scheme's type of the kind when the list is typed,
// unstructured or partial metadata otherwise.
func itemFactory(c client.Client, list client.ObjectList, t *target) func() client.Object {
	switch list.(type) {
	case *unstructured.UnstructuredList:
		return func() client.Object { return newUnstructured(t.gvk) }
	case *metav1.PartialObjectMetadataList:
		return func() client.Object { return newPartial(t.gvk) }
	}
	if obj, err := c.Scheme().New(t.gvk); err == nil {
		if co, ok := obj.(client.Object); ok {
			return func() client.Object { return co.DeepCopyObject().(client.Object) }
		}
	}
	return func() client.Object { return newUnstructured(t.gvk) }
}
