package embedded_test

import (
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/embedded"
)

// TestMetaAsCreated checks MetaIsAsCreated against what it stands for: true
// exactly when MetaForCreate changes nothing.
func TestMetaAsCreated(t *testing.T) {
	metas := []map[string]any{
		nil,
		{},
		{"name": "a"},
		{"name": "a", "namespace": "ns"},
		{"name": "a", "namespace": ""},
		{"name": "a", "namespace": nil},
		{"name": "a", "namespace": int64(1)},
		{"generateName": "g-"},
		{"generateName": "g-", "namespace": "ns"},
		{"name": "", "generateName": "g-", "namespace": "ns"},
		{"name": "a", "generateName": "g-", "namespace": "ns"},
		{"name": int64(1), "generateName": "g-", "namespace": "ns"},
		{"name": int64(1), "generateName": "", "namespace": "ns"},
		{"generateName": int64(1), "namespace": "ns"},
		{"labels": map[string]any{"a": "b"}, "namespace": "ns"},
	}
	for _, m := range metas {
		for _, namespaced := range []bool{false, true} {
			want := m != nil && reflect.DeepEqual(embedded.MetaForCreate(m, namespaced), m)
			if got := embedded.MetaIsAsCreated(m, namespaced); got != want {
				t.Errorf("MetaIsAsCreated(%v, namespaced %v) = %v, want %v", m, namespaced, got, want)
			}
		}
	}
}
