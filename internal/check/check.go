// Package check validates CustomResourceDefinitions and bare OpenAPI v3
// schemas as the apiserver does when a CRD is created: every error
// `kubectl create` would report, with the apiserver's types, field paths and
// messages.
package check

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// CRD returns every error the apiserver reports when crd is created, sorted
// by field path, type and detail, as every error list of this module is,
// and what the check built on the way.
func CRD(crd *model.CRD) (field.ErrorList, *Built) {
	b := NewBuilt()
	errs := validateCRD(crd, b)
	// The versions' validators take the check's compile results; what is
	// kept to share work between the check's nodes need not live as long
	// as b.
	b.Rules.ForgetShared()
	errorsort.Sort(errs)
	return errs, b
}

// Built is what a check builds on its way that its caller would otherwise
// build again: the structural model of every schema the check required
// to be structural, and the compile results of the schemas' rules (see
// cel.CompileCache). It is used by one goroutine at a time until the check
// that filled it is done; after that, validators built with its Rules may
// use them from any goroutine (see cel.CompileCache).
type Built struct {
	schemas map[*model.Props]*structural.Schema
	// Rules holds the compile results of the rules of the CRD's schemas.
	Rules *cel.CompileCache
}

// NewBuilt returns an empty Built, to compile schemas with (its Rules)
// when no check's is at hand.
func NewBuilt() *Built {
	return &Built{schemas: map[*model.Props]*structural.Schema{}, Rules: cel.NewCompileCache()}
}

// Structural returns the structural model the check built of the schema
// p (structural.New(p)); nil when it built none, or b is nil.
func (b *Built) Structural(p *model.Props) *structural.Schema {
	if b == nil {
		return nil
	}
	return b.schemas[p]
}
