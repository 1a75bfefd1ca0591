package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// Document is one document of an input, after List expansion, as
// ReadDocuments reads it.
type Document struct {
	// Position is where the document starts: file, index and line.
	Position
	// JSON is the document as JSON, as kubectl would send it.
	JSON []byte
	// Object is the decoded document (integers as int64). It is nil when the
	// document is not a mapping.
	Object map[string]any
	// Value is the decoded document, whatever its type.
	Value any

	// plain is true when Value is exactly what internal/jsonfast.Decode
	// returns for JSON (which then holds no duplicate keys): JSON was
	// decoded by jsonfast, or encoded from a Value read by yamlfast.
	plain bool
}

// Plain reports whether Value is exactly the decoding of JSON (which then
// holds no duplicate keys), so that a decoder may convert Value instead of
// decoding JSON again. It is false for the items of a List (encoded
// again), for documents only the exact decoders could read and for
// documents built by hand; decoders then decode JSON.
func (d *Document) Plain() bool { return d.plain }

// documentError is the error of document index of a file.
func documentError(name string, line, index int, err error) *InputError {
	return &InputError{File: name, Line: line, Err: fmt.Errorf("document %d: %w", index, err)}
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

// ReadDocuments splits data into its documents and decodes each as kubectl
// and the apiserver would: a stream that starts with '{' is a stream of JSON
// values, decoded directly (as apimachinery's YAML-or-JSON decoder does);
// anything else is a YAML stream split at "---" lines and read as YAML 1.1
// (sigs.k8s.io/yaml). List documents are expanded.
//
// A document that cannot be decoded, or that is not a mapping (nor a List
// item that is one), is not returned: it keeps its number, and its error
// (naming the file, the line where known and the document: "f.yaml:7:
// document 1: expected a mapping, got an array") is returned in an
// InputErrors beside every document that could be read. A stream that
// cannot be split into documents (a JSON stream broken after its first
// value) is one *InputError and no documents. Every returned Document has
// an Object.
func ReadDocuments(name string, data []byte) ([]Document, error) {
	return readDocuments(name, data, true)
}

// readDocumentsExact is ReadDocuments without the fast paths: every YAML
// document goes through sigs.k8s.io/yaml and every document is decoded with
// apimachinery's JSON decoder.
func readDocumentsExact(name string, data []byte) ([]Document, error) {
	return readDocuments(name, data, false)
}

// docReader collects the documents of one file and their errors.
type docReader struct {
	name string
	docs []Document
	errs InputErrors
	// index is the number of the next document.
	index int
}

func (r *docReader) result() ([]Document, error) {
	if len(r.errs) > 0 {
		return r.docs, r.errs
	}
	return r.docs, nil
}

func (r *docReader) fail(line int, err error) {
	r.errs = append(r.errs, documentError(r.name, line, r.index, err))
	r.index++
}

func readDocuments(name string, data []byte, fast bool) ([]Document, error) {
	r := &docReader{name: name}
	chunks := []chunk(nil)
	trimmed := bytes.TrimLeftFunc(data, unicode.IsSpace)
	if bytes.HasPrefix(trimmed, []byte("{")) {
		if fast && fastJSONStream(r, data) {
			return r.result()
		}
		js, rest, restLine, err := splitJSON(data)
		switch {
		case err == nil:
		case len(js) > 1:
			return nil, &InputError{File: name, Line: restLine, Err: err}
		default:
			// Ambiguous (e.g. a YAML flow mapping): the rest is read as YAML.
			for _, c := range splitStream(rest) {
				c.line += restLine - 1
				chunks = append(chunks, c)
			}
		}
		chunks = append(js, chunks...)
	} else {
		chunks = splitStream(data)
	}
	for _, c := range chunks {
		js := c.data
		if fast {
			if d, ok := fastChunk(c); ok {
				if !d.skip {
					r.add(c.line, d.json, d.value, true)
				}
				continue
			}
		}
		if !c.json {
			var err error
			js, err = yaml.YAMLToJSON(c.data)
			if err != nil {
				r.fail(yamlErrorLine(err, c.line), err)
				continue
			}
			if err := keyCollision(c.data); err != nil {
				r.fail(c.line, err)
				continue
			}
		}
		t := bytes.TrimSpace(js)
		if len(t) == 0 || string(t) == "null" {
			continue
		}
		var v any
		if err := kjson.Unmarshal(js, &v); err != nil {
			r.fail(c.line, err)
			continue
		}
		r.add(c.line, js, v, false)
	}
	return r.result()
}

// splitJSON reads a stream of JSON values. On error it returns the values
// read so far, the unread rest of the input and the rest's first line.
func splitJSON(data []byte) ([]chunk, []byte, int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []chunk
	var consumed int64
	// Lines are counted incrementally: counting from the start for every
	// value would make long streams quadratic.
	line, counted := 1, int64(0)
	lineAt := func(off int64) int {
		line += bytes.Count(data[counted:off], []byte("\n"))
		counted = off
		return line
	}
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return out, nil, 0, nil
		}
		if err != nil {
			rest := data[consumed:]
			// Skip blanks up to and including the first newline.
			i := 0
			for i < len(rest) && unicode.IsSpace(rune(rest[i])) {
				i++
				if rest[i-1] == '\n' {
					break
				}
			}
			return out, rest[i:], lineAt(consumed + int64(i)), err
		}
		off := dec.InputOffset()
		start := off - int64(len(raw))
		out = append(out, chunk{data: raw, line: lineAt(start), json: true})
		consumed = off
	}
}

type chunk struct {
	data []byte
	line int  // 1-based line of the chunk's first line
	json bool // a JSON value, not YAML
}

// splitStream splits a YAML stream at lines that start with "---" followed
// by nothing but blanks or a comment, as kubectl's YAML reader does.
func splitStream(data []byte) []chunk {
	var out []chunk
	start, startLine, line := 0, 1, 1
	for pos := 0; pos < len(data); line++ {
		end := bytes.IndexByte(data[pos:], '\n')
		next := len(data)
		if end >= 0 {
			next = pos + end + 1
		}
		l := data[pos:next]
		if bytes.HasPrefix(l, []byte("---")) {
			rest := bytes.TrimSpace(l[3:])
			if len(rest) == 0 || rest[0] == '#' {
				if pos > start {
					out = append(out, chunk{data: data[start:pos], line: startLine})
				}
				start, startLine = next, line+1
			}
		}
		pos = next
	}
	if start < len(data) {
		out = append(out, chunk{data: data[start:], line: startLine})
	}
	return out
}

func yamlErrorLine(err error, start int) int {
	m := yamlLineRE.FindStringSubmatch(err.Error())
	if m == nil {
		return start
	}
	n, _ := strconv.Atoi(m[1])
	return start + n - 1
}

// add adds the document (js, v) starting at line, or the items of a List
// document. plain says whether v is exactly jsonfast's decoding of js; the
// items of a List are re-encoded and never count as plain. A document or
// item that is not a mapping is an error.
func (r *docReader) add(line int, js []byte, v any, plain bool) {
	obj, ok := v.(map[string]any)
	if !ok {
		r.fail(line, fmt.Errorf("expected a mapping, got %s", jsonvalue.ReaderWords.Of(v)))
		return
	}
	if kind, _ := obj["kind"].(string); strings.HasSuffix(kind, "List") {
		if items, ok := obj["items"].([]any); ok {
			for i, it := range items {
				m, ok := it.(map[string]any)
				if !ok {
					r.fail(line, fmt.Errorf("items[%d]: expected a mapping, got %s", i, jsonvalue.ReaderWords.Of(it)))
					continue
				}
				b, err := kjson.Marshal(m)
				if err != nil {
					r.fail(line, fmt.Errorf("items[%d]: %w", i, err))
					continue
				}
				r.docs = append(r.docs, Document{Position: Position{File: r.name, Index: r.index, Line: line}, JSON: b, Object: m, Value: m})
				r.index++
			}
			return
		}
	}
	r.docs = append(r.docs, Document{Position: Position{File: r.name, Index: r.index, Line: line}, JSON: js, Object: obj, Value: v, plain: plain})
	r.index++
}
