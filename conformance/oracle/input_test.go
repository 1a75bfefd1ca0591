package oracle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadDocuments(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.yaml", `# comment only
---
---
a: yes
y: 1.0
x: 0x1F
o: 010
--- # trailing comment
kind: FooList
items:
- {b: 1}
- {b: 2}
---
kind: List
items: []
---
c: [
---
- 1
---
d: 1
`)
	write("b.json", `{"e": 1.5}
{"f": "\/"}
`)
	write("c.txt", "ignored: true\n")

	docs, docErrs, err := ReadDocuments(dir, []string{"."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		File  string
		Index int
		Line  int
		Obj   string
	}
	var gots []got
	for _, d := range docs {
		gots = append(gots, got{d.File, d.Index, d.Line, string(mustJSON(t, d.Object))})
	}
	want := []got{
		{"a.yaml", 0, 4, `{"a":true,"o":8,"true":1,"x":31}`},
		{"a.yaml", 1, 9, `{"b":1}`},
		{"a.yaml", 2, 9, `{"b":2}`},
		{"a.yaml", 5, 21, `{"d":1}`},
		{"b.json", 0, 1, `{"e":1.5}`},
		{"b.json", 1, 2, `{"f":"/"}`},
	}
	if !reflect.DeepEqual(gots, want) {
		t.Errorf("documents\n got %v\nwant %v", gots, want)
	}
	var msgs []string
	for _, e := range docErrs {
		msgs = append(msgs, e.Error())
	}
	if len(msgs) != 2 || !strings.HasPrefix(msgs[0], "a.yaml:17: document 3: ") || !strings.HasPrefix(msgs[1], "a.yaml:19: document 4: expected a mapping") {
		t.Errorf("errors: %q", msgs)
	}
}

func TestReadDocumentsBadSeparator(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.yaml"), []byte("a: 1\n--- b\nc: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, docErrs, err := ReadDocuments(dir, []string{"x.yaml"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(docErrs) != 1 || !strings.HasPrefix(docErrs[0].Error(), "x.yaml:2: ") {
		t.Errorf("errors: %v", docErrs)
	}
	if _, _, err := ReadDocuments(dir, []string{"missing.yaml"}, nil); err == nil {
		t.Error("no error for a missing file")
	}
}

func mustJSON(t *testing.T, v interface{}) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
