package schema

import (
	"bytes"

	"github.com/crdschema/crdschema/internal/jsonfast"
	"github.com/crdschema/crdschema/internal/yamlfast"
)

// fastDoc is a chunk decoded by a fast path.
type fastDoc struct {
	json  []byte
	value any
	skip  bool // an empty or null document
}

// fastChunk decodes a chunk without the exact path, or declines. A JSON
// chunk keeps its bytes; its value comes from internal/jsonfast.
func fastChunk(c chunk) (fastDoc, bool) {
	if c.json {
		t := bytes.TrimSpace(c.data)
		if len(t) == 0 || string(t) == "null" {
			return fastDoc{skip: true}, true
		}
		v, ok := jsonfast.Decode(c.data)
		if !ok {
			return fastDoc{}, false
		}
		return fastDoc{json: c.data, value: v}, true
	}
	v, ok := yamlfast.Decode(c.data)
	if !ok {
		return fastDoc{}, false
	}
	if v == nil {
		return fastDoc{skip: true}, true
	}
	// The JSON of a YAML document is usually less than half its size
	// (indentation, block scalars).
	js, ok := jsonfast.EncodeSized(v, len(c.data)/2)
	if !ok {
		return fastDoc{}, false
	}
	return fastDoc{json: js, value: v}, true
}

// fastJSONStream decodes a stream of JSON objects and arrays with
// internal/jsonfast, or declines (and decodes nothing). Each document
// keeps a copy of its bytes.
func (r *docReader) fastJSONStream(data []byte) bool {
	values, starts, ends, ok := jsonfast.DecodeStream(data)
	if !ok {
		return false
	}
	line, counted := 1, 0
	for i, v := range values {
		line += bytes.Count(data[counted:starts[i]], []byte("\n"))
		counted = starts[i]
		js := bytes.Clone(data[starts[i]:ends[i]])
		r.add(chunk{data: js, line: line, json: true}, js, v, true, nil)
	}
	return true
}
