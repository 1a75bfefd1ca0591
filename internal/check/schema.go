package check

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/structural"
)

// validateCustomResourceValidation validates one schema of a CRD
// (spec.validation or spec.versions[i].schema) at fldPath, as the apiserver
// does when the CRD is created. statusEnabled says whether the status
// subresource is enabled for it.
//
// The checks, in the apiserver's order of precedence:
//   - with the status subresource, only a fixed set of keywords at the root;
//   - no nullable root;
//   - the structural rules (structural.Validate), and when they hold, the
//     defaults (validateDefaults);
//   - the per-node restrictions of the schema tree (walk);
//   - a schema that cannot even be built as a structural model is reported
//     only when nothing else is.
//
// b takes the structural model built, and its Rules hold the rule compile
// results of the CRD's schemas checked before, shared by the versions
// (see cel.CompileCache).
//
// opts select the rules (for an update, some are switched off); version
// names the schema's version for the relaxations of unchanged schemas.
func validateCustomResourceValidation(v *model.Validation, statusEnabled bool, fldPath *field.Path, b *Built, opts *options, version string) field.ErrorList {
	errs := field.ErrorList{}
	if v == nil || v.OpenAPIV3Schema == nil {
		return errs
	}
	root := v.OpenAPIV3Schema
	rootPath := fldPath.Child("openAPIV3Schema")

	if statusEnabled {
		errs = append(errs, validateStatusRoot(root, rootPath)...)
	}
	if root.Nullable {
		errs = append(errs, field.Forbidden(rootPath.Child("nullable"), "nullable cannot be true at the root"))
	}

	var buildErrs field.ErrorList
	var rules *cel.SchemaCheck
	if opts.requireStructuralSchema {
		var serrs field.ErrorList
		rules, buildErrs, serrs = structuralChecks(root, rootPath, b, opts, version)
		errs = append(errs, serrs...)
	}

	w := &walker{opts: opts}
	ctx := nodeContext{allowDefaults: true}
	if rules != nil {
		ctx.cel = rules.Root()
	}
	w.node(root, rootPath, ctx, true)
	errs = append(errs, w.errs...)
	errs = append(errs, w.ruleErrs...)

	if len(errs) == 0 {
		errs = append(errs, buildErrs...)
	}
	if rules != nil {
		errs = append(errs, rules.Finish(rootPath)...)
	}
	return errs
}

// structuralChecks builds the structural model of a schema that must be
// structural and checks it: the structural rules, then the defaults, then,
// when both hold, returns the check of its rules. An error building the
// model is returned apart (buildErrs): it is reported only when nothing
// else is. The model built is kept in b.
func structuralChecks(root *model.Props, rootPath *field.Path, b *Built, opts *options, version string) (rules *cel.SchemaCheck, buildErrs, errs field.ErrorList) {
	ss, err := structural.New(root)
	if err != nil {
		return nil, field.ErrorList{field.Invalid(rootPath, "", err.Error())}, nil
	}
	b.schemas[root] = ss
	if serrs := structural.Validate(rootPath, ss); len(serrs) > 0 {
		return nil, nil, serrs
	}
	if derrs := validateDefaults(rootPath, ss, b.Rules, opts.requirePrunedDefaults); len(derrs) > 0 {
		return nil, nil, derrs
	}
	// Only a structural schema with valid defaults gets its
	// x-kubernetes-validations rules compiled.
	rules = cel.NewSchemaCheck(root, ss)
	rules.UseCache(b.Rules)
	rules.SetOptions(opts.celOptions(version))
	return rules, nil, nil
}

// schemaRoot is where the schema of a minimal single-version v1 CRD sits
// in the internal form the apiserver validates.
var schemaRoot = bareValidation.Child("openAPIV3Schema")

// bareValidation is the path of the minimal CRD's validation.
var bareValidation = field.NewPath("spec", "validation")

// BareSchema returns the errors a bare OpenAPI v3 schema would get inside a
// minimal, otherwise valid v1 CRD, with paths relative to the schema root:
// an error on the root itself has the field "", and schema paths quoted in
// messages are made relative the same way. They are sorted as CRD's are.
//
// The minimal CRD has a single version and no status subresource.
func BareSchema(p *model.Props) field.ErrorList {
	opts := createOptions()
	errs := validateCustomResourceValidation(&model.Validation{OpenAPIV3Schema: p}, false, bareValidation, NewBuilt(), &opts, "")
	prefix := schemaRoot.String()
	for _, e := range errs {
		e.Field = relativeField(e.Field, prefix)
		e.Detail = strings.ReplaceAll(e.Detail, prefix+".", "")
	}
	errorsort.Sort(errs)
	return errs
}

// relativeField makes a field path relative to prefix; a path outside the
// schema (on the CRD's validation itself) becomes the root.
func relativeField(f, prefix string) string {
	if rest, ok := strings.CutPrefix(f, prefix); ok {
		if rest == "" {
			return ""
		}
		if rest[0] == '.' {
			return rest[1:]
		}
		if rest[0] == '[' {
			return rest
		}
	}
	if strings.HasPrefix(prefix, f) {
		return ""
	}
	return f
}

// openAPIV3Types are the types a CRD schema may use, sorted.
var openAPIV3Types = []string{"array", "boolean", "integer", "number", "object", "string"}

// isOpenAPIV3Type reports whether t is one of openAPIV3Types (asked of
// every node: a switch, not a search).
func isOpenAPIV3Type(t string) bool {
	switch t {
	case "array", "boolean", "integer", "number", "object", "string":
		return true
	}
	return false
}

// validationReasons are the reasons an x-kubernetes-validations rule may
// give, sorted.
var validationReasons = []string{"FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"}

func contains(list []string, s string) bool {
	i := sort.SearchStrings(list, s)
	return i < len(list) && list[i] == s
}

// nodeContext is what a node's checks inherit from its ancestors.
type nodeContext struct {
	// allowDefaults is false where a default is forbidden; noDefaultsReason
	// then says why.
	allowDefaults    bool
	noDefaultsReason string
	// insideMeta is true inside a schema applying to apiVersion, kind or
	// metadata of the resource root or of an embedded resource.
	insideMeta bool
	// cel is non-nil where the apiserver goes on to compile the
	// x-kubernetes-validations rules: the schema is structural with valid
	// defaults, and the node is reached through properties, items and
	// additionalProperties only (not through junctors).
	cel *cel.Node
	// uncorrelatable is the highest ancestor below which old and new
	// values cannot be correlated (items of a list that is not a map list),
	// where a rule must not use oldSelf; nil if there is none.
	uncorrelatable objpath.Lazy
}

func (c nodeContext) forbidDefaults(reason string) nodeContext {
	c.allowDefaults, c.noDefaultsReason = false, reason
	return c
}

// walker collects the per-node errors of a schema tree.
type walker struct {
	// opts select the rules.
	opts *options
	errs field.ErrorList
	// ruleErrs are the errors found on the rules themselves after the
	// static checks; unlike errs, they do not keep ancestors' rules from
	// being looked at.
	ruleErrs field.ErrorList
	// keys is a stack of sorted map keys shared by the nodes being
	// visited (see pushSortedKeys); props is the same for properties,
	// with their schemas (see pushSortedProperties).
	keys  []string
	props []namedProps
	// paths holds the steps from the root to the node being visited.
	paths objpath.Stack
}

func (w *walker) add(e *field.Error) { w.errs = append(w.errs, e) }

// node checks p at path and everything below it. isRoot is true for the
// schema root only.
func (w *walker) node(p *model.Props, path *field.Path, ctx nodeContext, isRoot bool) {
	if p != nil {
		w.visit(p, w.paths.Root(path), ctx, isRoot)
	}
}

// child checks the node p (if any) at the step st below parent.
func (w *walker) child(p *model.Props, parent objpath.Lazy, st objpath.Step, ctx nodeContext) {
	if p != nil {
		w.visit(p, parent.Push(st), ctx, false)
	}
}

// visit checks a node and everything below it.
func (w *walker) visit(p *model.Props, lp objpath.Lazy, ctx nodeContext, isRoot bool) {
	start := len(w.errs)
	w.keywords(p, lp, ctx)

	if p.UniqueItems {
		w.add(field.Forbidden(lp.Field().Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	if ap := p.AdditionalProperties; ap != nil {
		w.additionalProperties(p, ap, lp, ctx)
	}
	w.properties(p, lp, ctx, isRoot)
	nested := ctx
	nested.cel = nil
	w.junctorsAndDefinitions(p, lp, nested)
	if p.Items != nil {
		w.items(p, lp, ctx)
	}
	if len(p.Dependencies) > 0 { // a map iterator allocates, even for nil
		for _, name := range slices.Sorted(maps.Keys(p.Dependencies)) {
			w.child(p.Dependencies[name].Schema, lp, objpath.KeyedStep("dependencies", name), nested)
		}
	}

	if p.XPreserveUnknownFields != nil && !*p.XPreserveUnknownFields {
		w.add(field.Invalid(lp.Field().Child("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"))
	}
	w.mapType(p, lp)
	w.listType(p, lp)
	w.validationRules(p, lp)
	if ctx.cel != nil && len(p.XValidations) > 0 && len(w.errs) == start {
		var uncorrelatable *field.Path
		if ctx.uncorrelatable.IsSet() {
			uncorrelatable = ctx.uncorrelatable.Field()
		}
		w.ruleErrs = append(w.ruleErrs, ctx.cel.Check(lp.Field(), p.XValidations, uncorrelatable)...)
	}
}

// additionalProperties checks the additionalProperties ap of the node p
// and its schema.
func (w *walker) additionalProperties(p *model.Props, ap *model.PropsOrBool, lp objpath.Lazy, ctx nodeContext) {
	if len(p.Properties) != 0 && (!ap.Allows || ap.Schema != nil) {
		w.add(field.Forbidden(lp.Field().Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
	}
	sub := ctx
	if ctx.insideMeta {
		sub = sub.forbidDefaults("inside additionalProperties applying to object metadata")
	}
	if ap.Schema != nil {
		sub.cel = ctx.cel.AdditionalProperties()
	}
	w.child(ap.Schema, lp, objpath.ChildStep("additionalProperties"), sub)
}

// properties checks the properties of the node p, in name order.
func (w *walker) properties(p *model.Props, lp objpath.Lazy, ctx nodeContext, isRoot bool) {
	start := w.pushSortedProperties(p.Properties)
	for i := start; i < len(w.props); i++ {
		name := w.props[i].name
		sub := ctx
		if !mapIsCorrelatable(p.XMapType) && !sub.uncorrelatable.IsSet() {
			sub.uncorrelatable = lp
		}
		if (isRoot || p.XEmbeddedResource) && isMetaField(name) {
			sub.insideMeta = true
			if isRoot {
				sub = sub.forbidDefaults("in top-level " + name)
			}
		}
		sub.cel = ctx.cel.Property(name)
		w.child(w.props[i].p, lp, objpath.KeyedStep("properties", name), sub)
	}
	w.props = w.props[:start]
}

// junctorsAndDefinitions checks the not, allOf, oneOf and anyOf schemas
// and the definitions of the node p, where CEL rules are not checked.
func (w *walker) junctorsAndDefinitions(p *model.Props, lp objpath.Lazy, nested nodeContext) {
	if p.Not == nil && len(p.AllOf) == 0 && len(p.OneOf) == 0 && len(p.AnyOf) == 0 && len(p.Definitions) == 0 {
		return // most nodes
	}
	w.child(p.Not, lp, objpath.ChildStep("not"), nested)
	for i := range p.AllOf {
		w.child(&p.AllOf[i], lp, objpath.IndexedStep("allOf", i), nested)
	}
	for i := range p.OneOf {
		w.child(&p.OneOf[i], lp, objpath.IndexedStep("oneOf", i), nested)
	}
	for i := range p.AnyOf {
		w.child(&p.AnyOf[i], lp, objpath.IndexedStep("anyOf", i), nested)
	}
	keys := pushSortedKeys(w, p.Definitions)
	for i := keys; i < len(w.keys); i++ {
		name := w.keys[i]
		d := p.Definitions[name]
		w.child(&d, lp, objpath.KeyedStep("definitions", name), nested)
	}
	w.keys = w.keys[:keys]
}

// items checks the items schema (or schemas) of the node p.
func (w *walker) items(p *model.Props, lp objpath.Lazy, ctx nodeContext) {
	sub := ctx
	if (p.XListType == nil || *p.XListType != "map") && !sub.uncorrelatable.IsSet() {
		sub.uncorrelatable = lp
	}
	if p.Items.Schema != nil {
		sub.cel = ctx.cel.Items()
	}
	w.child(p.Items.Schema, lp, objpath.ChildStep("items"), sub)
	for i := range p.Items.Array {
		sub.cel = nil
		w.child(&p.Items.Array[i], lp, objpath.IndexedStep("items", i), sub)
	}
}

// namedProps is a property: its name and schema.
type namedProps struct {
	name string
	p    *model.Props
}

// pushSortedProperties is pushSortedKeys for properties, onto w.props:
// the schemas come with the names, and need not be looked up again.
func (w *walker) pushSortedProperties(m map[string]*model.Props) int {
	start := len(w.props)
	if len(m) == 0 {
		return start
	}
	for k, p := range m {
		w.props = append(w.props, namedProps{k, p})
	}
	slices.SortFunc(w.props[start:], func(a, b namedProps) int { return strings.Compare(a.name, b.name) })
	return start
}

// pushSortedKeys appends the keys of m, sorted, to w.keys and returns where
// they start. The caller reads them by index (nested calls may grow w.keys)
// and truncates w.keys back to that start when done.
func pushSortedKeys[V any](w *walker, m map[string]V) int {
	start := len(w.keys)
	if len(m) == 0 {
		return start // most nodes: no map iteration started
	}
	for k := range m {
		w.keys = append(w.keys, k)
	}
	slices.Sort(w.keys[start:])
	return start
}

// keywords checks the keywords of one node that a CRD schema must not use,
// and defaults where they are forbidden.
func (w *walker) keywords(p *model.Props, lp objpath.Lazy, ctx nodeContext) {
	if w.opts.requireValidPropertyType && p.Type != "" && !isOpenAPIV3Type(p.Type) {
		w.add(field.NotSupported(lp.Field().Child("type"), p.Type, openAPIV3Types))
	}
	if p.Default != nil && !ctx.allowDefaults {
		detail := "must not be set"
		if ctx.noDefaultsReason != "" {
			detail += " " + ctx.noDefaultsReason
		}
		w.add(field.Forbidden(lp.Field().Child("default"), detail))
	}
	if p.ID != "" {
		w.add(field.Forbidden(lp.Field().Child("id"), "id is not supported"))
	}
	if p.AdditionalItems != nil {
		w.add(field.Forbidden(lp.Field().Child("additionalItems"), "additionalItems is not supported"))
	}
	if len(p.PatternProperties) != 0 {
		w.add(field.Forbidden(lp.Field().Child("patternProperties"), "patternProperties is not supported"))
	}
	if len(p.Definitions) != 0 {
		w.add(field.Forbidden(lp.Field().Child("definitions"), "definitions is not supported"))
	}
	if p.Dependencies != nil {
		w.add(field.Forbidden(lp.Field().Child("dependencies"), "dependencies is not supported"))
	}
	if p.Ref != nil {
		w.add(field.Forbidden(lp.Field().Child("$ref"), "$ref is not supported"))
	}
	if p.Type == "null" {
		w.add(field.Forbidden(lp.Field().Child("type"), "type cannot be set to null, use nullable as an alternative"))
	}
	if p.Items != nil && len(p.Items.Array) != 0 {
		w.add(field.Forbidden(lp.Field().Child("items"), "items must be a schema object and not an array"))
	}
	if ctx.insideMeta && p.XEmbeddedResource {
		w.add(field.Forbidden(lp.Field().Child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
	}
}

// mapType checks x-kubernetes-map-type.
func (w *walker) mapType(p *model.Props, lp objpath.Lazy) {
	if p.XMapType == nil {
		return
	}
	if p.Type != "object" {
		w.wrongType(p.Type, lp, "must be object if x-kubernetes-map-type is specified")
	}
	if mt := *p.XMapType; mt != "atomic" && mt != "granular" {
		w.add(field.NotSupported(lp.Field().Child("x-kubernetes-map-type"), mt, []string{"atomic", "granular"}))
	}
}

// wrongType reports a node's type (typ) that must be another: Required
// when it has none, Invalid otherwise; need says which and why.
func (w *walker) wrongType(typ string, lp objpath.Lazy, need string) {
	if typ == "" {
		w.add(field.Required(lp.Field().Child("type"), need))
		return
	}
	w.add(field.Invalid(lp.Field().Child("type"), typ, need))
}

// listType checks x-kubernetes-list-type, x-kubernetes-list-map-keys and
// the items of set and map lists.
func (w *walker) listType(p *model.Props, lp objpath.Lazy) {
	if p.XListType == nil && len(p.XListMapKeys) == 0 {
		return // most nodes: nothing below applies
	}
	lt := ""
	if p.XListType != nil {
		lt = *p.XListType
	}
	var items *model.Props
	if p.Items != nil {
		items = p.Items.Schema
	}

	switch {
	case p.XListType != nil && p.Type != "array":
		w.wrongType(p.Type, lp, "must be array if x-kubernetes-list-type is specified")
	case lt == "set" && items != nil && w.opts.requireAtomicSetType:
		w.setItemsAtomic(items, lp)
	}
	if p.XListType != nil && lt != "atomic" && lt != "set" && lt != "map" {
		w.add(field.NotSupported(lp.Field().Child("x-kubernetes-list-type"), lt, []string{"atomic", "set", "map"}))
	}
	if len(p.XListMapKeys) > 0 {
		w.mapKeysNeedMap(p.XListType, lp)
	}
	if lt == "map" {
		w.mapListShape(p, items, lp)
	}
	if (lt == "set" || lt == "map") && items != nil && w.opts.requireMapListKeysMapSetValidation {
		w.mapListKeys(p, items, lt, lp)
	}
}

// setItemsAtomic checks that the array or object items of a list with
// x-kubernetes-list-type=set are atomic.
func (w *walker) setItemsAtomic(items *model.Props, lp objpath.Lazy) {
	const atomicItems = "must be atomic as item of a list with x-kubernetes-list-type=set"
	switch items.Type {
	case "array":
		if items.XListType != nil && *items.XListType != "atomic" {
			w.add(field.Invalid(lp.Field().Child("items", "x-kubernetes-list-type"), *items.XListType, atomicItems))
		}
	case "object":
		if items.XMapType == nil || *items.XMapType != "atomic" {
			w.add(field.Invalid(lp.Field().Child("items", "x-kubernetes-map-type"), items.XListType, atomicItems))
		}
	}
}

// mapKeysNeedMap checks that a node with x-kubernetes-list-map-keys is a
// list with x-kubernetes-list-type=map (listType is the node's, nil when
// it has none).
func (w *walker) mapKeysNeedMap(listType *string, lp objpath.Lazy) {
	const needMap = "must be map if x-kubernetes-list-map-keys is non-empty"
	if listType == nil {
		w.add(field.Required(lp.Field().Child("x-kubernetes-list-type"), needMap))
	} else if *listType != "map" {
		w.add(field.Invalid(lp.Field().Child("x-kubernetes-list-type"), *listType, needMap))
	}
}

// mapListShape checks the shape of a list with x-kubernetes-list-type=map:
// keys given, object items, keys naming scalar item properties, no
// duplicate keys.
func (w *walker) mapListShape(p, items *model.Props, lp objpath.Lazy) {
	if len(p.XListMapKeys) == 0 {
		w.add(field.Required(lp.Field().Child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
	}
	switch {
	case p.Items == nil:
		w.add(field.Required(lp.Field().Child("items"), "must have a schema if x-kubernetes-list-type is map"))
		return
	case items == nil:
		w.add(field.Invalid(lp.Field().Child("items"), "", "must only have a single schema if x-kubernetes-list-type is map"))
		return
	case items.Type != "object":
		w.add(field.Invalid(lp.Field().Child("items", "type"), items.Type, "must be object if parent array's x-kubernetes-list-type is map"))
		return
	}
	seen := make(map[string]bool, len(p.XListMapKeys))
	for _, k := range p.XListMapKeys {
		if prop, ok := items.Properties[k]; ok {
			if prop.Type == "array" || prop.Type == "object" {
				// The apiserver reports the items' type as the bad value.
				w.add(field.Invalid(lp.Field().Child("items", "properties").Key(k).Child("type"), items.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
			}
		} else {
			w.add(field.Invalid(lp.Field().Child("x-kubernetes-list-map-keys"), p.XListMapKeys, "entries must all be names of item properties"))
		}
		if seen[k] {
			w.add(field.Invalid(lp.Field().Child("x-kubernetes-list-map-keys"), p.XListMapKeys, "must not contain duplicate entries"))
		}
		seen[k] = true
	}
}

// mapListKeys checks the items of set and map lists: not nullable, and map
// keys required or defaulted and not nullable.
func (w *walker) mapListKeys(p, items *model.Props, lt string, lp objpath.Lazy) {
	if items.Nullable {
		w.add(field.Forbidden(lp.Field().Child("items", "nullable"), "cannot be nullable when x-kubernetes-list-type is "+lt))
	}
	if lt != "map" {
		return
	}
	required := make(map[string]bool, len(items.Required))
	for _, r := range items.Required {
		required[r] = true
	}
	for _, k := range p.XListMapKeys {
		prop, ok := items.Properties[k]
		if !ok {
			continue
		}
		kp := func() *field.Path { return lp.Field().Child("items", "properties").Key(k) }
		if !required[k] && prop.Default == nil {
			w.add(field.Required(kp().Child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
		}
		if prop.Nullable {
			w.add(field.Forbidden(kp().Child("nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
		}
	}
}

// validationRules checks what can be checked of x-kubernetes-validations
// without compiling CEL: rule, message, messageExpression, reason and
// fieldPath.
func (w *walker) validationRules(p *model.Props, lp objpath.Lazy) {
	for i, r := range p.XValidations {
		rp := func() *field.Path { return lp.Field().Child("x-kubernetes-validations").Index(i) }
		rule := strings.TrimSpace(r.Rule)
		msg := strings.TrimSpace(r.Message)
		switch {
		case rule == "":
			w.add(field.Required(rp().Child("rule"), "rule is not specified"))
		case r.Message != "" && msg == "":
			w.add(field.Invalid(rp().Child("message"), r.Message, "must be non-empty if specified"))
		case hasLineBreak(msg):
			w.add(field.Invalid(rp().Child("message"), r.Message, "must not contain line breaks"))
		case hasLineBreak(rule) && msg == "":
			w.add(field.Required(rp().Child("message"), "message must be specified if rule contains line breaks"))
		}
		if r.MessageExpression != "" && strings.TrimSpace(r.MessageExpression) == "" {
			w.add(field.Required(rp().Child("messageExpression"), "messageExpression must be non-empty if specified"))
		}
		if r.Reason != nil && !contains(validationReasons, *r.Reason) {
			w.add(field.NotSupported(rp().Child("reason"), *r.Reason, validationReasons))
		}
		if r.FieldPath != "" && strings.TrimSpace(r.FieldPath) == "" {
			w.add(field.Invalid(rp().Child("fieldPath"), r.FieldPath, "must be non-empty if specified"))
		}
		if hasLineBreak(r.FieldPath) {
			w.add(field.Invalid(rp().Child("fieldPath"), r.FieldPath, "must not contain line breaks"))
		}
		if r.FieldPath != "" && !fieldPathValid(p, r.FieldPath) {
			w.add(field.Invalid(rp().Child("fieldPath"), r.FieldPath, "must be a valid path"))
		}
	}
}

// hasLineBreak reports a line break as CEL's grammar knows them.
func hasLineBreak(s string) bool {
	return strings.IndexByte(s, '\n') >= 0 || strings.IndexByte(s, '\r') >= 0
}

func isMetaField(name string) bool {
	return name == "metadata" || name == "kind" || name == "apiVersion"
}

// rootKeyword is one keyword of a schema node, in the order the apiserver's
// internal JSONSchemaProps declares them, with whether it is set.
type rootKeyword struct {
	name string
	set  bool
}

// allowedAtStatusRoot lists, in the apiserver's words, the keywords allowed
// at the root of a schema when the status subresource is enabled.
var allowedAtStatusRoot = []string{"Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum", "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Required", "Items", "Properties", "ExternalDocs", "Example", "XPreserveUnknownFields", "XValidations"}

// validateStatusRoot checks the root of a schema with the status
// subresource enabled: only keywords that keep their meaning when status is
// extracted as properties[status], and type object. Like the apiserver, it
// reports the first offending keyword only.
func validateStatusRoot(p *model.Props, rootPath *field.Path) field.ErrorList {
	keywords := []rootKeyword{
		{"ID", p.ID != ""},
		{"Schema", p.Schema != ""},
		{"Ref", p.Ref != nil},
		{"Description", p.Description != ""},
		{"Type", p.Type != ""},
		{"Nullable", p.Nullable},
		{"Format", p.Format != ""},
		{"Title", p.Title != ""},
		{"Default", p.Default != nil},
		{"Maximum", p.Maximum != nil},
		{"ExclusiveMaximum", p.ExclusiveMaximum},
		{"Minimum", p.Minimum != nil},
		{"ExclusiveMinimum", p.ExclusiveMinimum},
		{"MaxLength", p.MaxLength != nil},
		{"MinLength", p.MinLength != nil},
		{"Pattern", p.Pattern != ""},
		{"MaxItems", p.MaxItems != nil},
		{"MinItems", p.MinItems != nil},
		{"UniqueItems", p.UniqueItems},
		{"MultipleOf", p.MultipleOf != nil},
		{"Enum", p.Enum != nil},
		{"MaxProperties", p.MaxProperties != nil},
		{"MinProperties", p.MinProperties != nil},
		{"Required", p.Required != nil},
		{"Items", p.Items != nil},
		{"AllOf", p.AllOf != nil},
		{"OneOf", p.OneOf != nil},
		{"AnyOf", p.AnyOf != nil},
		{"Not", p.Not != nil},
		{"Properties", p.Properties != nil},
		{"AdditionalProperties", p.AdditionalProperties != nil},
		{"PatternProperties", p.PatternProperties != nil},
		{"Dependencies", p.Dependencies != nil},
		{"AdditionalItems", p.AdditionalItems != nil},
		{"Definitions", p.Definitions != nil},
		{"ExternalDocs", p.ExternalDocs != nil},
		{"Example", p.Example != nil},
		{"XPreserveUnknownFields", p.XPreserveUnknownFields != nil},
		{"XEmbeddedResource", p.XEmbeddedResource},
		{"XIntOrString", p.XIntOrString},
		{"XListMapKeys", p.XListMapKeys != nil},
		{"XListType", p.XListType != nil},
		{"XMapType", p.XMapType != nil},
		{"XValidations", p.XValidations != nil},
	}
	for _, k := range keywords {
		if !k.set {
			continue
		}
		if k.name == "Type" {
			if p.Type != "object" {
				return field.ErrorList{field.Invalid(rootPath.Child("type"), p.Type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`)}
			}
			continue
		}
		if !slices.Contains(allowedAtStatusRoot, k.name) {
			return field.ErrorList{field.Invalid(rootPath, "", fmt.Sprintf("only %v fields are allowed at the root of the schema if the status subresource is enabled", allowedAtStatusRoot))}
		}
	}
	return nil
}

// mapIsCorrelatable reports whether old and new values of an object with
// this x-kubernetes-map-type can be matched field by field.
func mapIsCorrelatable(mapType *string) bool {
	return mapType == nil || *mapType == "granular" || *mapType == "atomic"
}
