package check

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// TestWalkAllocations makes sure the per-node walk allocates nothing per
// node of a schema without errors: field paths are built only for errors,
// map entries are not copied to the heap, and sorted keys share one stack.
func TestWalkAllocations(t *testing.T) {
	s := "object"
	leaf := model.Props{Type: "string", XValidations: []model.ValidationRule{{Rule: "self.size() > 0"}}}
	root := &model.Props{Type: s, Properties: map[string]*model.Props{}}
	for i := range 200 {
		inner := model.Props{Type: s, Properties: map[string]*model.Props{"a": &leaf, "b": &leaf}}
		list := model.Props{Type: "array", Items: &model.PropsOrArray{Schema: &inner}}
		root.Properties[fmt.Sprintf("p%03d", i)] = &model.Props{Type: s, Properties: map[string]*model.Props{"list": &list, "leaf": &leaf}}
	}
	path := field.NewPath("spec", "validation", "openAPIV3Schema")
	opts := createOptions()
	w := &walker{opts: &opts}
	walk := func() {
		w.errs, w.ruleErrs = w.errs[:0], w.ruleErrs[:0]
		// Without CEL: compiling the rules allocates, the walk must not.
		w.node(root, path, nodeContext{allowDefaults: true}, true)
	}
	walk() // grow the walker's stacks
	if len(w.errs)+len(w.ruleErrs) > 0 {
		t.Fatalf("unexpected errors: %v", append(w.errs, w.ruleErrs...))
	}
	// 1,400 nodes; only the root's "in top-level" reasons may allocate.
	if n := testing.AllocsPerRun(10, walk); n > 10 {
		t.Errorf("walking 1,400 error-free nodes allocated %v times", n)
	}
}

// TestLazyPathErrors checks that errors deep in the walk and the
// uncorrelatable ancestor named in a message get the paths they had when
// every path was built eagerly.
func TestLazyPathErrors(t *testing.T) {
	ten := int64(10)
	leaf := model.Props{Type: "string", MaxLength: &ten, XValidations: []model.ValidationRule{{Rule: "self == oldSelf"}}}
	items := model.Props{Type: "object", Properties: map[string]*model.Props{"b": {Type: "integer", UniqueItems: true}, "c": &leaf}}
	root := &model.Props{Type: "object", Properties: map[string]*model.Props{
		"a": {Type: "array", Items: &model.PropsOrArray{Schema: &items}},
		"z": {Type: "null", AllOf: []model.Props{{}, {ID: "x"}}},
	}}
	opts := createOptions()
	w := &walker{opts: &opts}
	// The CEL types come from the part of the schema that is structural.
	ss, err := structural.New(&model.Props{Type: "object", Properties: map[string]*model.Props{"a": root.Properties["a"]}})
	if err != nil {
		t.Fatal(err)
	}
	w.node(root, field.NewPath("r"), nodeContext{allowDefaults: true, cel: cel.NewSchemaCheck(root, ss).Root()}, true)
	var got []string
	for _, e := range append(w.errs, w.ruleErrs...) {
		got = append(got, e.Field+": "+e.Detail)
	}
	want := []string{
		"r.properties[a].items.properties[b].uniqueItems: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
		`r.properties[z].type: supported values: "array", "boolean", "integer", "number", "object", "string"`,
		"r.properties[z].type: type cannot be set to null, use nullable as an alternative",
		"r.properties[z].allOf[1].id: id is not supported",
		"r.properties[a].items.properties[c].x-kubernetes-validations[0].rule: oldSelf cannot be used on the uncorrelatable portion of the schema within r.properties[a]",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("errors:\n%q\nwant\n%q", got, want)
	}
}
