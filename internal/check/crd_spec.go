package check

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/semantic"
)

// isApprovalURL reports whether an approval annotation is an absolute URL
// with a scheme and a host.
func isApprovalURL(s string) bool {
	u, err := url.ParseRequestURI(s)
	return err == nil && u.Host != "" && u.Scheme != ""
}

// validateCRDSpec validates the internal form of a CRD's spec with the
// rules opts select. b takes what the check builds; the schemas (the
// shared one and the versions') share its compile results.
func validateCRDSpec(spec *model.CRDSpec, fldPath *field.Path, opts options, b *Built) field.ErrorList {
	opts.requireStructuralSchema = opts.requireStructuralSchema || needsStructural(spec)
	errs := validateGroupAndScope(spec, fldPath)
	errs = append(errs, validateSchemasPresent(spec, fldPath, &opts)...)
	errs = append(errs, validateVersions(spec, fldPath, &opts, b)...)
	errs = append(errs, validateTopLevelOrPerVersion(spec, fldPath)...)
	errs = append(errs, validateNamesOf(spec, fldPath.Child("names"))...)
	errs = append(errs, validateTopLevel(spec, fldPath, &opts, b)...)
	return errs
}

// needsStructural reports whether a spec's schemas must be structural
// whatever the stored CRD had: pruning is on (preserveUnknownFields not
// true), or a schema uses defaults or x-kubernetes-* extensions.
func needsStructural(spec *model.CRDSpec) bool {
	if pf := spec.PreserveUnknownFields; pf == nil || !*pf {
		return true
	}
	return specHasSchemaWith(spec, func(p *model.Props) bool {
		return p.Default != nil || p.XEmbeddedResource || p.XPreserveUnknownFields != nil || p.XIntOrString ||
			len(p.XListMapKeys) > 0 || p.XListType != nil || len(p.XValidations) > 0
	})
}

// validateGroupAndScope checks spec.group and spec.scope.
func validateGroupAndScope(spec *model.CRDSpec, fldPath *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	switch {
	case spec.Group == "":
		errs = append(errs, field.Required(fldPath.Child("group"), ""))
	case len(utilvalidation.IsDNS1123Subdomain(spec.Group)) > 0:
		errs = append(errs, field.Invalid(fldPath.Child("group"), spec.Group, strings.Join(utilvalidation.IsDNS1123Subdomain(spec.Group), ",")))
	case !strings.Contains(spec.Group, "."):
		errs = append(errs, field.Invalid(fldPath.Child("group"), spec.Group, "should be a domain with at least one dot"))
	}

	errs = append(errs, requiredEnum(fldPath.Child("scope"), spec.Scope, "Cluster", "Namespaced")...)

	return errs
}

// validateSchemasPresent checks that every version has a schema, shared or
// its own, and that schemas with defaults do not preserve unknown fields.
func validateSchemasPresent(spec *model.CRDSpec, fldPath *field.Path, opts *options) field.ErrorList {
	var errs field.ErrorList
	versionsPath := fldPath.Child("versions")
	pruning := spec.PreserveUnknownFields == nil || !*spec.PreserveUnknownFields
	if (opts.requireOpenAPISchema || pruning) && (spec.Validation == nil || spec.Validation.OpenAPIV3Schema == nil) {
		for i, v := range spec.Versions {
			switch {
			case v.Schema != nil && v.Schema.OpenAPIV3Schema != nil:
			case opts.requireOpenAPISchema:
				errs = append(errs, field.Required(versionsPath.Index(i).Child("schema", "openAPIV3Schema"), ""))
			case v.Served:
				// A stored CRD without schemas in some versions: only
				// the served ones need one, as pruning is on.
				errs = append(errs, field.Required(versionsPath.Index(i).Child("schema", "openAPIV3Schema"), "because otherwise all fields are pruned"))
			}
		}
	}
	// The walk over every node last: a v1 CRD's preserveUnknownFields is
	// false.
	if (spec.PreserveUnknownFields == nil || *spec.PreserveUnknownFields) &&
		specHasSchemaWith(spec, func(p *model.Props) bool { return p.Default != nil }) {
		errs = append(errs, field.Invalid(fldPath.Child("preserveUnknownFields"), true, "must be false in order to use defaults in the schema"))
	}

	return errs
}

// validateVersions checks each entry of spec.versions, their names' and
// storage flags' consistency, and the v1beta1 spec.version.
func validateVersions(spec *model.CRDSpec, fldPath *field.Path, opts *options, b *Built) field.ErrorList {
	var errs field.ErrorList
	versionsPath := fldPath.Child("versions")
	storage := 0
	seen := map[string]bool{}
	unique := true
	perVersionSubresources := anyVersion(spec.Versions, func(v *model.Version) bool { return v.Subresources != nil })
	for i := range spec.Versions {
		v := &spec.Versions[i]
		if v.Storage {
			storage++
		}
		if seen[v.Name] {
			unique = false
		}
		seen[v.Name] = true
		if msgs := utilvalidation.IsDNS1035Label(v.Name); len(msgs) > 0 {
			errs = append(errs, field.Invalid(versionsPath.Index(i).Child("name"), v.Name, strings.Join(msgs, ",")))
		}
		sub := spec.Subresources
		if perVersionSubresources {
			sub = subresourcesOfVersion(spec.Versions, v.Name)
		}
		errs = append(errs, validateCRDVersion(v, versionsPath.Index(i), statusEnabled(sub), b, opts)...)
	}

	if !unique {
		errs = append(errs, field.Invalid(versionsPath, "", "must contain unique version names"))
	}
	if storage != 1 {
		errs = append(errs, field.Invalid(versionsPath, "", "must have exactly one version marked as storage version"))
	}
	if spec.Version != "" {
		if msgs := utilvalidation.IsDNS1035Label(spec.Version); len(msgs) > 0 {
			errs = append(errs, field.Invalid(fldPath.Child("version"), spec.Version, strings.Join(msgs, ",")))
		}
		if len(spec.Versions) > 0 && spec.Versions[0].Name != spec.Version {
			errs = append(errs, field.Invalid(fldPath.Child("version"), spec.Version, "must match the first version in spec.versions"))
		}
	}
	return errs
}

// validateTopLevelOrPerVersion checks that top-level and per-version
// schemas, subresources and printer columns exclude each other, and that
// per-version ones that are all identical are given at the top level.
func validateTopLevelOrPerVersion(spec *model.CRDSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	versionsPath := fldPath.Child("versions")
	perVersionSubresources := anyVersion(spec.Versions, func(v *model.Version) bool { return v.Subresources != nil })
	if spec.Validation != nil && anyVersion(spec.Versions, func(v *model.Version) bool { return v.Schema != nil }) {
		errs = append(errs, field.Forbidden(fldPath.Child("validation"), "top-level and per-version schemas are mutually exclusive"))
	}
	if spec.Subresources != nil && perVersionSubresources {
		errs = append(errs, field.Forbidden(fldPath.Child("subresources"), "top-level and per-version subresources are mutually exclusive"))
	}
	if len(spec.AdditionalPrinterColumns) > 0 && anyVersion(spec.Versions, func(v *model.Version) bool { return len(v.AdditionalPrinterColumns) > 0 }) {
		errs = append(errs, field.Forbidden(fldPath.Child("additionalPrinterColumns"), "top-level and per-version additionalPrinterColumns are mutually exclusive"))
	}
	if allVersionsSame(spec.Versions, func(v *model.Version) any { return v.Schema }, func(v *model.Version) bool { return v.Schema != nil }) {
		errs = append(errs, field.Invalid(versionsPath, "", "per-version schemas may not all be set to identical values (top-level validation should be used instead)"))
	}
	if allVersionsSame(spec.Versions, func(v *model.Version) any { return v.Subresources }, func(v *model.Version) bool { return v.Subresources != nil }) {
		errs = append(errs, field.Invalid(versionsPath, "", "per-version subresources may not all be set to identical values (top-level subresources should be used instead)"))
	}
	if allVersionsSame(spec.Versions, func(v *model.Version) any { return v.AdditionalPrinterColumns }, func(v *model.Version) bool { return len(v.AdditionalPrinterColumns) > 0 }) {
		errs = append(errs, field.Invalid(versionsPath, "", "per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)"))
	}

	return errs
}

// validateNamesOf checks spec.names.
func validateNamesOf(spec *model.CRDSpec, namesPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, n := range []struct{ name, value string }{
		{"plural", spec.Names.Plural}, {"singular", spec.Names.Singular},
		{"kind", spec.Names.Kind}, {"listKind", spec.Names.ListKind},
	} {
		if n.value == "" {
			errs = append(errs, field.Required(namesPath.Child(n.name), ""))
		}
	}
	errs = append(errs, validateNames(&spec.Names, namesPath)...)

	return errs
}

// validateTopLevel checks the top-level schema, subresources, printer
// columns, selectable fields and conversion.
func validateTopLevel(spec *model.CRDSpec, fldPath *field.Path, opts *options, b *Built) field.ErrorList {
	var errs field.ErrorList
	anyStatus := statusEnabled(spec.Subresources) ||
		anyVersion(spec.Versions, func(v *model.Version) bool { return statusEnabled(v.Subresources) })
	errs = append(errs, validateCustomResourceValidation(spec.Validation, anyStatus, fldPath.Child("validation"), b, opts, spec.Version)...)
	errs = append(errs, validateSubresources(spec.Subresources, fldPath.Child("subresources"))...)
	for i := range spec.AdditionalPrinterColumns {
		errs = append(errs, validateColumn(&spec.AdditionalPrinterColumns[i], fldPath.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(spec.SelectableFields) > 0 {
		if spec.Validation == nil {
			errs = append(errs, field.Invalid(fldPath.Child("selectableFields"), "", "may only be set when validations.schema is included"))
		} else {
			errs = append(errs, validateSelectableFieldsOf(spec.Validation.OpenAPIV3Schema, spec.SelectableFields, fldPath, opts.allowTooManySelectableFields[""])...)
		}
	}

	if spec.Conversion != nil && spec.Conversion.Strategy != "None" &&
		(spec.PreserveUnknownFields == nil || *spec.PreserveUnknownFields) {
		errs = append(errs, field.Invalid(fldPath.Child("conversion", "strategy"), spec.Conversion.Strategy, "must be None if spec.preserveUnknownFields is true"))
	}
	errs = append(errs, validateConversion(spec.Conversion, fldPath.Child("conversion"), opts)...)
	return errs
}

// validateCRDVersion validates one entry of spec.versions.
func validateCRDVersion(v *model.Version, fldPath *field.Path, status bool, b *Built, opts *options) field.ErrorList {
	errs := field.ErrorList{}
	for _, msg := range deprecationWarningProblems(v.Deprecated, v.DeprecationWarning) {
		errs = append(errs, field.Invalid(fldPath.Child("deprecationWarning"), v.DeprecationWarning, msg))
	}
	errs = append(errs, validateCustomResourceValidation(v.Schema, status, fldPath.Child("schema"), b, opts, v.Name)...)
	errs = append(errs, validateSubresources(v.Subresources, fldPath.Child("subresources"))...)
	for i := range v.AdditionalPrinterColumns {
		errs = append(errs, validateColumn(&v.AdditionalPrinterColumns[i], fldPath.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(v.SelectableFields) > 0 {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			errs = append(errs, field.Invalid(fldPath.Child("selectableFields"), "", "may only be set when `version.schema.openAPIV3Schema` is not included"))
		} else {
			errs = append(errs, validateSelectableFieldsOf(v.Schema.OpenAPIV3Schema, v.SelectableFields, fldPath, opts.allowTooManySelectableFields[v.Name])...)
		}
	}
	return errs
}

// deprecationWarningProblems lists what is wrong with a version's
// deprecationWarning.
func deprecationWarningProblems(deprecated bool, warning *string) []string {
	if warning == nil {
		return nil
	}
	if !deprecated {
		return []string{"can only be set for deprecated versions"}
	}
	var msgs []string
	w := *warning
	if len(w) > 256 {
		msgs = append(msgs, "must be <= 256 characters long")
	}
	if w == "" {
		msgs = append(msgs, "must not be an empty string")
	}
	for i, r := range w {
		if !unicode.IsPrint(r) {
			msgs = append(msgs, fmt.Sprintf("must only contain printable UTF-8 characters; non-printable character found at index %d", i))
			break
		}
	}
	if !utf8.ValidString(w) {
		msgs = append(msgs, "must only contain printable UTF-8 characters")
	}
	return msgs
}

// statusEnabled reports whether subresources enable the status subresource.
func statusEnabled(s *model.Subresources) bool {
	return s != nil && s.Status != nil
}

// subresourcesOfVersion returns the subresources of the named version
// (first match), for CRDs that set subresources per version.
func subresourcesOfVersion(versions []model.Version, name string) *model.Subresources {
	for i := range versions {
		if versions[i].Name == name {
			return versions[i].Subresources
		}
	}
	return nil
}

func anyVersion(versions []model.Version, pred func(*model.Version) bool) bool {
	for i := range versions {
		if pred(&versions[i]) {
			return true
		}
	}
	return false
}

// allVersionsSame reports whether there are versions, every one has the
// field set, and all values are semantically equal to the first one's.
func allVersionsSame(versions []model.Version, get func(*model.Version) any, set func(*model.Version) bool) bool {
	if len(versions) == 0 {
		return false
	}
	first := get(&versions[0])
	for i := range versions {
		if !set(&versions[i]) || unequal(get(&versions[i]), first) {
			return false
		}
	}
	return true
}

// unequal is !semantic.Equal(a, b), comparing schemas the quick way
// (model.SchemasEqual).
func unequal(a, b any) bool {
	if x, ok := a.(*model.Validation); ok {
		if y, ok := b.(*model.Validation); ok {
			return !model.SchemasEqual(x, y)
		}
	}
	return !semantic.Equal(a, b)
}

// requiredEnum checks that a required string is one of the accepted values.
func requiredEnum(fldPath *field.Path, value string, accepted ...string) field.ErrorList {
	if value == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	for _, a := range accepted {
		if a == value {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(fldPath, value, accepted)}
}

// validateNames validates the format of a CRD's names.
func validateNames(n *model.Names, fldPath *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	label := func(child *field.Path, value string) {
		if msgs := utilvalidation.IsDNS1035Label(value); value != "" && len(msgs) > 0 {
			errs = append(errs, field.Invalid(child, value, strings.Join(msgs, ",")))
		}
	}
	mixedCase := func(child *field.Path, value string) {
		if msgs := utilvalidation.IsDNS1035Label(strings.ToLower(value)); value != "" && len(msgs) > 0 {
			errs = append(errs, field.Invalid(child, value, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
		}
	}
	label(fldPath.Child("plural"), n.Plural)
	label(fldPath.Child("singular"), n.Singular)
	mixedCase(fldPath.Child("kind"), n.Kind)
	mixedCase(fldPath.Child("listKind"), n.ListKind)
	for i, s := range n.ShortNames {
		if msgs := utilvalidation.IsDNS1035Label(s); len(msgs) > 0 {
			errs = append(errs, field.Invalid(fldPath.Child("shortNames").Index(i), s, strings.Join(msgs, ",")))
		}
	}
	if n.Kind != "" && n.Kind == n.ListKind {
		errs = append(errs, field.Invalid(fldPath.Child("listKind"), n.ListKind, "kind and listKind may not be the same"))
	}
	for i, c := range n.Categories {
		if msgs := utilvalidation.IsDNS1035Label(c); len(msgs) > 0 {
			errs = append(errs, field.Invalid(fldPath.Child("categories").Index(i), c, strings.Join(msgs, ",")))
		}
	}
	return errs
}

// Printer column types and formats, sorted.
var (
	columnTypes   = []string{"boolean", "date", "integer", "number", "string"}
	columnFormats = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}
)

// validateColumn validates one additional printer column.
func validateColumn(c *model.Column, fldPath *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	if c.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	}
	typesMsg := "must be one of " + strings.Join(columnTypes, ",")
	switch {
	case c.Type == "":
		errs = append(errs, field.Required(fldPath.Child("type"), typesMsg))
	case !contains(columnTypes, c.Type):
		errs = append(errs, field.Invalid(fldPath.Child("type"), c.Type, typesMsg))
	}
	if c.Format != "" && !contains(columnFormats, c.Format) {
		errs = append(errs, field.Invalid(fldPath.Child("format"), c.Format, "must be one of "+strings.Join(columnFormats, ",")))
	}
	if c.JSONPath == "" {
		errs = append(errs, field.Required(fldPath.Child("JSONPath"), ""))
	} else {
		errs = append(errs, validateSimpleJSONPath(c.JSONPath, fldPath.Child("JSONPath"))...)
	}
	return errs
}

// validateSimpleJSONPath checks that s is a dot-notation path starting with
// a dot.
func validateSimpleJSONPath(s string, fldPath *field.Path) field.ErrorList {
	switch {
	case s == "":
		return field.ErrorList{field.Invalid(fldPath, s, "must not be empty")}
	case s[0] != '.':
		return field.ErrorList{field.Invalid(fldPath, s, "must be a simple json path starting with .")}
	}
	return nil
}

// validateSubresources validates the scale subresource's paths.
func validateSubresources(s *model.Subresources, fldPath *field.Path) field.ErrorList {
	if s == nil || s.Scale == nil {
		return nil
	}
	errs := field.ErrorList{}
	underPrefix := func(name, value string, prefixes []string, msg string) {
		p := fldPath.Child("scale." + name)
		if bad := validateSimpleJSONPath(value, p); len(bad) > 0 {
			errs = append(errs, bad...)
			return
		}
		for _, pre := range prefixes {
			if strings.HasPrefix(value, pre) {
				return
			}
		}
		errs = append(errs, field.Invalid(p, value, msg))
	}
	sc := s.Scale
	if sc.SpecReplicasPath == "" {
		errs = append(errs, field.Required(fldPath.Child("scale.specReplicasPath"), ""))
	} else {
		underPrefix("specReplicasPath", sc.SpecReplicasPath, []string{".spec."}, "should be a json path under .spec")
	}
	if sc.StatusReplicasPath == "" {
		errs = append(errs, field.Required(fldPath.Child("scale.statusReplicasPath"), ""))
	} else {
		underPrefix("statusReplicasPath", sc.StatusReplicasPath, []string{".status."}, "should be a json path under .status")
	}
	if sc.LabelSelectorPath != nil && *sc.LabelSelectorPath != "" {
		underPrefix("labelSelectorPath", *sc.LabelSelectorPath, []string{".spec.", ".status."}, "should be a json path under either .spec or .status")
	}
	return errs
}

// Accepted ConversionReview versions, sorted.
var conversionReviewVersions = []string{"v1", "v1beta1"}

// validateConversion validates spec.conversion (internal form).
func validateConversion(c *model.Conversion, fldPath *field.Path, opts *options) field.ErrorList {
	if c == nil {
		return nil
	}
	errs := requiredEnum(fldPath.Child("strategy"), c.Strategy, "None", "Webhook")
	ccPath := fldPath.Child("webhookClientConfig")
	if c.Strategy != "Webhook" {
		if c.WebhookClientConfig != nil {
			errs = append(errs, field.Forbidden(ccPath, "should not be set when strategy is not set to Webhook"))
		}
		if len(c.ConversionReviewVersions) > 0 {
			errs = append(errs, field.Forbidden(fldPath.Child("conversionReviewVersions"), "should not be set when strategy is not set to Webhook"))
		}
		return errs
	}
	cc := c.WebhookClientConfig
	switch {
	case cc == nil:
		errs = append(errs, field.Required(ccPath, "required when strategy is set to Webhook"))
	case (cc.URL == nil) == (cc.Service == nil):
		errs = append(errs, field.Required(ccPath, "exactly one of url or service is required"))
	case cc.URL != nil:
		errs = append(errs, validateWebhookURL(*cc.URL, ccPath.Child("url"))...)
	default:
		errs = append(errs, validateWebhookService(cc.Service, ccPath.Child("service"))...)
	}
	// An invalid caBundle is accepted until the CRD is established (so
	// always on create), and afterwards while the stored one is invalid.
	if cc != nil && len(cc.CABundle) > 0 && !opts.allowInvalidCABundle {
		errs = append(errs, validateCABundle(cc.CABundle, ccPath.Child("caBundle"))...)
	}
	return append(errs, validateReviewVersions(c.ConversionReviewVersions, fldPath.Child("conversionReviewVersions"), opts.requireRecognizedConversionReviewVersion)...)
}

// validateReviewVersions validates conversionReviewVersions of a webhook.
func validateReviewVersions(versions []string, fldPath *field.Path, requireRecognized bool) field.ErrorList {
	if len(versions) == 0 {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	errs := field.ErrorList{}
	seen := map[string]bool{}
	accepted := false
	for i, v := range versions {
		if seen[v] {
			errs = append(errs, field.Invalid(fldPath.Index(i), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, msg := range utilvalidation.IsDNS1035Label(v) {
			errs = append(errs, field.Invalid(fldPath.Index(i), v, msg))
		}
		accepted = accepted || contains(conversionReviewVersions, v)
	}
	if requireRecognized && !accepted {
		errs = append(errs, field.Invalid(fldPath, versions, "must include at least one of "+strings.Join(conversionReviewVersions, ", ")))
	}
	return errs
}

// validateWebhookURL checks a conversion webhook's url: https, a host, no
// user information, fragment or query.
func validateWebhookURL(raw string, fldPath *field.Path) field.ErrorList {
	const form = "; desired format: https://host[/path]"
	u, err := url.Parse(raw)
	if err != nil {
		return field.ErrorList{field.Required(fldPath, "url must be a valid URL: "+err.Error()+form)}
	}
	errs := field.ErrorList{}
	if u.Scheme != "https" {
		errs = append(errs, field.Invalid(fldPath, u.Scheme, "'https' is the only allowed URL scheme"+form))
	}
	if u.Host == "" {
		errs = append(errs, field.Invalid(fldPath, u.Host, "host must be specified"+form))
	}
	if u.User != nil {
		errs = append(errs, field.Invalid(fldPath, u.User.String(), "user information is not permitted in the URL"))
	}
	if u.Fragment != "" {
		errs = append(errs, field.Invalid(fldPath, u.Fragment, "fragments are not permitted in the URL"))
	}
	if u.RawQuery != "" {
		errs = append(errs, field.Invalid(fldPath, u.RawQuery, "query parameters are not permitted in the URL"))
	}
	return errs
}

// validateWebhookService checks a conversion webhook's service reference.
func validateWebhookService(s *model.ServiceReference, fldPath *field.Path) field.ErrorList {
	errs := field.ErrorList{}
	if s.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	}
	if s.Namespace == "" {
		errs = append(errs, field.Required(fldPath.Child("namespace"), ""))
	}
	port := int32(443)
	if s.Port != nil {
		port = *s.Port
	}
	if msgs := utilvalidation.IsValidPortNum(int(port)); len(msgs) > 0 {
		errs = append(errs, field.Invalid(fldPath.Child("port"), port, "port is not valid: "+strings.Join(msgs, ", ")))
	}
	if s.Path == nil {
		return errs
	}
	p := *s.Path
	switch p {
	case "", "/":
		return errs
	case "//":
		return append(errs, field.Invalid(fldPath.Child("path"), p, "segment[0] may not be empty"))
	}
	if !strings.HasPrefix(p, "/") {
		errs = append(errs, field.Invalid(fldPath.Child("path"), p, "must start with a '/'"))
	}
	trimmed := strings.TrimSuffix(p[1:], "/")
	for i, seg := range strings.Split(trimmed, "/") {
		if seg == "" {
			errs = append(errs, field.Invalid(fldPath.Child("path"), p, fmt.Sprintf("segment[%d] may not be empty", i)))
			continue
		}
		for _, msg := range utilvalidation.IsDNS1123Subdomain(seg) {
			errs = append(errs, field.Invalid(fldPath.Child("path"), p, fmt.Sprintf("segment[%d]: %v", i, msg)))
		}
	}
	return errs
}

// specHasSchemaWith reports whether any schema of the spec has a node
// (anywhere, junctors and forbidden keywords included) satisfying pred.
func specHasSchemaWith(spec *model.CRDSpec, pred func(*model.Props) bool) bool {
	if spec.Validation != nil && propsHas(spec.Validation.OpenAPIV3Schema, pred) {
		return true
	}
	return anyVersion(spec.Versions, func(v *model.Version) bool {
		return v.Schema != nil && propsHas(v.Schema.OpenAPIV3Schema, pred)
	})
}

// propsHas reports whether p or any schema nested in it satisfies pred.
func propsHas(p *model.Props, pred func(*model.Props) bool) bool {
	if p == nil {
		return false
	}
	return pred(p) || anyNested(p, func(c *model.Props) bool { return propsHas(c, pred) })
}

// anyNested reports whether f holds for a schema directly nested in p:
// items, junctors, not, properties, patternProperties, definitions,
// additionalProperties, additionalItems and dependencies (nil entries
// included; the maps' values as copies, for reading). It stops at the
// first that does, and allocates nothing for the nodes CRDs have (it runs
// on every node of every schema, several times per check).
func anyNested(p *model.Props, f func(*model.Props) bool) bool {
	if p.Items != nil && (f(p.Items.Schema) || anyOf(p.Items.Array, f)) {
		return true
	}
	if anyOf(p.AllOf, f) || anyOf(p.AnyOf, f) || anyOf(p.OneOf, f) || f(p.Not) {
		return true
	}
	for _, c := range p.Properties {
		if f(c) {
			return true
		}
	}
	for _, pb := range [...]*model.PropsOrBool{p.AdditionalProperties, p.AdditionalItems} {
		if pb != nil && f(pb.Schema) {
			return true
		}
	}
	return anyRareNested(p, f)
}

// anyRareNested is anyNested for the keywords CRDs rarely use (and
// structural schemas may not): patternProperties, definitions and
// dependencies.
func anyRareNested(p *model.Props, f func(*model.Props) bool) bool {
	for _, m := range [...]map[string]model.Props{p.PatternProperties, p.Definitions} {
		for k := range m {
			c := m[k]
			if f(&c) {
				return true
			}
		}
	}
	for _, d := range p.Dependencies {
		if f(d.Schema) {
			return true
		}
	}
	return false
}

// anyOf reports whether f holds for an element of list.
func anyOf(list []model.Props, f func(*model.Props) bool) bool {
	for i := range list {
		if f(&list[i]) {
			return true
		}
	}
	return false
}

// validateCABundle checks that a conversion webhook's caBundle holds PEM
// certificates a TLS client can trust, with the message of the client's
// failure.
func validateCABundle(ca []byte, fldPath *field.Path) field.ErrorList {
	if x509.NewCertPool().AppendCertsFromPEM(ca) {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, ca, "unable to load root certificates: "+caBundleProblem(ca))}
}

// caBundleProblem says why no certificate could be taken from ca.
func caBundleProblem(ca []byte) string {
	for len(ca) > 0 {
		var block *pem.Block
		block, ca = pem.Decode(ca)
		if block == nil {
			return "unable to parse bytes as PEM block"
		}
		if block.Type != "CERTIFICATE" || len(block.Headers) != 0 {
			continue
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			return "failed to parse certificate: " + err.Error()
		}
	}
	return "no valid certificate authority data seen"
}
