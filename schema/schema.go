// Package schema is an OpenAPI v3 schema as a CustomResourceDefinition
// carries it, as written: the parsed model (Props, every keyword the
// apiserver decodes), the readers that decode it from YAML 1.1 or JSON the
// way kubectl and the apiserver do (Parse, Decode, ReadDocuments,
// Documents), and the positions and errors of those inputs.
//
// It is the bottom of the light chain: Document.VersionSchema reads the
// schema of one version from a CRD document, package structural builds
// the structural model from a Props (structural.New) and checks rules 1–4,
// and prune, defaulting, embedded and validation walk objects with that
// model; none of them needs the root package or links CEL (see the
// example of VersionSchema).
//
//	p, err := schema.Parse(data) // YAML or JSON, one mapping document
//	var bad *schema.InputError
//	if errors.As(err, &bad) {
//		fmt.Println(bad.File, bad.Line, bad.Err)
//	}
//
// ReadDocuments reads whole streams (Lists expanded, each document with its
// position); one bad document does not hide the others:
//
//	docs, err := schema.ReadDocuments("crds.yaml", data)
//	var errs schema.InputErrors // the unreadable documents, beside docs
//	errors.As(err, &errs)
//
// Documents reads the same from an io.Reader one document at a time
// (memory holds one document), with the same positions and errors.
package schema

import (
	"fmt"
	"strings"
)

// Position is where a document starts in its input.
type Position struct {
	// File is the name the document was read from ("-" for standard input).
	File string
	// Index numbers the documents of a file from 0, in stream order, after
	// List expansion; empty documents are not numbered.
	Index int
	// Line is the 1-based line of the file where the document starts.
	Line int
}

// InputError is an input that cannot be read or decoded. It names the file
// and, where known, the line.
type InputError struct {
	File string
	Line int // 0 when unknown
	Err  error
}

// Error reads FILE:LINE: ERR, or FILE: ERR when the line is unknown.
func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

// InputErrors are the documents of an input that cannot be read or are not
// mappings, in stream order. crdschema.ReadDocuments returns them beside
// the documents they could read: one bad document does not hide the others.
type InputErrors []*InputError

// Error lists the errors, one a line.
func (e InputErrors) Error() string {
	msgs := make([]string, len(e))
	for i, x := range e {
		msgs[i] = x.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap returns the errors, for errors.Is and errors.As.
func (e InputErrors) Unwrap() []error {
	out := make([]error, len(e))
	for i, x := range e {
		out[i] = x
	}
	return out
}
