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
// defaults. Each stored default whose prunedness depends on the object
// around it (ambiguousShapes) must come with the apiserver's verdict that
// judging the default on its own node gets wrong (that approximation was
// crdschema's): over these 300 cases at least 3 times each. Measured at
// a CI run's size (2,000 cases over 9 verbs: 222 crd-update cases), ten
// generators (seeds 1001-1010) met each shape so 1-9 times, 11-22 such
// updates in all.
func TestCRDUpdateBatchRatchetsDefaults(t *testing.T) {
	c := ratchetCount{telling: map[string]int{}}
	for seed := int64(1); seed <= 10; seed++ {
		b := gen.New(seed).Batch("crd-update", 30)
		docs := revisionDocs(t, b)
		for _, l := range oracleLines(t, b) {
			c.add(l, docs)
		}
	}
	t.Logf("%d updates: an unpruned default added and rejected in %d, ratcheted in %d; with an ambiguous stored default and the verdict that tells: %v", c.total, c.rejected, c.ratcheted, c.telling)
	if c.rejected*50 < c.total || c.ratcheted*50 < c.total {
		t.Errorf("%d updates: an unpruned default added and rejected in only %d, ratcheted in %d", c.total, c.rejected, c.ratcheted)
	}
	for _, s := range ambiguousShapes {
		if c.telling[s.name] < 3 {
			t.Errorf("stored %s: %d updates with the telling verdict (rejected %v), want at least 3", s.name, c.telling[s.name], s.rejected)
		}
	}
}

// ratchetCount counts the oracle's check --old lines for
// TestCRDUpdateBatchRatchetsDefaults.
type ratchetCount struct {
	// total counts updates; rejected and ratcheted those adding an
	// unpruned default, by the oracle's verdict on it.
	total, rejected, ratcheted int
	// telling counts, by ambiguous shape, the updates whose verdict is
	// the one that judging the stored default on its own node gets wrong.
	telling map[string]int
}

// add counts the oracle's line l, whose document's JSON is in docs.
func (c *ratchetCount) add(l string, docs map[string][]byte) {
	var line updateLine
	if json.Unmarshal([]byte(l), &line) != nil || line.Operation != "UPDATE" {
		return
	}
	c.total++
	doc := docs[fmt.Sprintf("%s#%d", line.File, line.Document)]
	if !bytes.Contains(doc, []byte(`"unpruned":{`)) {
		return
	}
	rejects := line.rejectsUnprunedDefault()
	if rejects {
		c.rejected++
	} else {
		c.ratcheted++
	}
	for _, s := range ambiguousShapes {
		if s.in(doc) && s.rejected == rejects {
			c.telling[s.name]++
		}
	}
}

// ambiguousShape is a stored default the generator plants whose
// prunedness depends on the object around it, found by a fragment of the
// revision's JSON (maps marshal with sorted keys), and whether the
// apiserver rejects the added unpruned default beside it (the default
// counts as pruned) while judging it on its own node says the opposite.
type ambiguousShape struct {
	name     string
	fragment string
	rejected bool
}

// in reports whether doc, a revision's JSON, holds the shape.
func (s ambiguousShape) in(doc []byte) bool {
	if !bytes.Contains(doc, []byte(s.fragment)) {
		return false
	}
	// The root metadata's fragment is also the embedded metadata's.
	return s.name != "root metadata {name: x}" || !ambiguousShapes[1].in(doc)
}

// ambiguousShapes are the shapes of the generator's ambiguousDefault.
var ambiguousShapes = []ambiguousShape{
	{"root metadata {name: x}", `"metadata":{"default":{"name":"x"},"type":"object"}`, true},
	{"embedded metadata {name: x}", `"embedded":{"properties":{"metadata":{"default":{"name":"x"},"type":"object"}}`, true},
	{"embedded default with an unknown metadata field", `"unknownInMeta":"y"`, false},
	{"items default of a list preserving unknown fields", `"kept":{"items":`, true},
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

// revisionDocs returns the JSON of the documents of b's cases by
// FILE#INDEX.
func revisionDocs(t *testing.T, b *gen.Batch) map[string][]byte {
	t.Helper()
	docs := map[string][]byte{}
	for _, c := range b.Cases {
		for i, d := range c.Docs {
			data, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			docs[fmt.Sprintf("%s#%d", c.FileName(), i)] = data
		}
	}
	return docs
}
