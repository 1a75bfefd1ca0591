package cel

import (
	"strings"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// selfTypes are the types of a node's self in an environment where self's
// type is named name (see checkEnv), as a provider gives them. It answers as
// the apiserver's provider does, which names a copy of the node's CEL type
// with MaybeAssignTypeName (self's object type gets the generated name,
// each object below it the name of its parent and the step to it: a field
// name, @idx or @elem) and registers every named object type of the copy
// by name, and every list and map type by its path (the same string, but
// starting from "list" or "map" rather than the generated name when self
// is a list or a map). Making that copy and that registry cost a walk of
// the node's whole subtree, allocating its object types again, for every
// node with rules (4% of loading every corpus CRD), while a check looks up
// a few names: selfTypes finds a name by walking the node's unnamed type
// along it, and makes the named CEL type of what it finds.
//
// Every name it does not register, it leaves to others: the apiserver's
// provider with no types of its own (which knows the scalar type names),
// over the base environment's.
type selfTypes struct {
	// decl is the node's CEL type as converted (its object types unnamed);
	// name is the name generated for self.
	decl *apiservercel.DeclType
	name string
	// paths is the first step of the paths lists and maps are registered
	// by: the generated name when self is an object, else decl's type
	// name.
	paths  string
	others *apiservercel.DeclTypeProvider
}

// newSelfTypes returns the provider of self typed as decl, named name;
// others answers for every other type name.
func newSelfTypes(decl *apiservercel.DeclType, name string, others *apiservercel.DeclTypeProvider) *selfTypes {
	paths := decl.TypeName()
	if decl.IsObject() {
		paths = name
	}
	return &selfTypes{decl: decl, name: name, paths: paths, others: others}
}

// namedCELType is the CEL type of t once named name by MaybeAssignTypeName:
// an object type is named, a list or map type holding one is made again
// around its named element type, any other type stays as it is.
func namedCELType(t *apiservercel.DeclType, name string) *celgo.Type {
	switch {
	case t.IsObject():
		return celgo.ObjectType(name)
	case t.IsMap() && holdsObject(t.ElemType):
		return celgo.MapType(t.KeyType.CelType(), namedCELType(t.ElemType, name+".@elem"))
	case t.IsList() && holdsObject(t.ElemType):
		return celgo.ListType(namedCELType(t.ElemType, name+".@idx"))
	}
	return t.CelType()
}

// holdsObject reports whether t is an object type or a list or map type
// whose elements hold one (other types have no element type).
func holdsObject(t *apiservercel.DeclType) bool {
	for ; t != nil; t = t.ElemType {
		if t.IsObject() {
			return true
		}
	}
	return false
}

// lookup returns the type the apiserver's provider registers under
// typeName, and that type's name; nil when it registers none.
func (p *selfTypes) lookup(typeName string) (*apiservercel.DeclType, string) {
	t, ok := walkTypePath(p.decl, p.name, typeName)
	if ok && t.IsObject() {
		return t, typeName
	}
	if p.paths != p.name {
		// Self is a list or map: its lists and maps are registered from
		// another root (when self is an object, the walk is the one done).
		t, ok = walkTypePath(p.decl, p.paths, typeName)
	}
	if ok && (t.IsList() || t.IsMap()) {
		return t, p.name + typeName[len(p.paths):]
	}
	return nil, ""
}

// walkTypePath follows typeName, when it is root or starts with root and
// a dot, from t: each step after root is a field of an object, @idx (the
// elements of a list) or @elem (the values of a map).
func walkTypePath(t *apiservercel.DeclType, root, typeName string) (*apiservercel.DeclType, bool) {
	rest, ok := strings.CutPrefix(typeName, root)
	for ok && rest != "" {
		if rest[0] != '.' {
			return nil, false
		}
		step := rest[1:]
		rest = ""
		if i := strings.IndexByte(step, '.'); i >= 0 {
			step, rest = step[:i], step[i:]
		}
		t, ok = typeStep(t, step)
	}
	return t, ok
}

// typeStep is the type one step below t, as MaybeAssignTypeName names
// them: an object's field, a map's values (@elem), a list's elements
// (@idx).
func typeStep(t *apiservercel.DeclType, step string) (*apiservercel.DeclType, bool) {
	switch {
	case t.IsObject():
		f, ok := t.Fields[step]
		if !ok || f == nil || f.Type == nil {
			return nil, false
		}
		return f.Type, true
	case t.IsMap() && step == "@elem", t.IsList() && step == "@idx":
		return t.ElemType, true
	}
	return nil, false
}

// FindStructType is the type of the type named typeName.
func (p *selfTypes) FindStructType(typeName string) (*types.Type, bool) {
	if t, name := p.lookup(typeName); t != nil {
		return types.NewTypeTypeWithParam(namedCELType(t, name)), true
	}
	return p.others.FindStructType(typeName)
}

// FindStructFieldType is the type of the field fieldName of the type named
// typeName: of an object's field (a CEL keyword also names the field the
// keyword is escaped to), or of any key of a map.
func (p *selfTypes) FindStructFieldType(typeName, fieldName string) (*types.FieldType, bool) {
	t, name := p.lookup(typeName)
	if t == nil {
		return p.others.FindStructFieldType(typeName, fieldName)
	}
	f, ok := t.Fields[fieldName]
	if !ok && isKeyword(fieldName) {
		fieldName = "__" + fieldName + "__"
		f, ok = t.Fields[fieldName]
	}
	if ok {
		return &types.FieldType{Type: namedCELType(f.Type, name+"."+fieldName)}, true
	}
	if t.IsMap() {
		return &types.FieldType{Type: namedCELType(t.ElemType, name+".@elem")}, true
	}
	return nil, false
}

// isKeyword reports whether name is a reserved word of CEL: the only names
// the apiserver escapes by wrapping them in double underscores (every
// other escape is longer than the four characters that adds).
func isKeyword(name string) bool {
	esc, ok := apiservercel.Escape(name)
	return ok && esc == "__"+name+"__"
}
