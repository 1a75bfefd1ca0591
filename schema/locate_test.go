package schema

import (
	"fmt"
	"strings"
	"testing"
)

// TestLocator: fields found at their keys (a missing one at its nearest
// ancestor present), in YAML and JSON, in the items of a List, in a later
// document of a stream; the document's line when the text cannot be read.
func TestLocator(t *testing.T) {
	const stream = `# a comment
a: 1
---
kind: ThingList
items:
- name: first
- name: second
  spec:
    list: [{x: 1}, {y: 2}]
    labels: {app.kubernetes.io/name: web, "a]b": 1}
---
{"spec": {"n": 1,
  "m": {"k": [true]}}}
---
{"spec": {"n": 1, "n": 2}}
`
	docs, err := ReadDocuments("s.yaml", []byte(stream))
	if err != nil || len(docs) != 5 {
		t.Fatalf("%d documents, %v", len(docs), err)
	}
	for _, c := range []struct {
		doc   int
		path  string
		where string
	}{
		{0, "", "2:1"},
		{0, "<nil>", "2:1"},
		{0, "a", "2:1"},
		{0, "b", "2:1"}, // missing: the root, at its first key
		{1, "name", "6:3"},
		{1, "spec", "6:3"}, // the first item has none
		{2, "name", "7:3"},
		{2, "spec.list[1].y", "9:21"},
		{2, "spec.list[2].y", "9:5"}, // no such item: the list
		{2, "spec.list[x]", "9:5"},   // a key of a list: the list
		{2, "spec.labels[app.kubernetes.io/name]", "10:14"},
		{2, "spec.labels[a]b]", "10:43"},
		{2, "spec.labels.missing", "10:5"},
		{3, "spec.m.k[0]", "13:15"},
		{3, ".spec.n", "12:11"},
		{4, "spec.n", "15:11"}, // a key written twice: the first
	} {
		line, col := docs[c.doc].Locator()(c.path)
		if got := fmt.Sprintf("%d:%d", line, col); got != c.where {
			t.Errorf("document %d, %q at %s, want %s", c.doc, c.path, got, c.where)
		}
	}

	// A document the reader could not read has no fields to find: its
	// line (that of its error).
	bad := 0
	for d, err := range Documents("s.yaml", strings.NewReader("a: 1\n---\nb: 1\nc: [\n")) {
		if err != nil {
			bad++
			if line, col := d.Locator()("c"); line != d.Line || col != 0 || line == 0 {
				t.Errorf("unreadable document at line %d: %d:%d", d.Line, line, col)
			}
		}
	}
	if bad != 1 {
		t.Errorf("%d unreadable documents, want 1", bad)
	}

	// Text that cannot be read with positions: the document's line.
	d := Document{Position: Position{Line: 7}, Text: []byte("a: [")}
	if line, col := d.Locator()("a"); line != 7 || col != 0 {
		t.Errorf("unparseable text: %d:%d, want 7:0", line, col)
	}
	if line, col := (&Document{Position: Position{Line: 3}}).Locator()("a"); line != 3 || col != 0 {
		t.Errorf("no text: %d:%d, want 3:0", line, col)
	}
}
