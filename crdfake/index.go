package crdfake

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/fields"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/selection"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Field selectors of a List: the apiserver takes metadata.name,
// metadata.namespace and the version's selectable fields; the fake also
// answers other fields with the indexes registered with WithIndex or
// AddIndex, as a cached client answers them with its field indexes, and
// so does crdfake (exact matches only, as the fake).

// fieldFilter is a List's field selector split in two: what the
// apiserver evaluates, and the requirements an index answers.
type fieldFilter struct {
	server  fields.Selector
	indexed []fields.Requirement
	indexes map[string]client.IndexerFunc
}

// splitFields splits a field selector; a requirement neither the
// apiserver nor an index answers is the apiserver's error.
func (s *semantics) splitFields(t *target, fs fields.Selector) (*fieldFilter, error) {
	f := &fieldFilter{server: fs}
	if fs == nil || fs.Empty() {
		return f, nil
	}
	var server []fields.Selector
	for _, r := range fs.Requirements() {
		if supportedFieldLabel(t, r.Field) {
			server = append(server, fields.OneTermEqualSelector(r.Field, r.Value))
			if r.Operator == selection.NotEquals {
				server[len(server)-1] = fields.OneTermNotEqualSelector(r.Field, r.Value)
			}
			continue
		}
		index := s.index(t.gvk, r.Field)
		if index == nil {
			return nil, apierrors.NewBadRequest("field label not supported: " + r.Field)
		}
		if r.Operator != selection.Equals && r.Operator != selection.DoubleEquals {
			return nil, fmt.Errorf(`field selector %s is not in one of the two supported forms "key==val" or "key=val"`, fs)
		}
		if f.indexes == nil {
			f.indexes = map[string]client.IndexerFunc{}
		}
		f.indexes[r.Field] = index
		f.indexed = append(f.indexed, r)
	}
	f.server = fields.AndSelectors(server...)
	return f, nil
}

// matches tells whether obj (decoded as the list's items) has every
// indexed value.
func (f *fieldFilter) matches(obj client.Object) bool {
	for _, r := range f.indexed {
		found := false
		for _, v := range f.indexes[r.Field](obj) {
			found = found || v == r.Value
		}
		if !found {
			return false
		}
	}
	return true
}

// index is the index of a kind's field, nil without one.
func (s *semantics) index(gvk kschema.GroupVersionKind, field string) client.IndexerFunc {
	s.indexMu.RLock()
	defer s.indexMu.RUnlock()
	return s.indexes[gvk][field]
}
