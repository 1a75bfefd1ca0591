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
// chunk keeps its bytes; its value comes from internal/jsonfast. A YAML
// chunk's value comes from internal/yamlfast, and its JSON is left to be
// encoded when asked for (json nil).
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
	return fastDoc{value: v}, true
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
