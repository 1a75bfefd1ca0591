package cel

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"testing"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/common"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// apiserverTypes is the provider the apiserver gives a node's environment
// for self of type decl named name: the reference selfTypes answers as.
func apiserverTypes(t *testing.T, decl *apiservercel.DeclType, name string) (*apiservercel.DeclTypeProvider, *celgo.Type) {
	t.Helper()
	base, err := baseEnv(newExpressions)
	if err != nil {
		t.Fatal(err)
	}
	named := decl.MaybeAssignTypeName(name)
	p := apiservercel.NewDeclTypeProvider(named)
	p.SetRecognizeKeywordAsFieldName(true)
	p, err = p.WithTypeProvider(base.CELTypeProvider())
	if err != nil {
		t.Fatal(err)
	}
	return p, named.CelType()
}

// compareSelfTypes fails t where selfTypes answers differently from the
// apiserver's provider for self of type decl: for the named self type, for
// every name the apiserver registers, every name one step below one of
// them, and names of other providers; for every field of every registered
// type, and fields no type has. It returns how many names it compared.
func compareSelfTypes(t *testing.T, where string, decl *apiservercel.DeclType) int {
	t.Helper()
	const name = "selfType123"
	ref, refSelf := apiserverTypes(t, decl, name)
	got := newSelfTypes(decl, name, noTypes[newExpressions])
	if !reflect.DeepEqual(got.self, refSelf) {
		t.Errorf("%s: self is %v, the apiserver's %v", where, got.self, refSelf)
		return 0
	}
	registered := ref.TypeNames()
	sort.Strings(registered)
	names := append([]string{name, name + ".", name + "x", "list", "map", "list.@idx", "map.@elem", "string", "int",
		"object", "google.protobuf.Duration", "", "."}, registered...)
	extra := []string{"@idx", "@elem", "nosuch", "in", "namespace", "__in__", "__namespace__", "", "seconds"}
	fields := map[string][]string{"string": extra, "google.protobuf.Duration": extra, "nosuch": extra}
	for _, r := range registered {
		rt, _ := ref.FindDeclType(r)
		own := slices.Sorted(maps.Keys(rt.Fields))
		fields[r] = append(own, extra...)
		for _, f := range append(own, "@idx", "@elem", "nosuch") {
			names = append(names, r+"."+f)
		}
	}
	for _, n := range names {
		gt, gok := got.FindStructType(n)
		rt, rok := ref.FindStructType(n)
		if gok != rok || !reflect.DeepEqual(gt, rt) {
			t.Errorf("%s: FindStructType(%q) = %v, %v; the apiserver's %v, %v", where, n, gt, gok, rt, rok)
		}
	}
	for n, fs := range fields {
		for _, f := range fs {
			gf, gok := got.FindStructFieldType(n, f)
			rf, rok := ref.FindStructFieldType(n, f)
			if gok != rok || !sameFieldType(gf, rf) {
				t.Errorf("%s: FindStructFieldType(%q, %q) = %v, %v; the apiserver's %v, %v", where, n, f, gf, gok, rf, rok)
			}
		}
	}
	return len(names)
}

// sameFieldType reports whether two field types have equal types and the
// same presence of field accessors (functions, which cannot be compared).
func sameFieldType(a, b *types.FieldType) bool {
	if a == nil || b == nil {
		return a == b
	}
	return reflect.DeepEqual(a.Type, b.Type) && (a.IsSet == nil) == (b.IsSet == nil) && (a.GetFrom == nil) == (b.GetFrom == nil)
}

// eachRuleSelf calls fn with the CEL type of s, typed as t, and of every
// node below s with rules (the selves the check gives environments),
// following t along properties, items and additionalProperties.
func eachRuleSelf(s *structural.Schema, t *apiservercel.DeclType, path string, root bool, fn func(path string, t *apiservercel.DeclType)) {
	if s == nil || t == nil {
		return
	}
	if root || nodeHasRules(sourceOf(s)) {
		fn(path, t)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		if esc, ok := apiservercel.Escape(k); ok && t.Fields[esc] != nil {
			eachRuleSelf(s.Properties[k], t.Fields[esc].Type, path+"."+k, false, fn)
		}
	}
	eachRuleSelf(s.Items, t.ElemType, path+"[]", false, fn)
	if s.AdditionalProperties != nil {
		eachRuleSelf(s.AdditionalProperties.Schema, t.ElemType, path+"{}", false, fn)
	}
}

// TestSelfTypesAsApiserverCorpus holds selfTypes to the apiserver's
// provider for the root and every node with rules of every corpus version
// schema, as self.
func TestSelfTypesAsApiserverCorpus(t *testing.T) {
	selves, names := 0, 0
	eachCorpusVersion(t, func(version string, s *structural.Schema) {
		decl := common.SchemaDeclType(newAdapter(s), true)
		eachRuleSelf(s, decl, version, true, func(path string, d *apiservercel.DeclType) {
			selves++
			names += compareSelfTypes(t, path, d)
		})
	})
	t.Logf("%d self types, %d names compared", selves, names)
}

// eachDeclType calls fn with t and every type below it (fields, elements)
// that is an object, list or map: each could be a node's self.
func eachDeclType(t *apiservercel.DeclType, path string, fn func(path string, t *apiservercel.DeclType)) {
	if t == nil || (!t.IsObject() && !t.IsList() && !t.IsMap()) {
		return
	}
	fn(path, t)
	for _, f := range slices.Sorted(maps.Keys(t.Fields)) {
		eachDeclType(t.Fields[f].Type, path+"."+f, fn)
	}
	eachDeclType(t.ElemType, path+"[]", fn)
}

// TestSelfTypesAsApiserver holds selfTypes to the apiserver's provider for
// self types the corpus may lack: lists and maps of objects (registered
// under paths from "list" and "map"), lists of lists, keyword fields,
// scalars.
func TestSelfTypesAsApiserver(t *testing.T) {
	str := &schema.Props{Type: "string"}
	obj := func(props map[string]*schema.Props) *schema.Props {
		return &schema.Props{Type: "object", Properties: props}
	}
	list := func(items *schema.Props) *schema.Props {
		return &schema.Props{Type: "array", Items: &schema.PropsOrArray{Schema: items}}
	}
	mapOf := func(v *schema.Props) *schema.Props {
		return &schema.Props{Type: "object", AdditionalProperties: &schema.PropsOrBool{Allows: true, Schema: v}}
	}
	inner := obj(map[string]*schema.Props{"in": str, "namespace": str, "a-b": str, "tags": list(str), "sub": list(obj(map[string]*schema.Props{"x": str}))})
	for i, p := range []*schema.Props{
		list(inner), mapOf(inner), list(list(inner)), mapOf(list(inner)), list(mapOf(inner)),
		inner, list(str), mapOf(str), str, obj(map[string]*schema.Props{"m": mapOf(inner), "l": list(list(str))}),
	} {
		s, err := structural.New(p)
		if err != nil {
			t.Fatal(err)
		}
		decl := common.SchemaDeclType(newAdapter(s), false)
		if decl == nil {
			t.Fatalf("%d: no CEL type", i)
		}
		eachDeclType(decl, fmt.Sprint(i), func(path string, d *apiservercel.DeclType) { compareSelfTypes(t, path, d) })
	}
}
