package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/conformance/gen"
)

// TestCRDUpdateBatchRatchetsDefaults checks that generated check --old
// batches add a default with an unknown field (properties[unpruned]) to
// revisions of stored CRDs, some of which the apiserver lets keep unpruned
// defaults (no error at that default) and some not, so that a difftest
// run compares which stored CRDs count as already having unpruned
// defaults.
func TestCRDUpdateBatchRatchetsDefaults(t *testing.T) {
	rejected, ratcheted, total := 0, 0, 0
	for seed := int64(1); seed <= 10; seed++ {
		b := gen.New(seed).Batch("crd-update", 30)
		added := withUnprunedDefault(t, b)
		for _, l := range oracleLines(t, b) {
			var line updateLine
			if json.Unmarshal([]byte(l), &line) != nil || line.Operation != "UPDATE" {
				continue
			}
			total++
			switch {
			case !added[fmt.Sprintf("%s#%d", line.File, line.Document)]:
			case line.rejectsUnprunedDefault():
				rejected++
			default:
				ratcheted++
			}
		}
	}
	t.Logf("%d updates: an unpruned default added and rejected in %d, ratcheted in %d", total, rejected, ratcheted)
	if rejected*50 < total || ratcheted*50 < total {
		t.Errorf("%d updates: an unpruned default added and rejected in only %d, ratcheted in %d", total, rejected, ratcheted)
	}
}

// updateLine is what TestCRDUpdateBatchRatchetsDefaults reads of a check
// line.
type updateLine struct {
	File      string `json:"file"`
	Document  int    `json:"document"`
	Operation string `json:"operation"`
	Errors    []struct {
		Field, Detail string
	} `json:"errors"`
}

// rejectsUnprunedDefault reports an error at the added default.
func (l updateLine) rejectsUnprunedDefault() bool {
	for _, e := range l.Errors {
		if strings.HasSuffix(e.Field, "properties[unpruned].default") && e.Detail == "must not have unknown fields" {
			return true
		}
	}
	return false
}

// withUnprunedDefault lists the documents of b's cases (FILE#INDEX) that
// have the property unpruned.
func withUnprunedDefault(t *testing.T, b *gen.Batch) map[string]bool {
	t.Helper()
	added := map[string]bool{}
	for _, c := range b.Cases {
		for i, d := range c.Docs {
			data, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			added[fmt.Sprintf("%s#%d", c.FileName(), i)] = bytes.Contains(data, []byte(`"unpruned":{`))
		}
	}
	return added
}
