package check

import (
	"testing"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// FuzzCheckSchema feeds arbitrary JSON as a bare schema, and wrapped into a
// v1 CRD, to parsing, structural building and the checks: none may panic.
func FuzzCheckSchema(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}`,
		`{"properties":{"foo":{"pattern":"abc"}},"anyOf":[{"properties":{"bar":{"type":"integer"}},"description":"x"}]}`,
		`{"type":"object","properties":{"m":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","properties":{"k":{"type":"string","default":"a"}}}}}}`,
		`{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"object","default":{"name":"x"}}}}}}`,
		`{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}`,
		`{"$ref":"#/x","items":[{"type":"string"}],"type":"null","default":{"a":1}}`,
		`{"type":"object","x-kubernetes-validations":[{"rule":"","message":"a\nb","reason":"Nope","fieldPath":".x["}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p model.Props
		if err := model.DecodeProps(data, &p); err != nil {
			return
		}
		if s, err := structural.New(&p); err == nil {
			_ = structural.Validate(nil, s)
		}
		_ = BareSchema(&p)
		crdJSON := append([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"foos.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"foos","kind":"Foo"},"versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},"schema":{"openAPIV3Schema":`), data...)
		crdJSON = append(crdJSON, `}}]}}`...)
		if crd, err := model.DecodeCRD(crdJSON); err == nil {
			_, _ = CRD(crd)
		}
	})
}
