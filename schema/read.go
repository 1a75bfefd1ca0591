package schema

import (
	"bytes"
	"fmt"
	"io"
	"iter"
	"regexp"
	"strconv"
	"strings"
	"sync"

	kjson "k8s.io/apimachinery/pkg/util/json"
	sjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/internal/jsonfast"
	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// Document is one document of an input, after List expansion, as
// ReadDocuments and Documents read it.
type Document struct {
	// Position is where the document starts: file, index and line.
	Position
	// Object is the decoded document (integers as int64, every other
	// number as float64, as the apiserver's JSON decoder reads them). It
	// is nil when the document is not a mapping.
	Object map[string]any
	// Value is the decoded document, whatever its type.
	Value any
	// Duplicates are the fields a JSON document holds twice (the last
	// value is kept), as the apiserver's strict decoder names them: keys
	// joined by ".", list indices as "[i]". The apiserver warns about
	// them under fieldValidation=Warn and rejects the request under
	// Strict. A YAML document never has any (kubectl sends JSON it
	// encodes), nor does an item of a List.
	Duplicates []string
	// Text is the text of the input the document was read from, starting
	// at Line: its YAML document, or its JSON value; the items of a List
	// share the List's. It is for finding a field's line and column.
	Text []byte

	// js is the document's JSON when it is at hand (see JSON); lazy,
	// when set, encodes it on the first call instead. A pointer, so
	// that every copy of the Document shares one encoding.
	js   []byte
	lazy *lazyJSON
	// plain is true when Value is exactly what internal/jsonfast.Decode
	// returns for JSON (which then holds no duplicate keys): JSON was
	// decoded by jsonfast, or encoded from a Value read by yamlfast.
	plain bool
	// item says where the document is in Text (see Locator): 0 for
	// Text's whole value, i+1 for the i-th item of the List Text holds,
	// -1 for a document that could not be read (no fields to find). An
	// int32 beside plain keeps the Document's size.
	item int32
}

// JSON returns the document as JSON, as kubectl would send it: the input's
// own bytes for a document of a JSON stream; for a YAML document (and an
// item of a List), the document as read, encoded as encoding/json does.
// The encoding is made on the first call of JSON on the document or any
// copy of it, from a new reading of the document's text, and kept for the
// later calls (a reader that never asks pays nothing): what a caller did
// to Object or Value before never shows in it. The result is shared:
// treat it as read-only. It is nil for a document that could not be read,
// for one built by hand, and for a List item no longer in its text (the
// data read changed, which ReadDocuments' contract forbids).
func (d *Document) JSON() []byte {
	if d.lazy != nil {
		return d.lazy.bytes()
	}
	return d.js
}

// lazyJSON is the JSON of a document read from text, encoded when first
// asked for from the text read again (the document's value belongs to the
// caller, who may have changed it). once makes a Document and its copies
// safe to use from several goroutines.
type lazyJSON struct {
	once sync.Once
	// text is the chunk the document was read from; json says it is a
	// JSON value (else YAML), fast that the fast readers read it.
	text       []byte
	json, fast bool
	// item is 0 for the chunk's whole value, i+1 for the i-th item of
	// the List it holds; list, for an item, is the List's reading,
	// shared by its items so that the text is read again once.
	item int
	list *lazyJSON
	size int // the expected size of the encoding
	v    any // the List's new reading (list's own)
	b    []byte
}

func (j *lazyJSON) bytes() []byte {
	j.once.Do(j.encode)
	return j.b
}

// encode encodes the document read again from its text. The values this
// package defers are those internal/yamlfast reads (plain types, no
// infinities or NaN, nesting within jsonfast's bound: the fast reader used
// to decline where jsonfast could not encode, and TestFastReadAgrees and
// FuzzFastRead compare every encoding with the exact reader's JSON) and
// the items of a List, which jsonfast encodes unless nested beyond its
// bound; encoding/json, which writes the same bytes and cannot fail on a
// decoded value, is the fallback.
func (j *lazyJSON) encode() {
	var v any
	if j.list == nil {
		v = reread(j.text, j.json, j.fast)
	} else {
		items := j.list.items()
		if j.item > len(items) {
			return // the text changed under the document: no JSON
		}
		v = items[j.item-1]
	}
	b, ok := jsonfast.EncodeSized(v, j.size)
	if !ok {
		b, _ = kjson.Marshal(v)
	}
	j.b = b
}

// items is the List's items, read again from its text once for all of
// them.
func (j *lazyJSON) items() []any {
	j.once.Do(func() {
		j.v = reread(j.text, j.json, j.fast)
		j.text = nil
	})
	list, _ := j.v.(map[string]any)
	items, _ := list["items"].([]any)
	return items
}

// reread decodes text again as it was read the first time: the same
// reader (fast or exact) gives the same value, which nothing but this
// package has seen.
func reread(text []byte, json, fast bool) any {
	if fast {
		if d, ok := fastChunk(chunk{data: text, json: json}); ok {
			return d.value
		}
	}
	js := text
	if !json {
		js, _ = yaml.YAMLToJSON(text)
	}
	v, _, _ := decodeExact(js, json)
	return v
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
//
// ReadDocuments is Documents over an input already in memory: the same
// documents and errors, collected. The documents' Text is part of data,
// and a YAML document's JSON is read from it when first asked for: data
// must not change while the documents are in use.
func ReadDocuments(name string, data []byte) ([]Document, error) {
	return readDocuments(name, data, true)
}

// Documents reads the stream r, the contents of the file name, one
// document at a time, exactly as ReadDocuments reads the whole input:
// memory holds one YAML document at a time (a JSON stream, one that
// starts with '{', is read whole, as a JSON stream is one value in
// practice: a List). It yields, in stream order, each document that
// could be read with a nil error, and each document that cannot be read
// with its *InputError (the document's Position beside it, its Object
// nil); reading goes on after it. A failure of the stream itself (r
// fails, or a JSON stream is broken after its first value) is an
// *InputError yielded with a zero Document (Line 0), and the last.
//
// With kinds, only the documents of those kinds (the items of Lists
// included) are yielded, and a YAML document whose text cannot spell any
// of them is not even decoded: its error, if it has one, is not yielded.
// Documents keep the numbers and lines they have in the whole stream.
// This is how the CustomResourceDefinitions among many objects are found
// at little more than the cost of reading the text.
//
//	for d, err := range schema.Documents("dump.yaml", f) {
//		if err != nil {
//			log.Print(err) // one bad document does not hide the others
//			continue
//		}
//		...
//	}
func Documents(name string, r io.Reader, kinds ...string) iter.Seq2[Document, error] {
	return func(yield func(Document, error) bool) {
		rd := &docReader{name: name, fast: true, kinds: kinds}
		rd.stream(r, func(d Document, err *InputError) bool {
			if err != nil {
				return yield(d, err)
			}
			return yield(d, nil)
		})
	}
}

// readDocumentsExact is ReadDocuments without the fast paths: every YAML
// document goes through sigs.k8s.io/yaml and every document is decoded with
// apimachinery's JSON decoder.
func readDocumentsExact(name string, data []byte) ([]Document, error) {
	return readDocuments(name, data, false)
}

// readDocuments collects the documents of data and their errors.
func readDocuments(name string, data []byte, fast bool) ([]Document, error) {
	rd := &docReader{name: name, fast: fast, collect: true}
	if err := rd.whole(data); err != nil {
		return nil, err
	}
	if len(rd.errs) > 0 {
		return rd.docs, rd.errs
	}
	return rd.docs, nil
}

// docReader decodes the chunks of one input into its documents, numbering
// them.
type docReader struct {
	name string
	fast bool
	// kinds, when set, are the only kinds handed out (see Documents).
	kinds []string
	// index is the number of the next document.
	index int
	// collect is set to gather every document in docs and every error in
	// errs; otherwise out holds the documents and errors of the chunk
	// being decoded, in order.
	collect bool
	docs    []Document
	errs    InputErrors
	out     []item
}

// item is a document, or the error of a document that cannot be read.
type item struct {
	doc Document
	err *InputError
}

// emit records a document, or the error of one.
func (r *docReader) emit(d Document, err *InputError) {
	switch {
	case !r.collect:
		r.out = append(r.out, item{d, err})
	case err != nil:
		r.errs = append(r.errs, err)
	case r.wanted(d.Object):
		r.docs = append(r.docs, d)
	}
}

// chunk decodes one chunk, unless it can be passed over (see passOver).
func (r *docReader) chunk(c chunk) {
	if len(r.kinds) > 0 && r.passOver(c) {
		return
	}
	if c.borrowed {
		c.data, c.borrowed = bytes.Clone(c.data), false
	}
	r.decode(c)
}

// visitOut hands the documents and errors in r.out to visit (the
// documents of r.kinds only), and reports whether visit wants more.
func (r *docReader) visitOut(visit func(Document, *InputError) bool) bool {
	for _, it := range r.out {
		if it.err == nil && !r.wanted(it.doc.Object) {
			continue
		}
		if !visit(it.doc, it.err) {
			return false
		}
	}
	return true
}

// decode decodes one chunk, emitting its documents and errors.
func (r *docReader) decode(c chunk) {
	if r.fast {
		if d, ok := fastChunk(c); ok {
			if !d.skip {
				r.add(c, d.json, d.value, true, nil)
			}
			return
		}
	}
	js := c.data
	if !c.json {
		var err error
		js, err = yaml.YAMLToJSON(c.data)
		if err != nil {
			r.fail(c, yamlErrorLine(err, c.line), err)
			return
		}
		if err := keyCollision(c.data); err != nil {
			r.fail(c, c.line, err)
			return
		}
	}
	t := bytes.TrimSpace(js)
	if len(t) == 0 || string(t) == "null" {
		return
	}
	v, dups, err := decodeExact(js, c.json)
	if err != nil {
		r.fail(c, c.line, err)
		return
	}
	r.add(c, js, v, false, dups)
}

// decodeExact decodes JSON with apimachinery's decoder. JSON text (isJSON)
// is decoded strictly in the same pass, which names the keys it holds
// twice without changing the value; the JSON of a YAML document has none.
func decodeExact(js []byte, isJSON bool) (any, []string, error) {
	var v any
	if !isJSON {
		err := kjson.Unmarshal(js, &v)
		return v, nil, err
	}
	// Every strict check (no options, which would allocate): unknown
	// fields exist only for typed targets.
	strictErrs, err := sjson.UnmarshalStrict(js, &v)
	if err != nil {
		return nil, nil, err
	}
	var dups []string
	for _, se := range strictErrs {
		fp, ok := se.(interface{ FieldPath() string })
		if ok && strings.HasPrefix(se.Error(), "duplicate field ") {
			dups = append(dups, fp.FieldPath())
		}
	}
	return v, dups, nil
}

// fail records the error of the next document of chunk c.
func (r *docReader) fail(c chunk, line int, err error) {
	d := Document{Position: Position{File: r.name, Index: r.index, Line: line}, Text: c.data, item: -1}
	r.emit(d, documentError(r.name, line, r.index, err))
	r.index++
}

func yamlErrorLine(err error, start int) int {
	m := yamlLineRE.FindStringSubmatch(err.Error())
	if m == nil {
		return start
	}
	n, _ := strconv.Atoi(m[1])
	return start + n - 1
}

// add adds the document (js, v) of chunk c, or the items of a List
// document. js nil means v was read by internal/yamlfast: the JSON is
// encoded when asked for, from c's text read again (lazyJSON), as the
// items' JSON is. plain says whether v is exactly jsonfast's decoding of
// js; the items of a List never count as plain, nor have duplicates. A
// document or item that is not a mapping is an error.
func (r *docReader) add(c chunk, js []byte, v any, plain bool, dups []string) {
	line := c.line
	obj, ok := v.(map[string]any)
	if !ok {
		r.fail(c, line, fmt.Errorf("expected a mapping, got %s", jsonvalue.ReaderWords.Of(v)))
		return
	}
	if kind, _ := obj["kind"].(string); strings.HasSuffix(kind, "List") {
		if items, ok := obj["items"].([]any); ok {
			var list *lazyJSON // the List's reading, for its items' JSON
			for i, it := range items {
				m, ok := it.(map[string]any)
				if !ok {
					r.fail(c, line, fmt.Errorf("items[%d]: expected a mapping, got %s", i, jsonvalue.ReaderWords.Of(it)))
					continue
				}
				if list == nil {
					list = &lazyJSON{text: c.data, json: c.json, fast: r.fast}
				}
				r.emit(Document{Position: Position{File: r.name, Index: r.index, Line: line}, lazy: &lazyJSON{item: i + 1, list: list}, Object: m, Value: m, Text: c.data, item: int32(i) + 1}, nil)
				r.index++
			}
			return
		}
	}
	d := Document{Position: Position{File: r.name, Index: r.index, Line: line}, js: js, Object: obj, Value: v, Duplicates: dups, Text: c.data, plain: plain}
	if js == nil {
		// The JSON of a YAML document is usually less than half its
		// size (indentation, block scalars).
		d.lazy = &lazyJSON{text: c.data, json: c.json, fast: r.fast, size: len(c.data) / 2}
	}
	r.emit(d, nil)
	r.index++
}
