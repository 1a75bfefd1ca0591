package structural

import (
	"fmt"
	"regexp/syntax"
	"sort"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/intorstring"
	"github.com/crdschema/crdschema/schema"
)

// level says where a core node sits: at the schema root, as array items, or
// as an object field (a properties or additionalProperties value).
type level int

const (
	atRoot level = iota
	atItems
	atField
)

// Validate reports the ways s is not a structural schema, exactly as the
// apiserver's structural schema validation does, with paths below fldPath:
//
//   - every node of the core has a type (unless int-or-string or
//     preserve-unknown-fields), object at the root, items for arrays;
//   - the logical junctors carry only value validations (no type,
//     description, default, title, nullable, additionalProperties or
//     x-kubernetes-* extension), except the two int-or-string patterns;
//   - the fields and items the root's junctors mention are specified in the
//     core;
//   - metadata is implicit: restricted to name and generateName at the root,
//     of type object at the root and in embedded resources, never mentioned
//     inside a junctor; kind and apiVersion are strings there;
//   - additionalProperties not at the root nor on an embedded resource,
//     embedded resources of type object with properties, int-or-string
//     without preserve-unknown-fields or embedded-resource, and every pattern
//     a valid regular expression.
//
// The result is sorted by field path, type and detail, as every error list
// of this module is (the apiserver's NonStructuralSchema condition lists
// the same errors sorted by their text). A nil s has no errors.
func Validate(fldPath *field.Path, s *Schema) field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	var paths objpath.Stack
	v := &validator{}
	errs = append(errs, v.validateInvariants(s, atRoot, paths.Root(fldPath))...)
	errs = append(errs, validateCompleteness(s, fldPath)...)
	errorsort.Sort(errs)
	return errs
}

// validateInvariants checks one core node and everything below it.
func (v *validator) validateInvariants(s *Schema, lvl level, cp objpath.Lazy) field.ErrorList {
	if s == nil {
		return nil
	}
	errs := v.validateChildren(s, lvl, cp)
	errs = append(errs, validateExtensions(s, cp)...)
	if p := s.Source; p != nil {
		if len(p.AnyOf) > 0 || len(p.AllOf) > 0 || len(p.OneOf) > 0 || p.Not != nil {
			errs = append(errs, v.validateJunctors(p, intorstring.IsAnyOfPattern(p), intorstring.IsAllOfPattern(p), cp.Field())...)
		} else if p.Pattern != "" {
			if err := v.patternError(p.Pattern, cp.Field); err != nil {
				errs = append(errs, err)
			}
		}
	}
	errs = append(errs, validateType(s, lvl, cp)...)
	errs = append(errs, validateResource(s, lvl, cp)...)
	return errs
}

// validateChildren checks the items, properties and additionalProperties
// of a core node and everything below them.
func (v *validator) validateChildren(s *Schema, lvl level, cp objpath.Lazy) field.ErrorList {
	var errs field.ErrorList
	if s.Type == "array" && s.Items == nil {
		errs = append(errs, field.Required(cp.Field().Child("items"), "must be specified"))
	}
	if s.Items != nil {
		errs = append(errs, v.validateInvariants(s.Items, atItems, cp.Push(objpath.ChildStep("items")))...)
	}

	for _, e := range s.sortedProperties() {
		errs = append(errs, v.validateInvariants(e.child, atField, cp.Push(objpath.KeyedStep("properties", e.name)))...)
	}

	if s.AdditionalProperties != nil {
		if lvl == atRoot {
			errs = append(errs, field.Forbidden(cp.Field().Child("additionalProperties"), "must not be used at the root"))
		}
		if s.AdditionalProperties.Schema != nil {
			errs = append(errs, v.validateInvariants(s.AdditionalProperties.Schema, atField, cp.Push(objpath.ChildStep("additionalProperties")))...)
		}
	}
	return errs
}

// validateExtensions checks the x-kubernetes extensions that exclude each
// other.
func validateExtensions(s *Schema, cp objpath.Lazy) field.ErrorList {
	var errs field.ErrorList
	if s.IntOrString && s.PreserveUnknownFields {
		errs = append(errs, field.Invalid(cp.Field().Child("x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.IntOrString && s.EmbeddedResource {
		errs = append(errs, field.Invalid(cp.Field().Child("x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	return errs
}

// validateType checks that a core node has the type its place and
// extensions require.
func validateType(s *Schema, lvl level, cp objpath.Lazy) field.ErrorList {
	var errs field.ErrorList
	switch {
	case s.EmbeddedResource && s.Type == "":
		errs = append(errs, field.Required(cp.Field().Child("type"), "must be object if x-kubernetes-embedded-resource is true"))
	case s.EmbeddedResource && s.Type != "object":
		errs = append(errs, field.Invalid(cp.Field().Child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
	case !s.EmbeddedResource && s.Type == "" && !s.IntOrString && !s.PreserveUnknownFields:
		errs = append(errs, field.Required(cp.Field().Child("type"), missingTypeDetail(lvl)))
	}
	if s.EmbeddedResource && s.AdditionalProperties != nil {
		errs = append(errs, field.Forbidden(cp.Field().Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == atRoot && s.Type != "" && s.Type != "object" {
		errs = append(errs, field.Invalid(cp.Field().Child("type"), s.Type, "must be object at the root"))
	}
	return errs
}

// validateResource checks the implicit apiVersion, kind and metadata of the
// root and of every embedded resource; other nodes have none.
func validateResource(s *Schema, lvl level, cp objpath.Lazy) field.ErrorList {
	if lvl != atRoot && !s.EmbeddedResource {
		return nil
	}
	var errs field.ErrorList
	for _, k := range []string{"kind", "apiVersion"} {
		if c, ok := s.Property(k); ok && c.Type != "string" {
			errs = append(errs, field.Invalid(cp.Field().Child("properties").Key(k).Child("type"), c.Type, "must be string"))
		}
	}
	if md, ok := s.Property("metadata"); ok {
		mdPath := func() *field.Path { return cp.Field().Child("properties").Key("metadata") }
		if md.Type != "object" {
			errs = append(errs, field.Invalid(mdPath().Child("type"), md.Type, "must be object"))
		}
		if lvl == atRoot && !metadataOnlyNames(md) {
			errs = append(errs, field.Forbidden(mdPath(), "must not specify anything other than name and generateName, but metadata is implicitly specified"))
		}
	}

	if s.EmbeddedResource && !s.PreserveUnknownFields && len(s.Properties) == 0 {
		errs = append(errs, field.Required(cp.Field().Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return errs
}

func missingTypeDetail(lvl level) string {
	switch lvl {
	case atRoot:
		return "must not be empty at the root"
	case atItems:
		return "must not be empty for specified array items"
	default:
		return "must not be empty for specified object fields"
	}
}

// metadataOnlyNames reports whether the root's metadata schema md restricts
// nothing but name and generateName: apart from its type and default it may
// only have properties, and those only name and/or generateName (with any
// schema). Any other keyword, even a description, is a restriction.
func metadataOnlyNames(md *Schema) bool {
	if md.Items != nil || md.AdditionalProperties != nil {
		return false
	}
	if n := len(md.Properties); n > 0 {
		_, name := md.Properties["name"]
		_, generateName := md.Properties["generateName"]
		if !(n == 2 && name && generateName) && !(n == 1 && (name || generateName)) {
			return false
		}
	}
	if md.Source == nil {
		return true
	}
	q := *md.Source
	q.Type, q.Default, q.Properties = "", nil, nil
	// The core keeps additionalProperties: false and an empty items list
	// differently from a junctor entry; both were handled above.
	q.AdditionalProperties, q.Items = nil, nil
	return q.IsEmptyNested()
}

// validateJunctors checks the logical junctors of a node (core or nested)
// and its pattern. skipAnyOf leaves out the node's anyOf, skipFirstAllOfAnyOf
// the anyOf of its first allOf entry: the int-or-string patterns.
func (v *validator) validateJunctors(p *schema.Props, skipAnyOf, skipFirstAllOfAnyOf bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !skipAnyOf {
		for i := range p.AnyOf {
			errs = append(errs, v.validateNested(&p.AnyOf[i], false, fldPath.Child("anyOf").Index(i))...)
		}
	}
	for i := range p.AllOf {
		errs = append(errs, v.validateNested(&p.AllOf[i], skipFirstAllOfAnyOf && i == 0, fldPath.Child("allOf").Index(i))...)
	}
	for i := range p.OneOf {
		errs = append(errs, v.validateNested(&p.OneOf[i], false, fldPath.Child("oneOf").Index(i))...)
	}
	if p.Not != nil {
		errs = append(errs, v.validateNested(p.Not, false, fldPath.Child("not"))...)
	}
	if p.Pattern != "" {
		if err := v.patternError(p.Pattern, func() *field.Path { return fldPath }); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// validator holds what one Validate has learnt on its way.
type validator struct {
	// validPatterns are the patterns found valid so far: generated CRDs
	// repeat a few (names, quantities) hundreds of times.
	validPatterns map[string]struct{}
}

// patternError is the error of a pattern that is not a valid regular
// expression, at the pattern keyword of the node at path(); nil for a valid
// one.
func (v *validator) patternError(pattern string, path func() *field.Path) *field.Error {
	if _, ok := v.validPatterns[pattern]; ok {
		return nil
	}
	// Only parsing can fail in regexp.Compile (with the Perl flags it
	// uses); its error is the one the apiserver quotes.
	if _, err := syntax.Parse(pattern, syntax.Perl); err != nil {
		return field.Invalid(path().Child("pattern"), pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err))
	}
	if v.validPatterns == nil {
		v.validPatterns = map[string]struct{}{}
	}
	v.validPatterns[pattern] = struct{}{}
	return nil
}

// validateNested checks a node inside a logical junctor: it may hold value
// validations and reach deeper through properties and items, nothing else.
func (v *validator) validateNested(p *schema.Props, skipAnyOf bool, fldPath *field.Path) field.ErrorList {
	if p == nil {
		return nil
	}
	var errs field.ErrorList
	errs = append(errs, v.validateJunctors(p, skipAnyOf, false, fldPath)...)
	if p.Items != nil && p.Items.Schema != nil {
		errs = append(errs, v.validateNested(p.Items.Schema, false, fldPath.Child("items"))...)
	}
	for _, k := range sortedPropKeys(p.Properties) {
		errs = append(errs, v.validateNested(p.Properties[k], false, fldPath.Child("properties").Key(k))...)
	}

	for _, f := range nestedForbidden {
		if f.has(p) {
			errs = append(errs, field.Forbidden(fldPath.Child(f.keyword), f.detail))
		}
	}
	if _, ok := p.Properties["metadata"]; ok {
		errs = append(errs, field.Forbidden(fldPath.Child("properties").Key("metadata"), "must not be specified in a nested context"))
	}
	return errs
}

// The details of nestedForbidden's errors.
const (
	mustBeEmpty     = "must be empty to be structural"
	mustBeFalse     = "must be false to be structural"
	mustBeUndefined = "must be undefined to be structural"
)

// nestedForbidden lists, in the apiserver's order, the keywords a node
// inside a logical junctor must not have: the keyword, whether p has it,
// and the error's detail.
var nestedForbidden = [...]struct {
	keyword string
	has     func(p *schema.Props) bool
	detail  string
}{
	{"type", func(p *schema.Props) bool { return p.Type != "" }, mustBeEmpty},
	{"additionalProperties", func(p *schema.Props) bool {
		ap := p.AdditionalProperties
		return ap != nil && (ap.Schema != nil || ap.Allows)
	}, mustBeUndefined},
	{"default", func(p *schema.Props) bool { return p.Default != nil && p.Default.Value != nil }, mustBeUndefined},
	{"title", func(p *schema.Props) bool { return p.Title != "" }, mustBeEmpty},
	{"description", func(p *schema.Props) bool { return p.Description != "" }, mustBeEmpty},
	{"nullable", func(p *schema.Props) bool { return p.Nullable }, mustBeFalse},
	{"x-kubernetes-preserve-unknown-fields", func(p *schema.Props) bool {
		return p.XPreserveUnknownFields != nil && *p.XPreserveUnknownFields
	}, mustBeFalse},
	{"x-kubernetes-embedded-resource", func(p *schema.Props) bool { return p.XEmbeddedResource }, mustBeFalse},
	{"x-kubernetes-int-or-string", func(p *schema.Props) bool { return p.XIntOrString }, mustBeFalse},
	{"x-kubernetes-list-map-keys", func(p *schema.Props) bool { return len(p.XListMapKeys) > 0 }, mustBeEmpty},
	{"x-kubernetes-list-type", func(p *schema.Props) bool { return p.XListType != nil }, mustBeUndefined},
	{"x-kubernetes-map-type", func(p *schema.Props) bool { return p.XMapType != nil }, mustBeUndefined},
	{"x-kubernetes-validations", func(p *schema.Props) bool { return len(p.XValidations) > 0 }, mustBeEmpty},
}

// validateCompleteness checks that every field and item mentioned in the
// root's junctors (and the junctors nested in them) is specified in the core
// at the same place. Junctors further down the core are not checked: the
// apiserver does not check them either.
func validateCompleteness(s *Schema, fldPath *field.Path) field.ErrorList {
	if s == nil || s.Source == nil {
		return nil
	}
	return junctorCompleteness(s.Source, s, fldPath, fldPath)
}

// junctorCompleteness checks the junctors of v (a core or nested node)
// against the core node s; sPath is s's path, vPath v's.
func junctorCompleteness(v *schema.Props, s *Schema, sPath, vPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if v.Not != nil {
		errs = append(errs, nestedCompleteness(v.Not, s, sPath, vPath.Child("not"))...)
	}
	for i := range v.AllOf {
		errs = append(errs, nestedCompleteness(&v.AllOf[i], s, sPath, vPath.Child("allOf").Index(i))...)
	}
	for i := range v.AnyOf {
		errs = append(errs, nestedCompleteness(&v.AnyOf[i], s, sPath, vPath.Child("anyOf").Index(i))...)
	}
	for i := range v.OneOf {
		errs = append(errs, nestedCompleteness(&v.OneOf[i], s, sPath, vPath.Child("oneOf").Index(i))...)
	}
	return errs
}

// nestedCompleteness checks one nested node v against the core node s at the
// same place (s nil: nothing is specified there).
func nestedCompleteness(v *schema.Props, s *Schema, sPath, vPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if s == nil {
		return field.ErrorList{field.Required(sPath, fmt.Sprintf("because it is defined in %s", vPath.String()))}
	}
	errs := junctorCompleteness(v, s, sPath, vPath)
	if v.Items != nil && v.Items.Schema != nil {
		errs = append(errs, nestedCompleteness(v.Items.Schema, s.Items, sPath.Child("items"), vPath.Child("items"))...)
	}
	for _, k := range sortedPropKeys(v.Properties) {
		vk := vPath.Child("properties").Key(k)
		sk, ok := s.Properties[k]
		if !ok {
			errs = append(errs, field.Required(sPath.Child("properties").Key(k), fmt.Sprintf("because it is defined in %s", vk.String())))
			continue
		}
		errs = append(errs, nestedCompleteness(v.Properties[k], sk, sPath.Child("properties").Key(k), vk)...)
	}
	return errs
}

func sortedPropKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
