package check

import (
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/semantic"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

// StoredUID is the uid a stored CRD is assumed to have when its document
// has none: a created object always has one.
const StoredUID = "00000000-0000-4000-8000-00000000c0de"

// Update returns every error the apiserver reports when crd (decoded like
// a create) replaces the stored CRD old (`kubectl apply` of a new
// revision), sorted. The stored CRD is assumed as created and established:
// its status.storedVersions are the document's, or else its storage
// version; its uid the document's, or else StoredUID. It is never
// validated itself.
//
// The update takes the stored status (adding the new storage version to
// the stored versions), generation, resourceVersion and creationTimestamp,
// and the stored uid when crd has none; then it is validated as the
// apiserver's rest.BeforeUpdate does: the generic metadata checks, and
// ValidateCustomResourceDefinitionUpdate, which applies the create rules
// except those the stored CRD already broke anywhere, and the name rule,
// plus the immutability of group, plural, scope and kind and the stored
// versions' presence.
//
// createAccepted says that crd has no create errors (CRD(crd) is empty):
// then its spec, which the update validates with rules that are the
// create's or laxer, is not validated again (see updateSpec).
func Update(crd, old *model.CRD, createAccepted bool) field.ErrorList {
	meta := updateMeta(crd, old)
	errs := commonMeta(crd)
	errs = append(errs, meta...)
	errs = append(errs, meta...)
	errs = append(errs, updateSpec(crd, old, createAccepted)...)
	errs = append(errs, validateImmutable(&crd.Spec, &old.Spec)...)
	errs = append(errs, validateStoredVersions(updateStoredVersions(crd, old), crd.Spec.Versions, field.NewPath("status", "storedVersions"))...)
	errs = append(errs, validateAPIApprovalUpdate(crd, old)...)
	if pf := crd.Spec.PreserveUnknownFields; pf != nil && *pf && (old.Spec.PreserveUnknownFields == nil || !*old.Spec.PreserveUnknownFields) {
		errs = append(errs, field.Invalid(field.NewPath("spec", "preserveUnknownFields"), true,
			"cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"))
	}
	errorsort.Sort(errs)
	return errs
}

// updateSpec validates the spec of an update. Every option of an update
// is the create's or laxer (a rule the stored CRD broke is off, the stored
// expressions compile in an environment holding the new expressions'
// with the same overloads, unchanged schemas have no per-expression cost
// limit, unchanged selectable fields may exceed the limit), but one: the
// caBundle of a conversion webhook, unchecked on create, is checked once
// the CRD is established unless the stored one is invalid. So a spec a
// create accepts, with no caBundle to check now, has no update errors.
func updateSpec(crd, old *model.CRD, createAccepted bool) field.ErrorList {
	if createAccepted && (!hasCABundle(&crd.Spec) || storedCABundleInvalid(&old.Spec)) {
		return nil
	}
	return validateCRDSpec(&crd.Spec, field.NewPath("spec"), updateOptions(&crd.Spec, &old.Spec), NewBuilt())
}

// hasCABundle reports whether a spec's conversion webhook has a caBundle.
func hasCABundle(spec *model.CRDSpec) bool {
	c := spec.Conversion
	return c != nil && c.WebhookClientConfig != nil && len(c.WebhookClientConfig.CABundle) > 0
}

// updateStoredVersions are the new CRD's status.storedVersions: the stored
// CRD's, with the new storage version appended when missing.
func updateStoredVersions(crd, old *model.CRD) []string {
	stored := append([]string(nil), old.Status.StoredVersions...)
	if len(stored) == 0 {
		stored = createStoredVersions(old.Spec.Versions)
	}
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			found := false
			for _, s := range stored {
				found = found || s == v.Name
			}
			if !found {
				stored = append(stored, v.Name)
			}
			break
		}
	}
	return stored
}

// commonMeta is the metadata check every update gets first: the create
// rules of ObjectMeta, with a name that must only be a path segment.
func commonMeta(crd *model.CRD) field.ErrorList {
	return embedded.ValidateObjectMeta(field.NewPath("metadata"), crdMetaMap(crd), false, embedded.NameIsPathSegment)
}

// updateMeta is the metadata check of an update (uid immutable, labels
// and annotations). It runs twice in the apiserver (the generic registry's
// and the CRD validation's), so its errors come twice.
func updateMeta(crd, old *model.CRD) field.ErrorList {
	oldUID := old.Metadata.UID
	if oldUID == "" {
		oldUID = StoredUID
	}
	newMeta := crdMetaMap(crd)
	newMeta["uid"] = crd.Metadata.UID
	if crd.Metadata.UID == "" {
		newMeta["uid"] = oldUID
	}
	oldMeta := map[string]any{"name": old.Metadata.Name, "uid": oldUID, "generation": int64(1), "resourceVersion": "1"}
	newMeta["name"], newMeta["generation"], newMeta["resourceVersion"] = crd.Metadata.Name, int64(1), "1"
	return embedded.ValidateObjectMetaUpdate(field.NewPath("metadata"), newMeta, oldMeta)
}

// validateImmutable checks what an update may not change: group and
// plural always, scope and kind once the CRD is established (as every
// stored CRD is assumed to be).
func validateImmutable(spec, old *model.CRDSpec) field.ErrorList {
	var errs field.ErrorList
	for _, f := range []struct {
		path     *field.Path
		new, old string
	}{
		{field.NewPath("spec", "scope"), spec.Scope, old.Scope},
		{field.NewPath("spec", "names", "kind"), spec.Names.Kind, old.Names.Kind},
		{field.NewPath("spec", "group"), spec.Group, old.Group},
		{field.NewPath("spec", "names", "plural"), spec.Names.Plural, old.Names.Plural},
	} {
		if f.new != f.old {
			errs = append(errs, field.Invalid(f.path, f.new, "field is immutable"))
		}
	}
	return errs
}

// validateAPIApprovalUpdate is the API approval rule of an update: no
// error while the approval state stays what it was.
func validateAPIApprovalUpdate(crd, old *model.CRD) field.ErrorList {
	if !isProtectedGroup(crd.Spec.Group) {
		return nil
	}
	if approvalState(old.Metadata.Annotations[approvalAnnotation]) == approvalState(crd.Metadata.Annotations[approvalAnnotation]) {
		return nil
	}
	return validateAPIApproval(crd)
}

// approvalState classifies an approval annotation: missing, bypassed
// ("unapproved…"), approved (a URL) or invalid.
func approvalState(v string) string {
	switch {
	case v == "":
		return "missing"
	case len(v) >= len("unapproved") && v[:len("unapproved")] == "unapproved":
		return "bypassed"
	case isApprovalURL(v):
		return "approved"
	}
	return "invalid"
}

// updateOptions are the rules an update of the stored spec old to spec
// applies: each create rule the stored spec already broke somewhere is off
// for the whole CRD.
func updateOptions(spec, old *model.CRDSpec) options {
	o := createOptions()
	o.requireOpenAPISchema = allVersionsHaveSchemas(old)
	o.requireValidPropertyType = !specHasSchemaWith(old, func(p *model.Props) bool {
		return p.Type != "" && !isOpenAPIV3Type(p.Type)
	})
	o.requireStructuralSchema = !eachSchemaOf(old, schemaIsNonStructural)
	o.requirePrunedDefaults = !eachSchemaOf(old, schemaHasUnprunedDefaults)
	o.requireAtomicSetType = !specHasSchemaWith(old, hasNonAtomicSetItems)
	o.requireMapListKeysMapSetValidation = !specHasSchemaWith(old, breaksMapListKeys)
	o.requireRecognizedConversionReviewVersion = old.Conversion == nil || reviewVersionsAcceptedOrEmpty(old.Conversion.ConversionReviewVersions)
	o.allowInvalidCABundle = storedCABundleInvalid(old)
	o.allowTooManySelectableFields = tooManySelectableFieldsAllowed(spec, old)
	o.unchangedSchemas = unchangedSchemas(spec, old)
	o.stored = cel.NewStoredExpressions()
	eachSchema(old, func(p *model.Props) { o.stored.Add(p.XValidations) })
	return o
}

// allVersionsHaveSchemas reports whether the spec has the shared schema or
// one in every version.
func allVersionsHaveSchemas(spec *model.CRDSpec) bool {
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil {
		return true
	}
	for _, v := range spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			return false
		}
	}
	return true
}

// eachSchemaOf reports whether pred holds for the shared schema or any
// version's schema root.
func eachSchemaOf(spec *model.CRDSpec, pred func(*model.Props) bool) bool {
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil && pred(spec.Validation.OpenAPIV3Schema) {
		return true
	}
	return anyVersion(spec.Versions, func(v *model.Version) bool {
		return v.Schema != nil && v.Schema.OpenAPIV3Schema != nil && pred(v.Schema.OpenAPIV3Schema)
	})
}

// schemaIsNonStructural reports whether a schema cannot be built as a
// structural schema or breaks the structural rules.
func schemaIsNonStructural(p *model.Props) bool {
	ss, err := structural.New(p)
	return err != nil || len(structural.Validate(nil, ss)) > 0
}

// schemaHasUnprunedDefaults reports whether a structural schema has a
// default that the apiserver's default pruning (PruneDefaults) changes.
// As the apiserver does, each default is placed where it applies in an
// object holding nothing else, that whole object is coerced (the root and
// every embedded resource through ObjectMeta, malformed parts dropped)
// and pruned with the whole schema, and the default is read back from
// it: a default of the root's metadata is pruned as ObjectMeta, not as
// its own node, and one that is gone counts as changed. A default that
// cannot be placed or read back (a root default that is not an object)
// makes the apiserver give up: the schema then counts as having none.
func schemaHasUnprunedDefaults(p *model.Props) bool {
	if !propsHas(p, func(p *model.Props) bool { return p.Default != nil }) {
		return false
	}
	ss, err := structural.New(p)
	if err != nil || len(structural.Validate(nil, ss)) > 0 {
		return false
	}
	c := defaultPruning{root: ss, rootResource: ss.Derive(func(r *structural.Schema) { r.EmbeddedResource = true })}
	c.walk(ss, nil)
	return c.changed && !c.failed
}

// defaultPruning walks a schema's defaults as the apiserver prunes them.
type defaultPruning struct {
	// root is the whole schema; rootResource the same as an embedded
	// resource, which is how the apiserver coerces the root.
	root, rootResource *structural.Schema
	// changed: some default is changed by pruning; failed: some default
	// could not be placed or read back.
	changed, failed bool
}

// walk visits s, reached from the root by path, and the nodes below it
// (properties, additionalProperties as the key "*", items).
func (c *defaultPruning) walk(s *structural.Schema, path []step) {
	if s == nil || c.failed {
		return
	}
	if s.HasDefault {
		c.check(s, path)
	}
	if !s.HasDefaultsBelow() {
		return
	}
	if ap := s.AdditionalProperties; ap != nil {
		c.walk(ap.Schema, append(path[:len(path):len(path)], step{key: "*"}))
	}
	c.walk(s.Items, append(path[:len(path):len(path)], step{index: true}))
	for _, k := range s.DefaultingProperties() {
		c.walk(s.Properties[k], append(path[:len(path):len(path)], step{key: k}))
	}
}

// check prunes the default of s, at path, inside an object of its own.
func (c *defaultPruning) check(s *structural.Schema, path []step) {
	obj, ok := wrap(jsonvalue.DeepCopy(s.Default), path).(map[string]any)
	if !ok {
		c.failed = true
		return
	}
	if _, errs := embedded.CoerceEmbedded(obj, c.rootResource, embedded.CoerceOptions{DropMalformed: true}); len(errs) > 0 {
		c.failed = true
		return
	}
	prune.Prune(obj, c.root, prune.Options{ResourceRoot: true})
	v, found, ok := lookup(obj, path)
	switch {
	case !ok:
		c.failed = true
	case !found || !reflect.DeepEqual(v, s.Default):
		c.changed = true
	}
}

// lookup reads the value at path in obj, as the apiserver's accessor of
// a surrounding object does: found is false when a step's key is missing
// or its list is empty, ok false when a step meets a value of another
// kind (no object for a key, no list for an index).
func lookup(obj map[string]any, path []step) (v any, found, ok bool) {
	v = obj
	for _, st := range path {
		if st.index {
			l, isList := v.([]any)
			if !isList {
				return nil, false, false
			}
			if len(l) == 0 {
				return nil, false, true
			}
			v = l[0]
			continue
		}
		m, isMap := v.(map[string]any)
		if !isMap {
			return nil, false, false
		}
		if v, found = m[st.key]; !found {
			return nil, false, true
		}
	}
	return v, true, true
}

// hasNonAtomicSetItems reports a set list whose items are not atomic.
func hasNonAtomicSetItems(p *model.Props) bool {
	if p.XListType == nil || *p.XListType != "set" || p.Items == nil || p.Items.Schema == nil {
		return false
	}
	is := p.Items.Schema
	switch is.Type {
	case "array":
		return is.XListType != nil && *is.XListType != "atomic"
	case "object":
		return is.XMapType == nil || *is.XMapType != "atomic"
	}
	return false
}

// breaksMapListKeys reports a set or map list with nullable items, or a
// map list whose key is nullable, or neither required nor defaulted.
func breaksMapListKeys(p *model.Props) bool {
	if p.Items == nil || p.Items.Schema == nil || p.XListType == nil || (*p.XListType != "set" && *p.XListType != "map") {
		return false
	}
	items := p.Items.Schema
	if items.Nullable {
		return true
	}
	if *p.XListType != "map" {
		return false
	}
	for _, k := range p.XListMapKeys {
		prop, ok := items.Properties[k]
		if ok && (prop.Nullable || (prop.Default == nil && !slices.Contains(items.Required, k))) {
			return true
		}
	}
	return false
}

// reviewVersionsAcceptedOrEmpty reports whether a webhook's review
// versions are empty or include one the apiserver accepts.
func reviewVersionsAcceptedOrEmpty(versions []string) bool {
	if len(versions) == 0 {
		return true
	}
	for _, v := range versions {
		if contains(conversionReviewVersions, v) {
			return true
		}
	}
	return false
}

// storedCABundleInvalid reports whether the stored (established) CRD has
// a conversion webhook caBundle that is invalid: then the new one may be
// too.
func storedCABundleInvalid(old *model.CRDSpec) bool {
	if !hasCABundle(old) {
		return false
	}
	return len(validateCABundle(old.Conversion.WebhookClientConfig.CABundle, nil)) > 0
}

// tooManySelectableFieldsAllowed lists the versions ("" for the shared
// fields) whose selectable fields were over the limit in the stored CRD
// and are unchanged.
func tooManySelectableFieldsAllowed(spec, old *model.CRDSpec) map[string]bool {
	out := map[string]bool{}
	if len(old.SelectableFields) > maxSelectableFields && semantic.Equal(spec.SelectableFields, old.SelectableFields) {
		out[""] = true
	}
	oldVersions := map[string]*model.Version{}
	for i := range old.Versions {
		oldVersions[old.Versions[i].Name] = &old.Versions[i]
	}
	for _, v := range spec.Versions {
		if o, ok := oldVersions[v.Name]; ok && len(o.SelectableFields) > maxSelectableFields && semantic.Equal(v.SelectableFields, o.SelectableFields) {
			out[v.Name] = true
		}
	}
	return out
}

// unchangedSchemas lists the versions of spec whose schema equals the one
// the stored spec has for them.
func unchangedSchemas(spec, old *model.CRDSpec) map[string]bool {
	out := map[string]bool{}
	for _, v := range spec.Versions {
		n, ok1 := schemaForVersion(spec, v.Name)
		o, ok2 := schemaForVersion(old, v.Name)
		if ok1 && ok2 && model.SchemasEqual(n, o) {
			out[v.Name] = true
		}
	}
	return out
}

// schemaForVersion is the apiserver's GetSchemaForVersion: the shared
// schema when no version has its own, else the version's; false when the
// spec is malformed or lacks the version.
func schemaForVersion(spec *model.CRDSpec, name string) (*model.Validation, bool) {
	if !anyVersion(spec.Versions, func(v *model.Version) bool { return v.Schema != nil }) {
		return spec.Validation, true
	}
	if spec.Validation != nil {
		return nil, false
	}
	for i := range spec.Versions {
		if spec.Versions[i].Name == name {
			return spec.Versions[i].Schema, true
		}
	}
	return nil, false
}
