package model

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/crdschema/crdschema/internal/semantic"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/schema"
)

// TestSchemasDifferIsSound holds SchemasDiffer to semantic.Equal: it may
// only find a difference where semantic.Equal does, for hand-made pairs
// (nil and empty are equal to semantic.Equal) and every pair of versions
// of every corpus CRD.
func TestSchemasDifferIsSound(t *testing.T) {
	v := func(p *Props) *Validation { return &Validation{OpenAPIV3Schema: p} }
	obj := func(props map[string]*Props) *Props { return &Props{Type: "object", Properties: props} }
	pairs := [][2]*Validation{
		{v(obj(nil)), v(obj(map[string]*Props{}))},
		{v(obj(map[string]*Props{"a": {Type: "string"}})), v(obj(map[string]*Props{"a": {Type: "string", Enum: []JSON{}}}))},
		{v(obj(map[string]*Props{"a": {Type: "string"}})), v(obj(map[string]*Props{"b": {Type: "string"}}))},
		{v(&Props{Type: "array", Items: &PropsOrArray{Schema: &Props{Type: "string"}}}), v(&Props{Type: "array", Items: &PropsOrArray{Schema: &Props{Type: "integer"}}})},
		{v(&Props{Type: "object", AdditionalProperties: &PropsOrBool{Allows: true, Schema: &Props{Description: "x"}}}), v(&Props{Type: "object", AdditionalProperties: &PropsOrBool{Allows: true, Schema: &Props{Description: "y"}}})},
		{v(nil), v(&Props{})}, {nil, v(&Props{})},
	}
	found := 0
	for _, p := range pairs {
		if SchemasDiffer(p[0], p[1]) {
			found++
			if semantic.Equal(p[0], p[1]) {
				t.Errorf("SchemasDiffer finds a difference semantic.Equal does not: %+v, %+v", p[0], p[1])
			}
		}
	}
	if found != 3 {
		t.Errorf("found %d differences among the hand-made pairs, want 3", found)
	}
}

// TestSchemasDifferCorpus holds SchemasDiffer to semantic.Equal on every
// pair of versions of every corpus CRD.
func TestSchemasDifferCorpus(t *testing.T) {
	compared, differ := 0, 0
	for _, crd := range corpusCRDs(t) {
		vs := crd.Spec.Versions
		for i := range vs {
			for j := range i {
				compared++
				if !SchemasDiffer(vs[i].Schema, vs[j].Schema) {
					continue
				}
				differ++
				if semantic.Equal(vs[i].Schema, vs[j].Schema) {
					t.Errorf("%s: versions %s and %s: SchemasDiffer finds a difference semantic.Equal does not", crd.Metadata.Name, vs[i].Name, vs[j].Name)
				}
			}
		}
	}
	t.Logf("corpus: %d pairs of versions compared, %d found to differ", compared, differ)
	// The corpus has pairs that differ (62 of 140 when this was written): a
	// SchemasDiffer that never found a difference would check nothing above.
	if differ == 0 || differ == compared {
		t.Errorf("SchemasDiffer found %d of %d corpus version pairs to differ, want some but not all", differ, compared)
	}
}

// corpusCRDs decodes every CRD of the shared corpus (skipping, saying so,
// when it is absent).
func corpusCRDs(t *testing.T) []*CRD {
	files, _ := filepath.Glob(filepath.Join(shareddata.Dir(t, "corpus"), "*", "crds", "*.yaml"))
	var crds []*CRD
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := schema.ReadDocuments(f, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			crd, err := DecodeCRDDocument(d)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			crds = append(crds, crd)
		}
	}
	if len(crds) == 0 {
		t.Fatal("no CRDs in the corpus")
	}
	return crds
}
