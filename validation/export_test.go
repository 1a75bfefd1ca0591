package validation

import (
	"reflect"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/structural"
)

// NewFromProps is newFromProps: a validator for a schema that has no
// structural model, to test the engine on every keyword.
func NewFromProps(p *model.Props) *Validator { return newFromProps(p) }

// ValidateListSetsAndMaps is the list-type check alone below the object obj
// whose schema is s (Validate runs it after the value validation): in a set
// list no item appears twice, in a map list every item is an object (or
// null) and no two items have the same key values.
func ValidateListSetsAndMaps(fldPath *field.Path, s *structural.Schema, obj map[string]any) field.ErrorList {
	if s == nil || obj == nil {
		return nil
	}
	var buf [64]objpath.Element
	w := listWalker{base: fldPath}
	w.object(s, obj, buf[:0])
	return w.errs
}

// Structural is the structural schema the validator was built from (nil for
// NewFromProps and for a validator that accepts everything).
func (v *Validator) Structural() *structural.Schema {
	if v == nil {
		return nil
	}
	return v.structural
}

// ValidateValueByEngine is ValidateValue by kube-openapi's engine alone: the
// oracle the compiled walk is tested against.
func (v *Validator) ValidateValueByEngine(fldPath *field.Path, value any) field.ErrorList {
	return v.validateValue(fldPath, value, false)
}

// IsCompiled reports whether the validator has a compiled walk (its schema
// uses only keywords the compiler implements).
func (v *Validator) IsCompiled() bool { return v != nil && v.compiled != nil }

// ListSetsAndMapsByHashing is ValidateListSetsAndMaps comparing every list
// by hashing (encoding/json for objects and arrays), the oracle of the
// item-by-item comparison.
func ListSetsAndMapsByHashing(fldPath *field.Path, s *structural.Schema, obj map[string]any) field.ErrorList {
	if s == nil || obj == nil {
		return nil
	}
	w := listWalker{base: fldPath, hashOnly: true}
	w.object(s, obj, nil)
	return w.errs
}

// CompiledLazilyAsEagerly compiles s as New does (compileModel, every
// lazily compiled child then forced) and as the whole-tree compile of
// fromModel(s) does, and reports whether each way can compile it and, when
// both can, whether the two trees are equal.
func CompiledLazilyAsEagerly(s *structural.Schema) (lazyOK, eagerOK, equal bool) {
	eager, eagerOK := compile(fromModel(s))
	_, lazyOK = scanModel(s, map[*structural.Schema]bool{}, true)
	if !lazyOK || !eagerOK {
		return lazyOK, eagerOK, false
	}
	lazy := compileModel(s)
	forceChildren(lazy)
	return lazyOK, eagerOK, reflect.DeepEqual(lazy, eager)
}

// forceChildren compiles every lazy child below n and drops the lazy
// marks, leaving the tree the whole-tree compile builds.
func forceChildren(n *cnode) {
	if n == nil {
		return
	}
	n.children().lazy = nil
	for _, c := range n.props {
		forceChildren(c)
	}
	forceChildren(n.items)
	forceChildren(n.additional)
}
