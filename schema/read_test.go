package schema

import (
	"errors"
	"strings"
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
		t.Fatalf("error %v is not an InputError", err)
	}
	if ie.File != "bad.yaml" || ie.Line < 3 {
		t.Errorf("error at %s:%d, want bad.yaml at line 3 or later", ie.File, ie.Line)
	}
	if !strings.HasPrefix(err.Error(), "bad.yaml:") {
		t.Errorf("message %q does not start with the file name", err)
	}
}

func TestReadDocumentsNotAMapping(t *testing.T) {
	docs, err := ReadDocuments("f.yaml", []byte("- 1\n- 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 || docs[0].Object != nil {
		t.Fatalf("got %+v, want one document without Object", docs)
	}
}

func FuzzReadDocuments(f *testing.F) {
	for _, s := range []string{"a: 1\n---\nb: [1, 2]\n", "kind: List\nitems: [1, {a: b}]\n", "{\"x\": null}", "--- |\n x", "&a [*a]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := ReadDocuments("fuzz.yaml", data)
		if err != nil {
			return
		}
		for _, d := range docs {
			if d.Line < 1 {
				t.Fatalf("document %d has line %d", d.Index, d.Line)
			}
			if _, err := DecodeCRD(d.JSON); err != nil {
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
