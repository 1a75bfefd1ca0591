package model

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/internal/semantic"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/schema"
)

// TestSchemasEqualHandMade holds SchemasEqual to semantic.Equal on pairs
// whose difference is at an edge: nil against empty, nil against zero, a
// null property, NaN bounds (shared or not), JSON values.
func TestSchemasEqualHandMade(t *testing.T) {
	v := func(p *Props) *Validation { return &Validation{OpenAPIV3Schema: p} }
	obj := func(props map[string]*Props) *Props { return &Props{Type: "object", Properties: props} }
	nan, one := math.NaN(), 1.0
	shared := &Props{Maximum: &nan}
	// A NaN JSON value behind a shared pointer or slice: reflect.DeepEqual
	// takes the shared value for equal, the forked comparison only the
	// shared slice.
	sharedJSON, sharedEnum := &JSON{Value: nan}, []JSON{{Value: nan}}
	pairs := [][2]*Validation{
		{v(obj(nil)), v(obj(map[string]*Props{}))},
		{v(obj(map[string]*Props{"a": {Type: "string"}})), v(obj(map[string]*Props{"a": {Type: "string", Enum: []JSON{}}}))},
		{v(obj(map[string]*Props{"a": {Type: "string"}})), v(obj(map[string]*Props{"b": {Type: "string"}}))},
		{v(obj(map[string]*Props{"a": nil})), v(obj(map[string]*Props{"a": {}}))},
		{v(obj(map[string]*Props{"a": nil})), v(obj(map[string]*Props{"a": nil}))},
		{v(&Props{Type: "array", Items: &PropsOrArray{Schema: &Props{Type: "string"}}}), v(&Props{Type: "array", Items: &PropsOrArray{Schema: &Props{Type: "integer"}}})},
		{v(&Props{Items: &PropsOrArray{}}), v(&Props{Items: &PropsOrArray{Array: []Props{}}})},
		{v(&Props{Items: &PropsOrArray{}}), v(&Props{})},
		{v(&Props{AdditionalProperties: &PropsOrBool{Allows: true, Schema: &Props{Description: "x"}}}), v(&Props{AdditionalProperties: &PropsOrBool{Allows: true, Schema: &Props{Description: "y"}}})},
		{v(&Props{AdditionalProperties: &PropsOrBool{Allows: true}}), v(&Props{AdditionalProperties: &PropsOrBool{Allows: true, Schema: &Props{}}})},
		{v(&Props{Default: &JSON{Value: map[string]any{}}}), v(&Props{Default: &JSON{Value: map[string]any(nil)}})},
		{v(&Props{Default: &JSON{Value: map[string]any{}}}), v(&Props{Default: &JSON{}})},
		{v(&Props{Default: &JSON{Value: int64(1)}}), v(&Props{Default: &JSON{Value: 1.0}})},
		{v(&Props{Enum: []JSON{{Value: []any{}}}}), v(&Props{Enum: []JSON{{Value: []any(nil)}}})},
		{v(&Props{Maximum: &one}), v(&Props{Maximum: new(float64)})},
		{v(&Props{Maximum: &nan}), v(&Props{Maximum: &nan})},
		{v(shared), v(shared)},
		{v(&Props{Properties: map[string]*Props{"a": shared}, Nullable: true}), v(&Props{Properties: map[string]*Props{"a": shared}, Required: []string{}})},
		{v(&Props{Default: sharedJSON}), v(&Props{Default: sharedJSON})},
		{v(&Props{Example: sharedJSON, Required: []string{}}), v(&Props{Example: sharedJSON})},
		{v(&Props{Enum: sharedEnum}), v(&Props{Enum: sharedEnum})},
		{v(&Props{Enum: sharedEnum, Required: []string{}}), v(&Props{Enum: sharedEnum})},
		{v(&Props{Enum: []JSON{{Value: nan}}}), v(&Props{Enum: []JSON{{Value: nan}}})},
		{v(&Props{Dependencies: map[string]PropsOrStringArray{"a": {}}}), v(&Props{Dependencies: map[string]PropsOrStringArray{"a": {Property: []string{}}}})},
		{v(&Props{XValidations: []ValidationRule{{Rule: "a"}}}), v(&Props{XValidations: []ValidationRule{{Rule: "a", Reason: new(string)}}})},
		{v(nil), v(&Props{})}, {nil, v(&Props{})}, {nil, nil}, {v(nil), v(nil)},
	}
	equal := 0
	for i, p := range pairs {
		got, want := SchemasEqual(p[0], p[1]), semantic.Equal(p[0], p[1])
		if got != want {
			t.Errorf("pair %d: SchemasEqual = %v, semantic.Equal = %v", i, got, want)
		}
		if want {
			equal++
		}
	}
	if equal == 0 || equal == len(pairs) {
		t.Errorf("%d of %d hand-made pairs equal: the pairs test one answer only", equal, len(pairs))
	}
}

// TestSchemasEqualCorpus holds SchemasEqual to semantic.Equal on every
// version's schema of every corpus CRD against the same schema decoded
// again, then against random changes of one field of one node of it: a
// field of Props SchemasEqual does not compare (one added later, say)
// makes it fail.
func TestSchemasEqualCorpus(t *testing.T) {
	rnd := rand.New(rand.NewPCG(32, 9))
	again := corpusCRDs(t)
	compared, differ := 0, 0
	for i, crd := range corpusCRDs(t) {
		for _, v := range crd.Spec.Versions {
			a := &Validation{OpenAPIV3Schema: crd.SchemaFor(v.Name)}
			b := &Validation{OpenAPIV3Schema: again[i].SchemaFor(v.Name)}
			if !SchemasEqual(a, b) {
				t.Fatalf("%s %s: a schema is not equal to itself decoded again", crd.Metadata.Name, v.Name)
			}
			nodes := schemaNodes(b.OpenAPIV3Schema, nil)
			if len(nodes) == 0 {
				continue // a version without a schema
			}
			for range 3 {
				undo := mutateField(rnd, nodes[rnd.IntN(len(nodes))])
				got, want := SchemasEqual(a, b), semantic.Equal(a, b)
				if got != want {
					t.Errorf("%s %s: after a change, SchemasEqual = %v, semantic.Equal = %v", crd.Metadata.Name, v.Name, got, want)
				}
				compared++
				if !want {
					differ++
				}
				undo()
			}
		}
	}
	t.Logf("%d changed schemas compared, %d unequal", compared, differ)
	if differ < compared/4 || differ > compared*3/4 {
		t.Errorf("%d of %d changed schemas unequal: the changes test one answer only", differ, compared)
	}
}

// TestSchemasEqualVersions holds SchemasEqual to semantic.Equal on every
// pair of versions of every corpus CRD.
func TestSchemasEqualVersions(t *testing.T) {
	compared, equal := 0, 0
	for _, crd := range corpusCRDs(t) {
		vs := crd.Spec.Versions
		for i := range vs {
			for j := range i {
				compared++
				got, want := SchemasEqual(vs[i].Schema, vs[j].Schema), semantic.Equal(vs[i].Schema, vs[j].Schema)
				if got != want {
					t.Errorf("%s: versions %s and %s: SchemasEqual = %v, semantic.Equal = %v", crd.Metadata.Name, vs[i].Name, vs[j].Name, got, want)
				}
				if want {
					equal++
				}
			}
		}
	}
	t.Logf("corpus: %d pairs of versions compared, %d equal", compared, equal)
	if equal == 0 || equal == compared {
		t.Errorf("%d of %d corpus version pairs equal, want some but not all", equal, compared)
	}
}

// schemaNodes appends p and every schema nested in it to nodes.
func schemaNodes(p *Props, nodes []*Props) []*Props {
	if p == nil {
		return nodes
	}
	nodes = append(nodes, p)
	for _, c := range p.Properties {
		nodes = schemaNodes(c, nodes)
	}
	if p.Items != nil {
		nodes = schemaNodes(p.Items.Schema, nodes)
	}
	if p.AdditionalProperties != nil {
		nodes = schemaNodes(p.AdditionalProperties.Schema, nodes)
	}
	for _, l := range [...][]Props{p.AllOf, p.AnyOf, p.OneOf} {
		for i := range l {
			nodes = schemaNodes(&l[i], nodes)
		}
	}
	return schemaNodes(p.Not, nodes)
}

// mutateField changes one field of p, chosen at random, to a value chosen
// at random among those where comparisons go wrong (nil, empty, zero, one
// more element, one key less, NaN), and returns what undoes it.
func mutateField(rnd *rand.Rand, p *Props) (undo func()) {
	pv := reflect.ValueOf(p).Elem()
	f := pv.Field(rnd.IntN(pv.NumField()))
	old := reflect.New(f.Type()).Elem()
	old.Set(f)
	undo = func() { f.Set(old) }
	choice := rnd.IntN(3)
	switch f.Kind() {
	case reflect.String:
		f.SetString([]string{"", "x", f.String() + "x"}[choice])
	case reflect.Bool:
		f.SetBool(!f.Bool())
	case reflect.Pointer:
		switch {
		case choice == 0 || f.IsNil() && choice == 1:
			f.SetZero()
		case f.Type().Elem().Kind() == reflect.Float64:
			f.Set(reflect.ValueOf([]*float64{new(float64), ptrTo(math.NaN())}[rnd.IntN(2)]))
		default:
			f.Set(reflect.New(f.Type().Elem()))
		}
	case reflect.Slice:
		switch choice {
		case 0:
			f.SetZero()
		case 1:
			f.Set(reflect.MakeSlice(f.Type(), 0, 0))
		default:
			f.Set(reflect.Append(reflect.AppendSlice(reflect.MakeSlice(f.Type(), 0, f.Len()+1), f), reflect.New(f.Type().Elem()).Elem()))
		}
	case reflect.Map:
		m := reflect.MakeMap(f.Type())
		if choice > 0 {
			// A copy of the map with one key less (choice 1) or one
			// more, holding the zero value.
			iter := f.MapRange()
			for skip := choice == 1; iter.Next(); skip = false {
				if !skip {
					m.SetMapIndex(iter.Key(), iter.Value())
				}
			}
			if choice == 2 {
				m.SetMapIndex(reflect.ValueOf("added"), reflect.New(f.Type().Elem()).Elem())
			}
		}
		if choice == 0 && rnd.IntN(2) == 0 {
			m = reflect.Zero(f.Type())
		}
		f.Set(m)
	default:
		panic("mutateField: a Props field of kind " + f.Kind().String())
	}
	return undo
}

func ptrTo[T any](v T) *T { return &v }

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
