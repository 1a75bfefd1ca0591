package crdschema

import (
	"errors"
	"fmt"
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
	// Object is the decoded document (integers as int64); nil when the
	// document is not a mapping. It belongs to the caller.
	Object map[string]any
	// JSON is the document as JSON, as kubectl would send it (for a
	// strict decoder looking for duplicate fields, say). Treat it as
	// read-only.
	JSON []byte

	doc model.Document
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
func ReadDocuments(name string, data []byte) ([]Document, error) {
	docs, err := schema.ReadDocuments(name, data)
	out := make([]Document, len(docs))
	for i, d := range docs {
		out[i] = Document{Position: schema.Position{File: d.File, Index: d.Index, Line: d.Line}, Object: d.Object, JSON: d.JSON, doc: d}
	}
	return out, err
}

// IsCRD reports whether the document is a CustomResourceDefinition of
// apiextensions.k8s.io/v1 or v1beta1.
func (d *Document) IsCRD() bool {
	return d.Object != nil && model.IsCRD(d.Object)
}

// CRD decodes the document as a CustomResourceDefinition. It fails with a
// *NotCRDError when the document is not one, and with a *schema.InputError
// when it cannot be decoded. The CRD is not checked: see CRD.Errors.
func (d *Document) CRD() (*CRD, error) {
	if !d.IsCRD() {
		e := &NotCRDError{Position: d.Position}
		e.APIVersion, _ = d.Object["apiVersion"].(string)
		e.Kind, _ = d.Object["kind"].(string)
		return nil, e
	}
	crd, err := model.DecodeCRDDocument(d.doc)
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
	if err := model.DecodeProps(d.doc.JSON, p); err != nil {
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
	docs, err := ReadDocuments(name, data)
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

// KeepFloats marks, in place, the whole-number float64 values of an object
// read by ReadDocuments so that the calls of this package keep them floats,
// as the apiserver does: such a value was written with a fraction or an
// exponent ("3.0", "1e3"), since ReadDocuments reads integers as int64. Each
// becomes the json.Number of its text with a fraction. Without it, Apply
// and the other calls take a whole float64 for an integer, as they must for
// values from encoding/json, which makes every number a float64. The
// command applies it to every object it reads; maps and slices are walked,
// never copied.
func KeepFloats(obj map[string]any) { jsonvalue.KeepFloats(obj) }

// SortErrors sorts errs in place in the one order this package reports
// field errors in: by field path, then type, then detail (stable).
func SortErrors(errs field.ErrorList) { errorsort.Sort(errs) }
