package check

import (
	"github.com/crdschema/crdschema/internal/cel"
)

// options say which of the CRD rules apply. A create applies all of them;
// an update switches some off when the stored CRD already broke them
// anywhere (ratcheting per rule, for the whole CRD) and relaxes the CEL
// checks of expressions and schemas the stored CRD already had.
type options struct {
	// requireOpenAPISchema: every version needs a schema.
	requireOpenAPISchema bool
	// requireValidPropertyType: type must be one of the OpenAPI v3 types.
	requireValidPropertyType bool
	// requireStructuralSchema: schemas must be structural (and then their
	// defaults and rules are checked). Always forced on for a spec without
	// preserveUnknownFields: true, with defaults or with x-kubernetes-*
	// extensions.
	requireStructuralSchema bool
	// requirePrunedDefaults: defaults must not hold unknown fields.
	requirePrunedDefaults bool
	// requireAtomicSetType: items of set lists must be atomic.
	requireAtomicSetType bool
	// requireMapListKeysMapSetValidation: set and map list items not
	// nullable, map keys required or defaulted and not nullable.
	requireMapListKeysMapSetValidation bool
	// requireRecognizedConversionReviewVersion: a conversion webhook must
	// accept v1 or v1beta1 ConversionReviews.
	requireRecognizedConversionReviewVersion bool
	// allowInvalidCABundle: a conversion webhook's caBundle is not checked.
	allowInvalidCABundle bool
	// allowTooManySelectableFields holds the versions ("" for the shared
	// ones) whose unchanged selectable fields may exceed the limit.
	allowTooManySelectableFields map[string]bool
	// unchangedSchemas holds the versions whose schema the update leaves
	// as it was: their rules' per-expression cost limit is not checked.
	unchangedSchemas map[string]bool
	// stored holds the expressions of the stored CRD, which compile in
	// the stored expressions' environment; nil on create.
	stored *cel.StoredExpressions
}

// createOptions are the options of a create: every rule applies.
func createOptions() options {
	return options{
		requireOpenAPISchema:                     true,
		requireValidPropertyType:                 true,
		requireStructuralSchema:                  true,
		requirePrunedDefaults:                    true,
		requireAtomicSetType:                     true,
		requireMapListKeysMapSetValidation:       true,
		requireRecognizedConversionReviewVersion: true,
		// The CRD is not established yet.
		allowInvalidCABundle: true,
	}
}

// celOptions are the options the rules of the schema of version (the
// shared schema's version for spec.validation) are compiled with.
func (o *options) celOptions(version string) cel.CheckOptions {
	return cel.CheckOptions{Stored: o.stored, NoExpressionCostLimit: o.unchangedSchemas[version]}
}
