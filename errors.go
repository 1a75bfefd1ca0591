package crdschema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crdschema/crdschema/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The errors of this package that callers act on are typed; tell them apart
// with errors.As. Their messages are the details the command reports.

// NotCRDError is a document that is not a CustomResourceDefinition where
// one was expected (LoadCRD, Document.CRD).
type NotCRDError struct {
	schema.Position
	// APIVersion and Kind are the document's, as read ("" when absent or
	// not strings).
	APIVersion, Kind string
}

func (e *NotCRDError) Error() string {
	what := "not a mapping"
	if e.Kind != "" || e.APIVersion != "" {
		what = fmt.Sprintf("a %s of %q", e.Kind, e.APIVersion)
	}
	return fmt.Sprintf("document %d is not a CustomResourceDefinition (%s)", e.Index, what)
}

// UnknownKindError is an object whose group and kind no given CRD defines
// (Route).
type UnknownKindError struct {
	// APIVersion and Kind are the object's.
	APIVersion, Kind string
}

func (e *UnknownKindError) Error() string { return noMatch(e.Kind, e.APIVersion) }

// NotServedError is a version that a CRD does not serve: it defines it
// with served: false, or does not define it at all (CRD.Version, Route).
type NotServedError struct {
	// CRD is the CustomResourceDefinition's name.
	CRD string
	// APIVersion and Kind are what was asked for (APIVersion is the
	// version's name when the CRD was asked directly).
	APIVersion, Kind string
	// Version is the version asked for; Defined says whether the CRD
	// defines it (then CRD.Version returns its schema with this error).
	Version string
	Defined bool
	// Served lists the versions the CRD serves, highest priority first.
	Served []string
}

// Error names the served versions sorted by name.
func (e *NotServedError) Error() string {
	served := slices.Clone(e.Served)
	slices.Sort(served)
	return fmt.Sprintf("%s: CustomResourceDefinition %q serves %s", noMatch(e.Kind, e.APIVersion), e.CRD, strings.Join(served, ", "))
}

// RejectedError is a CRD or a bare schema the apiserver would reject
// (CRD.Errors, Schema.Errors are not empty), so it serves no objects
// (Route, ParseSchema when a schema cannot be compiled at all).
type RejectedError struct {
	// CRD is the CustomResourceDefinition's name; "" for a bare schema.
	CRD string
	// APIVersion and Kind are those of the object being routed, if any.
	APIVersion, Kind string
	// Errors are the reasons, sorted as everywhere in this module; never
	// empty.
	Errors field.ErrorList
}

func (e *RejectedError) Error() string {
	reasons := fmt.Sprintf("(%d errors, first: %s)", len(e.Errors), e.Errors[0].Error())
	if e.CRD == "" {
		return "the schema would be rejected " + reasons
	}
	msg := fmt.Sprintf("CustomResourceDefinition %q would be rejected %s", e.CRD, reasons)
	if e.Kind != "" {
		msg = noMatch(e.Kind, e.APIVersion) + ": " + msg
	}
	return msg
}

// rejectedBy is the error of a CRD whose schema could not be built (err):
// the CRD's own errors, or, should the check have passed (which no input
// is known to reach), err itself as an internal error, so that the list
// is never empty.
func (c *CRD) rejectedBy(err error) *RejectedError {
	errs := c.Errors()
	if len(errs) == 0 {
		errs = field.ErrorList{field.InternalError(field.NewPath("spec"), err)}
	}
	return &RejectedError{CRD: c.Name(), Errors: errs}
}

// noMatch is what kubectl says for an object no served version takes.
func noMatch(kind, apiVersion string) string {
	return fmt.Sprintf("no matches for kind %q in version %q", kind, apiVersion)
}
