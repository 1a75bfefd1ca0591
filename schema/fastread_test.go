package schema

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crdschema/crdschema/internal/jsonfast"
	"github.com/crdschema/crdschema/internal/shareddata"
)

// inputFiles lists the differential tests' inputs: the shared corpus,
// conformance batches and findings (logged when absent) and every file
// under the repository's testdata directories.
func inputFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	corpus := shareddata.Optional(t, "corpus")
	conformance := shareddata.Optional(t, "conformance")
	findings := shareddata.Optional(t, "findings")
	for _, root := range []string{corpus, conformance, findings, "../testdata", "testdata", "../internal/check/testdata", "../structural/testdata"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
	}
	return files
}

func sharedCorpusPresent() bool {
	_, ok := shareddata.Path("corpus")
	return ok
}

// agreeRead compares ReadDocuments with the exact reader on data.
func agreeRead(t testing.TB, name string, data []byte) {
	t.Helper()
	if msg := readDisagreement(t, name, data); msg != "" {
		t.Fatal(msg)
	}
}

// readDisagreement compares ReadDocuments with the exact reader on data
// and says how they differ ("" when they agree).
func readDisagreement(t testing.TB, name string, data []byte) string {
	t.Helper()
	in := string(data)
	got, gerr := ReadDocuments(name, data)
	if in != string(data) {
		t.Fatal("ReadDocuments modified its input")
	}
	want, werr := readDocumentsExact(name, data)
	if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
		return fmt.Sprintf("%s: error %v, exact reader: %v", name, gerr, werr)
	}
	settle(want)
	for i := range got {
		checkPlain(t, name, &got[i])
		// The exact reader never marks a document plain; the rest must
		// be identical, the JSON encoded when asked for included.
		got[i].plain = false
	}
	settle(got)
	if !reflect.DeepEqual(got, want) {
		for i := range min(len(got), len(want)) {
			if !reflect.DeepEqual(got[i], want[i]) {
				return fmt.Sprintf("%s: document %d (-exact +fast):\n%s\njson:\n%s", name, i, cmp.Diff(want[i].Value, got[i].Value), cmp.Diff(string(want[i].js), string(got[i].js)))
			}
		}
		return fmt.Sprintf("%s: %d documents, exact reader %d", name, len(got), len(want))
	}
	return ""
}

// exactVaries reports whether the exact reader's answer for data changes
// from run to run. sigs.k8s.io/yaml picks among keys that become the same
// JSON key by Go's map order; the exact reader refuses the collisions it
// knows of (keyCollision), and this guards the fuzz test against any it
// does not: the reference then has no one answer to compare with.
func exactVaries(name string, data []byte) bool {
	first, ferr := readDocumentsExact(name, data)
	settle(first)
	for range 50 {
		again, err := readDocumentsExact(name, data)
		settle(again)
		if fmt.Sprint(err) != fmt.Sprint(ferr) || !reflect.DeepEqual(first, again) {
			return true
		}
	}
	return false
}

// chunksDeclined counts the YAML and JSON chunks of data the fast path
// declines.
func chunksDeclined(data []byte) (declined, total int) {
	var chunks []chunk
	if js, rest, _, err := splitJSON(data); len(bytes.TrimLeft(data, " \t\r\n")) > 0 && bytes.TrimLeft(data, " \t\r\n")[0] == '{' && err == nil {
		chunks = js
	} else {
		_ = rest
		chunks = splitStream(data)
	}
	for _, c := range chunks {
		total++
		if _, ok := fastChunk(c); !ok {
			declined++
		}
	}
	return declined, total
}

func TestFastReadAgrees(t *testing.T) {
	files := inputFiles(t)
	var crdDeclined, crdFiles, objDeclined, objChunks int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		agreeRead(t, f, data)
		if !strings.Contains(f, "shared/corpus") {
			continue
		}
		d, n := chunksDeclined(data)
		if strings.Contains(f, "/crds/") {
			crdFiles++
			if d > 0 {
				crdDeclined++
				t.Logf("declined %s", f)
			}
		} else {
			objDeclined += d
			objChunks += n
		}
	}
	t.Logf("fast path declined %d of %d corpus CRD files, %d of %d corpus object documents (%d files compared)", crdDeclined, crdFiles, objDeclined, objChunks, len(files))
	if sharedCorpusPresent() && (crdDeclined*20 > crdFiles || objDeclined*10 > objChunks) {
		t.Errorf("the fast path declines too much")
	}
}

// readSeeds are YAML and JSON documents around the fast paths' edges.
var readSeeds = []string{
	"a: 1\nb: yes\nc: ~\nd: 0x1F\ne: 1.0\nf: -0.0\ng: 1e3\nh: 0o17\ni: 1_000\nj: .5\nk: .inf\nl: 2001-12-14\nm: 18446744073709551615\nn: 0b101\no: +12\np: 1e400\n",
	"a:\n- x\n- y: 1\n  z: [] # c\n-\n  - q\nb: {}\n",
	"a: plain text\n  continued here\n\n  after a blank\nb: 'single ''quoted''\n  folded'\nc: \"double \\t \\u00e9 \\x41\\\n  joined\\\n\n  x\"\n",
	"a: |\n  literal\n   indented\n\n  end\nb: >-\n  folded\n  text\n\n   more\n  last\nc: |+\n  keep\n\nd: x\n",
	"a: b: c\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "? a\n: b\n", "a: 1\na: 2\n", "y: 1\n", "1: a\n", "\"a\": 1\n'b': 2\n",
	"a:\n  b: 1\n c: 2\n", "a: [1, 2]\n", "a: {b: 1}\n", "a: \"unterminated\n", "a:\tb\n", "a: b\r\n", "- 1\n- 2\n", "key: value # comment\n# trailing\n",
	"a: |\n\n   x\n  y\n", "a: >\n  x\n\n  y\n    z\n  w\n", "a:\n  - |\n    x\n  - b\n", "- a: 1\n  b:\n  - 2\n", "a: x:y\nb: http://z\n",
	"{\"a\": 1}\n{\"b\": [1, 2.5, \"x\"]}\n", "{\"a\": 1} x", "{\"kind\": \"List\", \"items\": [{\"a\": 1}]}", "kind: FooList\nitems:\n- a: 1\n- b: 2\n",
}

func FuzzFastRead(f *testing.F) {
	for _, s := range readSeeds {
		f.Add([]byte(s))
	}
	for _, s := range sharedFindingSeeds(f, "FuzzFastRead") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if msg := readDisagreement(t, "f.yaml", data); msg != "" {
			if exactVaries("f.yaml", data) {
				t.Skip("the exact reader's answer varies from run to run")
			}
			t.Fatal(msg)
		}
	})
}

// sharedFindingSeeds returns the inputs of target's fuzz findings kept
// in ../shared/findings (files target-*, each in the format of
// testdata/fuzz with one []byte). Without the shared data the other seeds
// still run and the log says these do not, or the test fails under
// CRDSCHEMA_REQUIRE_SHARED=1.
func sharedFindingSeeds(f *testing.F, target string) [][]byte {
	f.Helper()
	dir, ok := shareddata.Path("findings")
	if !ok {
		if os.Getenv(shareddata.RequireEnv) == "1" {
			f.Fatalf("shared test data missing at %s (%s=1: it must be present)", dir, shareddata.RequireEnv)
		}
		f.Logf("shared findings not found at %s: the %s seeds kept there do not run", dir, target)
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(dir, target+"-*"))
	if len(files) == 0 {
		f.Fatalf("no %s findings in %s", target, dir)
	}
	seeds := make([][]byte, 0, len(files))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		rest, ok := strings.CutPrefix(string(data), "go test fuzz v1\n")
		quoted, ok2 := strings.CutPrefix(strings.TrimSpace(rest), "[]byte(")
		quoted, ok3 := strings.CutSuffix(quoted, ")")
		seed, err := strconv.Unquote(quoted)
		if !ok || !ok2 || !ok3 || err != nil {
			f.Fatalf("%s: not a fuzz input of one []byte", file)
		}
		seeds = append(seeds, []byte(seed))
	}
	return seeds
}

func TestFastReadSeeds(t *testing.T) {
	for _, s := range readSeeds {
		agreeRead(t, "f.yaml", []byte(s))
	}
}

// TestFastPathTaken makes sure the fast paths run on typical documents
// rather than declining, so that the differential tests test something.
func TestFastPathTaken(t *testing.T) {
	for _, s := range []string{
		"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: as.b.io\nspec:\n  group: b.io\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        description: 'A is\n          an example'\n        properties:\n          mode:\n            enum: [a, \"b\", 1, 1.5, yes]\n            description: |2-\n\n\n                indented\n              text\n            default: 010\n",
		"y: 1\noff: 2\n1_0: 3\n2001-12-14: 5\n",
		"a: \"x\\\n\n  y\\ \\\"z \\u00e9\\U0001F600\"\nb: 'p\n\n  q'\n",
		"a:\n- - x\n  - - y\n- [ ]\n- { }\n",
		"{\"a\": 1, \"b\": [1.5, -0]}\n",
	} {
		if d, n := chunksDeclined([]byte(s)); d > 0 {
			t.Errorf("fast path declined %d of %d documents of %q", d, n, s)
		}
		agreeRead(t, "f.yaml", []byte(s))
	}
}

// checkPlain verifies the promise of a document marked plain: its Value is
// exactly what jsonfast decodes from its JSON.
func checkPlain(t testing.TB, name string, d *Document) {
	t.Helper()
	if !d.plain {
		return
	}
	v, ok := jsonfast.Decode(d.JSON())
	if !ok {
		t.Fatalf("%s: document %d is marked plain, but jsonfast declines its JSON %.200q", name, d.Index, d.JSON())
	}
	if !reflect.DeepEqual(v, d.Value) {
		t.Fatalf("%s: document %d is marked plain, but its JSON decodes differently (-value +decoded):\n%s", name, d.Index, cmp.Diff(d.Value, v))
	}
}

// settle asks every document for its JSON and keeps it as if it had been
// at hand, so that documents compare by their JSON whether or not it was
// encoded yet.
func settle(docs []Document) {
	for i := range docs {
		docs[i].js, docs[i].lazy = docs[i].JSON(), nil
	}
}
