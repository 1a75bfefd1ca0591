package schema

import (
	"bytes"
	"encoding/json"

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
	js, err := json.Marshal(v)
	if err != nil {
		return fastDoc{}, false
	}
	return fastDoc{json: js, value: v}, true
}
