package crdschema

import (
	"encoding/json"
	"sync"
	"testing"
)

// TestDocumentJSON: the JSON of a YAML document and of a List's item is
// encoded when asked for, from the document as read (an item's whole
// floats as encoding/json writes them, not as the marks Object holds),
// once for the document and all its copies, also when the copies ask from
// several goroutines; a JSON document's is its input's bytes.
func TestDocumentJSON(t *testing.T) {
	docs, err := ReadDocuments("f.yaml", []byte("kind: X\nspec:\n  ratio: 0.5\n  count: 3.0\n"))
	if err != nil || len(docs) != 1 {
		t.Fatalf("%d documents, %v", len(docs), err)
	}
	items, err := ReadDocuments("l.json", []byte(`{"kind": "List", "items": [{"kind": "Y", "spec": {"replicas": 3.0}, "b": [1, "x"]}]}`))
	if err != nil || len(items) != 1 {
		t.Fatalf("%d items, %v", len(items), err)
	}
	if n, ok := items[0].Object["spec"].(map[string]any)["replicas"].(json.Number); !ok || n != "3.0" {
		t.Fatalf("replicas = %#v, want the mark json.Number(\"3.0\")", items[0].Object["spec"])
	}
	docs = append(docs, items...)
	for i, want := range []string{`{"kind":"X","spec":{"count":3,"ratio":0.5}}`, `{"b":[1,"x"],"kind":"Y","spec":{"replicas":3}}`} {
		copies := make([]Document, 4)
		for j := range copies {
			copies[j] = docs[i]
		}
		got := make([][]byte, len(copies))
		var wg sync.WaitGroup
		for j := range copies {
			wg.Go(func() { got[j] = copies[j].JSON() })
		}
		wg.Wait()
		for j := range got {
			if string(got[j]) != want {
				t.Errorf("document %d, copy %d: JSON %s, want %s", i, j, got[j], want)
			}
			if &got[j][0] != &got[0][0] {
				t.Errorf("document %d: copy %d has an encoding of its own", i, j)
			}
		}
		if again := docs[i].JSON(); &again[0] != &got[0][0] {
			t.Errorf("document %d encoded again", i)
		}
	}
	in := []byte(`{"kind": "Z", "n": 3.0}`)
	docs, err = ReadDocuments("f.json", in)
	if err != nil || len(docs) != 1 {
		t.Fatalf("%d documents, %v", len(docs), err)
	}
	if got := docs[0].JSON(); string(got) != string(in) {
		t.Errorf("JSON document: JSON %s, want the input's bytes", got)
	}
	var zero Document
	if zero.JSON() != nil {
		t.Error("a Document built by hand has JSON")
	}
}

// TestDocumentJSONAsRead: the JSON of a YAML document is the document as
// read whatever the caller did to Object before the first call (here
// pruned and defaulted in place), and holds no marks of whole floats.
func TestDocumentJSONAsRead(t *testing.T) {
	docs, err := ReadDocuments("f.yaml", []byte("kind: X\nspec:\n  count: 3.0\n  extra: 1\n"))
	if err != nil || len(docs) != 1 {
		t.Fatalf("%d documents, %v", len(docs), err)
	}
	spec := docs[0].Object["spec"].(map[string]any)
	delete(spec, "extra")
	spec["replicas"] = int64(1)
	if got, want := string(docs[0].JSON()), `{"kind":"X","spec":{"count":3,"extra":1}}`; got != want {
		t.Errorf("JSON after changing Object: %s, want %s", got, want)
	}
}
