package schema

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// streamed reads data with Documents through r (which reads data) and
// returns what ReadDocuments would: the documents and the errors.
func streamed(name string, r io.Reader) ([]Document, error) {
	var docs []Document
	var errs InputErrors
	for d, err := range Documents(name, r) {
		var ie *InputError
		switch {
		case err == nil:
			if d.Object == nil {
				return nil, fmt.Errorf("document %d without error has no Object", d.Index)
			}
			docs = append(docs, d)
		case !errors.As(err, &ie):
			return nil, fmt.Errorf("error %v is not an *InputError", err)
		case d.Line == 0:
			// The stream's own failure: the last thing yielded.
			return nil, err
		default:
			if d.Object != nil || !strings.HasPrefix(ie.Err.Error(), fmt.Sprintf("document %d: ", d.Index)) {
				return nil, fmt.Errorf("error %v beside document %d with Object %v", err, d.Index, d.Object)
			}
			errs = append(errs, ie)
		}
	}
	if len(errs) > 0 {
		return docs, errs
	}
	return docs, nil
}

// wrongLen is a reader whose Len says n whatever it holds: Documents
// sizes its buffers by a reader's Len, and a hint that turns out wrong
// may change nothing but the reads.
type wrongLen struct {
	io.Reader
	n int
}

func (w wrongLen) Len() int { return w.n }

// streamDisagreement compares Documents, read through a reader handing
// out one byte at a time, one returning half of what is asked, one whose
// Len is right and two whose Len is wrong, with ReadDocuments ("" when
// they agree).
func streamDisagreement(name string, data []byte) string {
	want, werr := ReadDocuments(name, data)
	for _, r := range []io.Reader{iotest.OneByteReader(bytes.NewReader(data)), iotest.HalfReader(bytes.NewReader(data)), bytes.NewReader(data),
		wrongLen{bytes.NewReader(data), 1}, wrongLen{iotest.HalfReader(bytes.NewReader(data)), 3*len(data) + 700}} {
		got, gerr := streamed(name, r)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) {
			return fmt.Sprintf("error %v, ReadDocuments: %v", gerr, werr)
		}
		if len(got) != len(want) {
			return fmt.Sprintf("%d documents, ReadDocuments %d", len(got), len(want))
		}
		settle(want)
		settle(got)
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				return fmt.Sprintf("document %d: %+v\nReadDocuments: %+v", i, got[i], want[i])
			}
		}
	}
	return ""
}

var streamSeeds = []string{
	"a: 1\n---\nb: [1, 2]\n",
	"kind: List\nitems: [1, {a: b}]\n",
	"{\"x\": null}",
	"--- |\n x",
	"&a [*a]",
	"---\n# only a comment\n---\na: yes\n--- # c\nkind: ThingList\nitems:\n- {x: 1}\n- 5\n---\n\n---\n{\"json\": true}\n",
	"{\"a\": 1.0, \"a\": 2}\n{\"b\": [1]}\n",
	"{\"a\": 1}\n{\"b\": [1]} x\n{\"c\": 2}\n",
	"{a: yes}\n---\nb: 1\n",
	"   \n\t{\"a\": {\"b\": 1, \"b\": 2}}",
	"a: 1\r\n---\r\nb: 2\r\n",
	"---",
	"a: [\n---\nb: 1\n",
	"9: a\n0000000000009: b\n",
	"\u00a0{\"a\": 1}",
	"kind: List\nitems:\n- {apiVersion: v1, kind: A, spec: {a: 1, a: 2}}\n",
}

// TestDocumentsAgree: streaming a stream gives exactly what reading it
// whole gives, whatever sizes the reads come in.
func TestDocumentsAgree(t *testing.T) {
	long := strings.Repeat(" ", 70<<10) + "{\"a\": 1}"
	huge := "a: " + strings.Repeat("x", 200<<10) + "\n---\nb: 1\n"
	for _, in := range append(streamSeeds, long, huge) {
		if msg := streamDisagreement("f.yaml", []byte(in)); msg != "" {
			t.Errorf("%.80q: %s", in, msg)
		}
	}
	files := inputFiles(t)
	if len(files) < 50 {
		t.Fatalf("only %d input files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if msg := streamDisagreement(f, data); msg != "" {
			t.Errorf("%s: %s", f, msg)
		}
	}
}

func FuzzDocuments(f *testing.F) {
	for _, s := range streamSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if msg := streamDisagreement("fuzz.yaml", data); msg != "" {
			t.Fatal(msg)
		}
	})
}

// TestDocumentsDuplicates: the keys a JSON document holds twice are named
// in the one decoding pass, as the apiserver's strict decoder names them;
// YAML documents and List items have none.
func TestDocumentsDuplicates(t *testing.T) {
	for in, want := range map[string][]string{
		`{"a": {"b": 1, "b": 2}, "l": [{"x": 1, "x": 1}]}`: {"a.b", "l[0].x"},
		`{"a": 1}`:    nil,
		"a: {b: 1}\n": nil,
		`{"kind": "List", "items": [{"a": 1, "a": 2}]}`: nil,
	} {
		for _, read := range []func(string, []byte) ([]Document, error){ReadDocuments, readDocumentsExact} {
			docs, err := read("f.json", []byte(in))
			if err != nil || len(docs) != 1 {
				t.Fatalf("%s: %v, %v", in, docs, err)
			}
			if !reflect.DeepEqual(docs[0].Duplicates, want) {
				t.Errorf("%s: duplicates %q, want %q", in, docs[0].Duplicates, want)
			}
		}
	}
}

// TestDocumentsStreamError: a stream that fails while it is read yields
// the documents before the failure, then the failure with a zero
// Document, and nothing more.
func TestDocumentsStreamError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("a: 1\n---\nb: 2\n---\nc: "), iotest.ErrReader(errors.New("disk on fire")))
	var got []string
	for d, err := range Documents("f.yaml", r) {
		got = append(got, fmt.Sprintf("%d:%d %v %v", d.Index, d.Line, d.Object, err))
	}
	want := []string{"0:1 map[a:1] <nil>", "1:3 map[b:2] <nil>", "0:0 map[] f.yaml: disk on fire"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// A caller that stops early stops the reading.
	n := 0
	for range Documents("f.yaml", strings.NewReader("a: 1\n---\nb: 2\n")) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("%d documents after break", n)
	}
}

// TestDocumentsText: every document's Text starts at its line; the items
// of a List share the List's.
func TestDocumentsText(t *testing.T) {
	in := "a: 1\n---\n\nkind: XList\nitems: [{b: 1}, {c: 2}]\n"
	docs, err := ReadDocuments("f.yaml", []byte(in))
	if err != nil || len(docs) != 3 {
		t.Fatal(docs, err)
	}
	if string(docs[0].Text) != "a: 1\n" || string(docs[1].Text) != "\nkind: XList\nitems: [{b: 1}, {c: 2}]\n" || &docs[1].Text[0] != &docs[2].Text[0] {
		t.Errorf("texts %q %q %q", docs[0].Text, docs[1].Text, docs[2].Text)
	}
	if docs[1].Line != 3 {
		t.Errorf("List line %d, want 3", docs[1].Line)
	}
}

// kindsDisagreement compares Documents with kinds with Documents without:
// the same documents of those kinds, with the same numbers and lines, and
// no error that the whole read does not have ("" when they agree).
func kindsDisagreement(data []byte, kinds ...string) string {
	var all, some []string
	allErrs := map[string]bool{}
	for d, err := range Documents("f.yaml", bytes.NewReader(data)) {
		kind, _ := d.Object["kind"].(string)
		switch {
		case err != nil:
			allErrs[err.Error()] = true
		case slices.Contains(kinds, kind):
			all = append(all, fmt.Sprintf("%d@%d %s", d.Index, d.Line, d.JSON()))
		}
	}
	for d, err := range Documents("f.yaml", iotest.HalfReader(bytes.NewReader(data)), kinds...) {
		if err != nil {
			if !allErrs[err.Error()] {
				return fmt.Sprintf("error %v not in the whole read", err)
			}
			continue
		}
		some = append(some, fmt.Sprintf("%d@%d %s", d.Index, d.Line, d.JSON()))
	}
	if !reflect.DeepEqual(all, some) {
		return fmt.Sprintf("with kinds %q:\n%s\nwithout:\n%s", kinds, strings.Join(some, "\n"), strings.Join(all, "\n"))
	}
	return ""
}

var kindSeeds = []string{
	"kind: A\nx: 1\n---\nkind: B\ny: 2\n---\nkind: A\nz: 3\n",
	"a: 1\nb: 2\n---\nnull\n---\n&x\n~\n---\nkind: A\n",
	"kind: XList\nitems:\n- {kind: A}\n- {kind: B}\n---\nkind: A\nq: 1\n",
	"a: 1\nb: [\n---\nkind: A\n",
	"k: !!str A\nkind: \"\\x41\"\n---\nkind: A\n",
	"%YAML 1.1\n---\na: 1\nb: 2\n---\nkind: A\n",
	"a: 1\nb: 2\n...\n---\nkind: A\n",
	"{\"kind\": \"A\"}\n{\"kind\": \"B\"}\n",
	// A null document of two lines of content, one of them a document
	// start marker holding content: not numbered (found by CI's fuzzing).
	"--- &a\n~\n---\n1\n",
	"~\n--- a: 1\n---\n1\n",
	"~\n: \n---\n0", // found by CI's fuzzing next
	// Mappings passed over, one line or several, and what is not one.
	"a: 1\n---\nb: 2\nc: 3\n---\n- x\n- y\n---\nkind: A\n",
	"# c\n  \nx.y/z-w_v: \r\n---\n{a: 1}\n---\n\"k\": 1\n---\n1: 2\n---\nkind: A\n",
	"a:b\nc\n---\na:\tb\n---\n  a: 1\n---\na: 1\nb\n---\nkind: A\n",
}

// TestDocumentsKinds: reading only some kinds passes over the other
// documents without changing any number or line.
func TestDocumentsKinds(t *testing.T) {
	for _, in := range kindSeeds {
		if msg := kindsDisagreement([]byte(in), "A"); msg != "" {
			t.Errorf("%q: %s", in, msg)
		}
	}
	files := inputFiles(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if msg := kindsDisagreement(data, "CustomResourceDefinition"); msg != "" {
			t.Errorf("%s: %s", f, msg)
		}
	}
}

func FuzzDocumentsKinds(f *testing.F) {
	for _, s := range append(kindSeeds, streamSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if msg := kindsDisagreement(data, "A", "List"); msg != "" {
			t.Fatal(msg)
		}
	})
}

// splitByLine is splitStream as it was written first, looking at every
// line: splitStream, which looks only at lines starting with "---", must
// split every input as it does.
func splitByLine(data []byte) []chunk {
	var out []chunk
	start, startLine, line := 0, 1, 1
	for pos := 0; pos < len(data); line++ {
		next := len(data)
		if end := bytes.IndexByte(data[pos:], '\n'); end >= 0 {
			next = pos + end + 1
		}
		if isSeparator(data[pos:next]) {
			if pos > start {
				out = append(out, chunk{data: data[start:pos], line: startLine})
			}
			start, startLine = next, line+1
		}
		pos = next
	}
	if start < len(data) {
		out = append(out, chunk{data: data[start:], line: startLine})
	}
	return out
}

// TestSplitStreamEveryLine holds splitStream to splitByLine on separators
// at the edges (first and last line, no final line break, "\r\n", blanks
// and comments after "---", "---" not alone) and on the input files with
// such lines put at random places.
func TestSplitStreamEveryLine(t *testing.T) {
	ins := append([]string{}, streamSeeds...)
	ins = append(ins, "", "\n", "---", "---\n", "\n---", "---\n---\n", "a: 1\n---", "a: 1\n--- \t\n---x\n----\n b\n---#c\nc: 1\n",
		"a\r\n---\r\nb\r\n--- \u00a0\n-- -\n---\v\n", "x\n\n\n---\n\n\n---\n\n", "---a\n---\n")
	rnd := rand.New(rand.NewPCG(32, 9))
	lines := []string{"---\n", "--- # c\n", "---x\n", "----\n", "--- \r\n", "\n", "---"}
	files := inputFiles(t)
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, string(data))
		if i%4 != 0 || len(data) == 0 {
			continue
		}
		for range 3 {
			at := rnd.IntN(len(data))
			if j := bytes.LastIndexByte(data[:at], '\n'); j >= 0 && rnd.IntN(4) > 0 {
				at = j + 1 // mostly at the start of a line
			}
			ins = append(ins, string(data[:at])+lines[rnd.IntN(len(lines))]+string(data[at:]))
		}
	}
	for _, in := range ins {
		got, want := splitStream([]byte(in)), splitByLine([]byte(in))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.80q: splitStream %d chunks, line by line %d", in, len(got), len(want))
		}
	}
}

// TestPassOver pins which chunks Documents with kinds passes over without
// decoding (the point of kinds: a repository's other documents cost a
// scan), and that it numbers each as one document, blanks and comments as
// none.
func TestPassOver(t *testing.T) {
	for _, tc := range []struct {
		text   string
		passed bool
		counts int
	}{
		{"apiVersion: v1\nkind: ConfigMap\ndata:\n  a: b\n", true, 1},
		{"# a comment\n\nmetadata:\n  name: x\n", true, 1},
		{"a: 1\r\n", true, 1},
		{"a:\n", true, 1},
		{"# only\n# comments\n\n", true, 0},
		{"~\n: \n", false, 0},
		{"- a\n- b\n", false, 0},
		{"  a: 1\n", false, 0},
		{"a:b\n", false, 0},
		{"kind: A\n", false, 0},
		{"a: 1\n--- b\n", false, 0},
		{"a: !!str 1\n", false, 0},
		{"{{ .Values.x }}\na: 1\n", false, 0},
	} {
		r := &docReader{name: "f.yaml", kinds: []string{"A"}}
		if got := r.passOver(chunk{data: []byte(tc.text)}); got != tc.passed || r.index != tc.counts {
			t.Errorf("%q: passed over %v, counted %d; want %v, %d", tc.text, got, r.index, tc.passed, tc.counts)
		}
	}
}
