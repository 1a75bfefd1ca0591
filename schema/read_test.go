package schema

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadDocumentsStream(t *testing.T) {
	in := strings.Join([]string{
		"---",
		"# only a comment",
		"---",
		"a: yes",
		"b: 0x1F",
		"c: 1.0",
		"d: 010",
		"y: on",
		"--- # a separator with a comment",
		"kind: ThingList",
		"items:",
		"- {x: 1}",
		"- {z: 2}",
		"---",
		"",
		"---",
		"{\"json\": true}",
	}, "\n")
	docs, err := ReadDocuments("f.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	type doc struct {
		Index, Line int
		Value       any
	}
	var got []doc
	for _, d := range docs {
		got = append(got, doc{d.Index, d.Line, d.Value})
	}
	want := []doc{
		{0, 4, map[string]any{"a": true, "b": int64(31), "c": int64(1), "d": int64(8), "true": true}},
		{1, 10, map[string]any{"x": int64(1)}},
		{2, 10, map[string]any{"z": int64(2)}},
		{3, 17, map[string]any{"json": true}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("documents (-want +got):\n%s", diff)
	}
}

func TestReadDocumentsYAML11Keys(t *testing.T) {
	docs, err := ReadDocuments("f.yaml", []byte("y: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := docs[0].Object["true"]; !ok {
		t.Errorf("key y: read as %v, want the YAML 1.1 boolean key \"true\"", docs[0].Object)
	}
}

func TestReadDocumentsErrorNamesFileAndLine(t *testing.T) {
	in := "a: 1\n---\nb: 2\nc: [\n"
	_, err := ReadDocuments("bad.yaml", []byte(in))
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v is not a InputError", err)
	}
	if ie.File != "bad.yaml" || ie.Line < 3 {
		t.Errorf("error at %s:%d, want bad.yaml at line 3 or later", ie.File, ie.Line)
	}
	if !strings.HasPrefix(err.Error(), "bad.yaml:") {
		t.Errorf("message %q does not start with the file name", err)
	}
}

// TestReadDocumentsNotAMapping: documents and List items that are not
// mappings are errors naming the file, the line and the document, as the
// apiserver code's reader (the conformance oracle) reports them, and the
// other documents are still read (../shared/findings/hostile/05*).
func TestReadDocumentsNotAMapping(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string // errors
		docs     []int    // indices of the documents read
	}{
		{"seq.yaml", "- 1\n- 2\n", []string{"seq.yaml:1: document 0: expected a mapping, got an array"}, nil},
		{"05.yaml", "kind: A\n---\n- 1\n---\nkind: C\n", []string{"05.yaml:3: document 1: expected a mapping, got an array"}, []int{0, 2}},
		{"scalar.yaml", "a: 1\n---\nhello\n---\n3\n---\ntrue\n", []string{
			"scalar.yaml:3: document 1: expected a mapping, got a string",
			"scalar.yaml:5: document 2: expected a mapping, got a number",
			"scalar.yaml:7: document 3: expected a mapping, got a boolean",
		}, []int{0}},
		{"05b.json", `{"kind":"A"} trailing`, []string{"05b.json:1: document 1: expected a mapping, got a string"}, []int{0}},
		{"arr.json", "{\"kind\":\"A\"}\n[1]\n", []string{"arr.json:2: document 1: expected a mapping, got an array"}, []int{0}},
		{"05c.yaml", "kind: List\napiVersion: v1\nitems:\n- kind: A\n- 42\n- null\n- kind: B\n", []string{
			"05c.yaml:1: document 1: items[1]: expected a mapping, got a number",
			"05c.yaml:1: document 2: items[2]: expected a mapping, got null",
		}, []int{0, 3}},
	} {
		for _, read := range []func(string, []byte) ([]Document, error){ReadDocuments, readDocumentsExact} {
			docs, err := read(tc.name, []byte(tc.in))
			var errs InputErrors
			if !errors.As(err, &errs) {
				t.Fatalf("%s: error %v is not InputErrors", tc.name, err)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("%s: errors\n%s\nwant\n%s", tc.name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			var idx []int
			for _, d := range docs {
				if d.Object == nil {
					t.Errorf("%s: document %d has no Object", tc.name, d.Index)
				}
				idx = append(idx, d.Index)
			}
			if fmt.Sprint(idx) != fmt.Sprint(tc.docs) {
				t.Errorf("%s: documents %v, want %v", tc.name, idx, tc.docs)
			}
		}
	}
}

// TestReadDocumentsBadDocumentKeepsTheOthers: an unparsable document is
// reported with its number and the rest of the file is still read
// (../shared/findings/hostile/04*), as the apiserver code's reader does.
func TestReadDocumentsBadDocumentKeepsTheOthers(t *testing.T) {
	in := "kind: A\nmetadata:\n  name: a\n---\nkind: A\nmetadata:\n  name: b\n  bad: [\n---\nkind: A\nmetadata:\n  name: c\n"
	docs, err := ReadDocuments("04.yaml", []byte(in))
	if err == nil || err.Error() != "04.yaml:8: document 1: yaml: line 4: did not find expected node content" {
		t.Errorf("error %v", err)
	}
	if len(docs) != 2 || docs[0].Index != 0 || docs[1].Index != 2 || docs[1].Line != 10 {
		t.Fatalf("documents %+v, want 0 and 2", docs)
	}
	// A directive the YAML 1.1 reader refuses: the directive's document
	// only.
	docs, err = ReadDocuments("04c.yaml", []byte("%YAML 1.2\n---\nkind: A\n"))
	if err == nil || err.Error() != "04c.yaml:1: document 0: yaml: found incompatible YAML document" || len(docs) != 1 || docs[0].Index != 1 {
		t.Errorf("got %+v, %v", docs, err)
	}
}

func FuzzReadDocuments(f *testing.F) {
	for _, s := range []string{"a: 1\n---\nb: [1, 2]\n", "kind: List\nitems: [1, {a: b}]\n", "{\"x\": null}", "--- |\n x", "&a [*a]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, _ := ReadDocuments("fuzz.yaml", data)
		for _, d := range docs {
			if d.Object == nil {
				t.Fatalf("document %d has no Object", d.Index)
			}
			if d.Line < 1 {
				t.Fatalf("document %d has line %d", d.Index, d.Line)
			}
			if _, err := d.Props(); err != nil {
				continue
			}
		}
	})
}

func TestReadDocumentsJSONStream(t *testing.T) {
	// A stream starting with '{' is JSON, decoded directly: 1.0 stays a
	// float, as the apiserver's JSON decoder keeps it.
	docs, err := ReadDocuments("f.json", []byte("{\"a\": 1.0}\n\n{\"b\": [1]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 || docs[0].Object["a"] != 1.0 || docs[1].Line != 3 {
		t.Fatalf("got %+v", docs)
	}
	if _, ok := docs[0].Object["a"].(float64); !ok {
		t.Errorf("a = %#v, want float64", docs[0].Object["a"])
	}
	// A flow mapping that is not JSON is read as YAML.
	docs, err = ReadDocuments("f.yaml", []byte("{a: yes}\n"))
	if err != nil || len(docs) != 1 || docs[0].Object["a"] != true {
		t.Fatalf("flow mapping: %+v, %v", docs, err)
	}
}

// TestReadDocumentsKeyCollisions: keys that differ in YAML 1.1 but become
// the same JSON key make sigs.k8s.io/yaml (and kubectl and the apiserver)
// answer differently from run to run (../shared/findings/hostile/01*);
// both readers refuse them, always with the same error naming both keys.
func TestReadDocumentsKeyCollisions(t *testing.T) {
	for in, want := range map[string]string{
		"9: a\n0000000000009: b\n": `f.yaml:1: document 0: keys 9 (an integer) and 9.0 (a float) of the top-level mapping both become the JSON key "9"`,
		"1: a\n\"1\": b\n":         `f.yaml:1: document 0: keys "1" (a string) and 1 (an integer) of the top-level mapping both become the JSON key "1"`,
		"a: 1\n---\nspec:\n  l:\n  - true: 1\n    \"true\": 2\n": `f.yaml:3: document 1: keys "true" (a string) and true (a boolean) of the mapping at spec.l[0] both become the JSON key "true"`,
		"b: {1e3: x, 1000: y}\n":                                 `f.yaml:1: document 0: keys 1000 (an integer) and 1000.0 (a float) of the mapping at b both become the JSON key "1000"`,
	} {
		for i := 0; i < 20; i++ {
			for _, read := range []func(string, []byte) ([]Document, error){ReadDocuments, readDocumentsExact} {
				_, err := read("f.yaml", []byte(in))
				if err == nil || !strings.HasPrefix(err.Error(), want) {
					t.Fatalf("%q: error %v, want %s...", in, err, want)
				}
			}
		}
	}
	// Keys that stay distinct are fine.
	if docs, err := ReadDocuments("f.yaml", []byte("1: a\n\"01\": b\n1.5: c\n")); err != nil || len(docs[0].Object) != 3 {
		t.Errorf("distinct keys: %v, %v", docs, err)
	}
}

// TestDocumentJSONAsRead: a document's JSON is the document as read,
// whatever the caller did to Object before asking (a field deleted, one
// added, a nested value changed): YAML documents and the items of YAML
// and JSON Lists, read by the fast and the exact readers and by
// Documents.
func TestDocumentJSONAsRead(t *testing.T) {
	inputs := []struct{ name, text, want string }{
		{"doc.yaml", "kind: X\nspec:\n  count: 3.0\n  list: [a, {b: 1}]\n", `{"kind":"X","spec":{"count":3,"list":["a",{"b":1}]}}`},
		{"list.yaml", "kind: List\nitems:\n- kind: X\n  spec: {count: 1, list: [a, {b: 1}]}\n", `{"kind":"X","spec":{"count":1,"list":["a",{"b":1}]}}`},
		{"list.json", `{"kind": "List", "items": [{"kind": "X", "spec": {"count": 1, "list": ["a", {"b": 1}]}}]}`, `{"kind":"X","spec":{"count":1,"list":["a",{"b":1}]}}`},
	}
	readers := map[string]func(string, []byte) ([]Document, error){
		"fast":  ReadDocuments,
		"exact": readDocumentsExact,
		"Documents": func(name string, data []byte) ([]Document, error) {
			var docs []Document
			for d, err := range Documents(name, strings.NewReader(string(data))) {
				if err != nil {
					return nil, err
				}
				docs = append(docs, d)
			}
			return docs, nil
		},
	}
	for _, in := range inputs {
		for rname, read := range readers {
			docs, err := read(in.name, []byte(in.text))
			if err != nil || len(docs) != 1 {
				t.Fatalf("%s, %s: %d documents, %v", in.name, rname, len(docs), err)
			}
			d := docs[0]
			spec := d.Object["spec"].(map[string]any)
			spec["list"].([]any)[1].(map[string]any)["b"] = "changed"
			delete(spec, "count")
			d.Object["added"] = true
			if got := d.JSON(); string(got) != in.want {
				t.Errorf("%s, %s: JSON after changing Object: %s, want %s", in.name, rname, got, in.want)
			}
		}
	}
}

// TestDocumentJSONTextChanged: a caller who breaks ReadDocuments' contract
// (the data changed while its documents are in use) gets no JSON for a
// List item that is no longer there, not a panic.
func TestDocumentJSONTextChanged(t *testing.T) {
	const text = "kind: List\nitems:\n- kind: X\n- kind: Y\n"
	for _, changed := range []string{"", "kind: List\nitems: []"} {
		data := []byte(text)
		docs, err := ReadDocuments("list.yaml", data)
		if err != nil || len(docs) != 2 {
			t.Fatalf("%d documents, %v", len(docs), err)
		}
		copy(data, changed+strings.Repeat(" ", len(text)-len(changed)))
		if got := docs[1].JSON(); got != nil {
			t.Errorf("item 2's JSON after its text became %q: %s, want none", changed, got)
		}
	}
}

// TestSplitYAML: the documents of a YAML stream as the readers split it,
// each with its first line; a document of only a comment is one (the
// readers skip it); an indented "---" splits nothing; stopping early
// stops.
func TestSplitYAML(t *testing.T) {
	data := []byte("a: 1\n--- # first\nb: 2\nc: |\n  ---\n---\n# only a comment\n---\nd: 4\n")
	var got []string
	for line, text := range SplitYAML(data) {
		got = append(got, fmt.Sprintf("%d %q", line, text))
	}
	want := []string{`1 "a: 1\n"`, `3 "b: 2\nc: |\n  ---\n"`, `7 "# only a comment\n"`, `9 "d: 4\n"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SplitYAML (-want +got):\n%s", diff)
	}
	docs, err := ReadDocuments("f.yaml", data)
	if err != nil || len(docs) != 3 || docs[0].Line != 1 || docs[1].Line != 3 || docs[2].Line != 9 {
		t.Errorf("ReadDocuments: %d documents, %v; want 3, at lines 1, 3 and 9", len(docs), err)
	}
	for range SplitYAML(data) {
		break // a splitter that went on would make the loop panic
	}
}

// TestListItemsJSONConcurrent: the items of one List share one new
// reading of its text (lazyJSON.items); asked for their JSON from
// several goroutines at once (run with -race), each gets its own item.
func TestListItemsJSONConcurrent(t *testing.T) {
	text := "kind: List\nitems:\n"
	for i := range 8 {
		text += fmt.Sprintf("- kind: X\n  num: %d\n", i)
	}
	docs, err := ReadDocuments("l.yaml", []byte(text))
	if err != nil || len(docs) != 8 {
		t.Fatalf("%d documents, %v", len(docs), err)
	}
	got := make([]string, len(docs))
	var wg sync.WaitGroup
	for i := range docs {
		wg.Go(func() { got[i] = string(docs[i].JSON()) })
	}
	wg.Wait()
	for i := range got {
		if want := fmt.Sprintf(`{"kind":"X","num":%d}`, i); got[i] != want {
			t.Errorf("item %d: JSON %s, want %s", i, got[i], want)
		}
	}
}
