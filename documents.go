package crdschema

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"sort"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/errorsort"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/schema"
)

// Document is one document of a YAML or JSON input, as kubectl reads it.
type Document struct {
	schema.Position
	// Object is the decoded document as the apiserver's JSON decoder reads
	// it (integers as int64, other numbers as float64), except that a
	// whole float, written with a fraction or an exponent ("3.0", "1e3"),
	// is the json.Number of its text with a fraction ("3.0"): the calls
	// of this package then keep it a float, as the apiserver does (a
	// whole float64 they take for the integer encoding/json would have
	// written; see Apply). nil when the document is not a mapping, which
	// Documents yields only beside its error. It belongs to the caller.
	Object map[string]any
	// Duplicates are the fields a JSON document holds twice, as the
	// apiserver's strict decoder names them (see schema.Document). A
	// pipeline call takes an Object, which cannot show them: set
	// Result.Duplicates from them to have them warned about
	// (Result.Warnings) or rejected (Result.Strict).
	Duplicates []string
	// Text is the text the document was read from, starting at Line (see
	// schema.Document), for finding a field's line and column. Treat it
	// as read-only.
	Text []byte

	doc model.Document
	// floats is set when Object (which is doc.Value) holds marked floats:
	// a CRD is then decoded from JSON.
	floats bool
}

// ReadDocuments splits data, the contents of the file name, into its
// documents as kubectl and the apiserver read them: a stream starting with
// '{' is a stream of JSON values, anything else a YAML stream split at
// "---" lines and read as YAML 1.1; List documents are expanded into their
// items. Every returned document is a mapping.
//
// A document that cannot be decoded or is not a mapping keeps its number
// and is reported in a schema.InputErrors returned beside the documents
// that could be read (each naming the file, the line and the document);
// one bad document does not hide the others. A stream that cannot be split
// into documents is one *schema.InputError and no documents.
//
// It is Documents over an input already in memory: the same documents and
// errors, collected. The documents' Text is part of data, and a YAML
// document's JSON is read from it when first asked for: data must not
// change while the documents are in use.
func ReadDocuments(name string, data []byte) ([]Document, error) {
	return readDocuments(name, data, true)
}

// readDocuments is ReadDocuments, marking whole floats or not (a reader
// of CRDs needs no marks).
func readDocuments(name string, data []byte, mark bool) ([]Document, error) {
	docs, err := schema.ReadDocuments(name, data)
	out := make([]Document, len(docs))
	for i, d := range docs {
		out[i] = newDocument(d, mark)
	}
	return out, err
}

// Documents reads the stream r, the contents of the file name, one
// document at a time, as schema.Documents does (memory holds one YAML
// document at a time): each document that could be read with a nil
// error; each document that cannot be read with its *schema.InputError
// (its Position beside it, Object nil), after which reading goes on; a
// failure of the stream itself (r fails, a JSON stream broken after its
// first value) with a zero Document (Line 0), and last. With kinds, only
// documents of those kinds are yielded, and the YAML documents that
// cannot be one are not even decoded (see schema.Documents):
// Documents(name, r, "CustomResourceDefinition") finds the CRDs among
// many objects. A cluster dump is linted as it is read:
//
//	for d, err := range crdschema.Documents("dump.yaml", f) {
//		if err != nil {
//			log.Print(err) // one bad document does not hide the others
//			continue
//		}
//		s, err := crdschema.Route(crds, d.Object)
//		...
//	}
func Documents(name string, r io.Reader, kinds ...string) iter.Seq2[Document, error] {
	return func(yield func(Document, error) bool) {
		for d, err := range schema.Documents(name, r, kinds...) {
			if !yield(newDocument(d, true), err) {
				return
			}
		}
	}
}

// newDocument wraps a document of package schema, marking the whole
// floats of its Object when mark is set.
func newDocument(d schema.Document, mark bool) Document {
	out := Document{Position: d.Position, Object: d.Object, Duplicates: d.Duplicates, Text: d.Text, doc: d}
	if mark {
		// JSON is read again from Text: the marks never show in it.
		out.floats = jsonvalue.KeepFloats(d.Object)
	}
	return out
}

// JSON returns the document as JSON, as kubectl would send it: a JSON
// input's own bytes; for a YAML document or an item of a List, the
// document as read, encoded as encoding/json encodes it (a whole float
// written "3.0" as 3). It is encoded on the first call on the document or
// any copy of it, from its text read again, and kept for the later calls;
// reading documents without asking costs nothing. Whatever the caller did
// to Object (pruned, defaulted) never shows in it. The result is shared:
// treat it as read-only. It is nil for a document that could not be read
// and for one built by hand.
func (d *Document) JSON() []byte {
	return d.doc.JSON()
}

// Locator returns a function that finds a field of the document in its
// Text: given an error's Field (spec.list[2].name), the 1-based line and
// column of the field's key in the file, or of its nearest ancestor
// present (see schema.Document.Locator, which this is). Errors a v1 CRD
// is reported with may name the internal version's fields
// (spec.validation for spec.versions[*].schema): those are found as their
// nearest ancestor.
func (d *Document) Locator() func(fieldPath string) (line, column int) {
	return d.doc.Locator()
}

// IsCRD reports whether the document is a CustomResourceDefinition of
// apiextensions.k8s.io/v1 or v1beta1.
func (d *Document) IsCRD() bool {
	return d.Object != nil && model.IsCRD(d.Object)
}

// CRD decodes the document as a CustomResourceDefinition. It fails with a
// *NotCRDError when the document is not one, and with a *schema.InputError
// when it cannot be decoded. The CRD is not checked: see CRD.Errors.
//
// Call it before changing Object: the CRD is converted from Object where
// the document was read fast, and otherwise decoded from JSON, the
// document as read, so a change made to Object first shows in the CRD of
// some documents and not of others (the items of a List).
func (d *Document) CRD() (*CRD, error) {
	if !d.IsCRD() {
		e := &NotCRDError{Position: d.Position}
		e.APIVersion, _ = d.Object["apiVersion"].(string)
		e.Kind, _ = d.Object["kind"].(string)
		return nil, e
	}
	var crd *model.CRD
	var err error
	if d.floats {
		crd, err = model.DecodeCRD(d.doc.JSON())
	} else {
		crd, err = model.DecodeCRDDocument(d.doc)
	}
	if err != nil {
		return nil, d.inputError(fmt.Errorf("document %d: cannot decode CustomResourceDefinition: %w", d.Index, err))
	}
	c := newCRD(crd)
	c.pos = d.Position
	return c, nil
}

// Schema decodes the document as a bare OpenAPI v3 schema and compiles it
// as ParseSchema does. It fails with a *schema.InputError when the document
// is not a mapping or cannot be decoded as a schema, and with a
// *RejectedError when the schema cannot be compiled at all.
func (d *Document) Schema() (*Schema, error) {
	if d.Object == nil {
		return nil, d.inputError(fmt.Errorf("document %d is not a mapping", d.Index))
	}
	p := &model.Props{}
	if err := model.DecodeProps(d.doc.JSON(), p); err != nil {
		return nil, d.inputError(fmt.Errorf("document %d: cannot decode schema: %w", d.Index, err))
	}
	return compileSchema(p)
}

func (d *Document) inputError(err error) error {
	return &schema.InputError{File: d.File, Line: d.Line, Err: err}
}

// LoadCRDs reads every CustomResourceDefinition of data, the contents of
// the file name (YAML or JSON, any number of documents, Lists expanded),
// each with its Position. Documents that are not CRDs are skipped; use
// ReadDocuments to see them. The CRDs are not checked: see CRD.Errors.
//
// Like ReadDocuments, it returns every CRD it could read beside the error
// of the documents it could not (a schema.InputErrors: unreadable
// documents, and CRDs that cannot be decoded).
func LoadCRDs(name string, data []byte) ([]*CRD, error) {
	docs, err := readDocuments(name, data, false)
	var errs schema.InputErrors
	if err != nil && !errors.As(err, &errs) {
		return nil, err
	}
	var out []*CRD
	for i := range docs {
		if !docs[i].IsCRD() {
			continue
		}
		c, err := docs[i].CRD()
		var ie *schema.InputError
		switch {
		case errors.As(err, &ie):
			errs = append(errs, ie)
		case err != nil:
			return nil, err
		default:
			out = append(out, c)
		}
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
		return out, errs
	}
	return out, nil
}

// SortErrors sorts errs in place in the one order this package reports
// field errors in: by field path, then type, then detail (stable).
func SortErrors(errs field.ErrorList) { errorsort.Sort(errs) }
