// Package schema describes where crdschema's inputs come from: the
// position of a document in a file, and the errors of inputs that cannot be
// read or decoded.
//
// crdschema reads CRD documents, schema documents and objects the way
// kubectl and the apiserver do: YAML 1.1 or JSON streams, List documents
// expanded, CustomResourceDefinitions of apiextensions.k8s.io/v1 and
// v1beta1 decoded with their scheme defaults. The reader and the typed
// model it decodes into are internal; callers use them through the root
// package (crdschema.ReadDocuments, LoadCRD, LoadCRDs, ParseSchema), which
// report unreadable inputs with the types of this package:
//
//	docs, err := crdschema.ReadDocuments("crds.yaml", data)
//	var bad schema.InputErrors
//	if errors.As(err, &bad) {
//		for _, e := range bad {
//			fmt.Println(e.File, e.Line, e.Err) // the other documents are in docs
//		}
//	}
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
