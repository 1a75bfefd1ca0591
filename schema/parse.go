package schema

import (
	"errors"
	"fmt"
)

// Parse reads one OpenAPI v3 schema from data, YAML 1.1 or JSON, the way
// kubectl reads a document (see ReadDocuments), and decodes it as Decode
// does. data must hold exactly one mapping document. An input that cannot
// be read or decoded is an *InputError or InputErrors naming the file
// "schema" and the line; the schema is not checked (see package
// structural for the rules).
func Parse(data []byte) (*Props, error) {
	docs, err := ReadDocuments("schema", data)
	if err != nil {
		return nil, err
	}
	if len(docs) != 1 || docs[0].Object == nil {
		return nil, errors.New("a schema is exactly one mapping document")
	}
	return docs[0].Props()
}

// Props decodes the document as an OpenAPI v3 schema, as Decode does. It
// fails with an *InputError naming the document's file and line when the
// document is not a mapping or cannot be decoded as a schema.
func (d *Document) Props() (*Props, error) {
	if d.Object == nil {
		return nil, d.inputError(fmt.Errorf("document %d is not a mapping", d.Index))
	}
	p, err := Decode(d.JSON())
	if err != nil {
		return nil, d.inputError(fmt.Errorf("document %d: cannot decode schema: %w", d.Index, err))
	}
	return p, nil
}

func (d *Document) inputError(err error) error {
	return &InputError{File: d.File, Line: d.Line, Err: err}
}
