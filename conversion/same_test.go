package conversion

import (
	"testing"

	"github.com/crdschema/crdschema/structural"
)

// TestSchemaClasses: versions share a class only when every structural
// keyword the read path uses is equal.
func TestSchemaClasses(t *testing.T) {
	spec := func(mod func(*structural.Schema)) *structural.Schema {
		replicas := &structural.Schema{Type: "integer", HasDefault: true, Default: int64(1)}
		s := &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{
			"spec": {Type: "object", Properties: map[string]*structural.Schema{"replicas": replicas}},
		}}
		if mod != nil {
			mod(replicas)
		}
		return s
	}
	versions := map[string]Version{
		"v1":      {Schema: spec(nil), Defaults: spec(nil)},
		"v2":      {Schema: spec(nil), Defaults: spec(nil)},
		"v3":      {Schema: spec(func(s *structural.Schema) { s.Default = int64(2) }), Defaults: spec(nil)},
		"v4":      {Schema: spec(nil), Defaults: spec(func(s *structural.Schema) { s.Nullable = true })},
		"v5":      {Schema: spec(func(s *structural.Schema) { s.Type = "string" }), Defaults: spec(nil)},
		"v6":      {Schema: spec(nil)},
		"v7":      {},
		"v8":      {},
		"v1beta1": {Schema: spec(func(s *structural.Schema) { s.EmbeddedResource = true }), Defaults: spec(nil)},
	}
	c := schemaClasses(versions)
	same := [][2]string{{"v1", "v2"}, {"v7", "v8"}}
	for _, p := range same {
		if c[p[0]] != c[p[1]] {
			t.Errorf("%s and %s: different classes", p[0], p[1])
		}
	}
	for _, v := range []string{"v3", "v4", "v5", "v6", "v7", "v1beta1"} {
		if c[v] == c["v1"] {
			t.Errorf("%s: same class as v1", v)
		}
	}
}
