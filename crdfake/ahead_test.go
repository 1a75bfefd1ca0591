package crdfake

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
)

// TestReadAheadAgrees reads every corpus CRD file ahead and decoded: the
// scan finds the same CRDs, in the same documents at the same lines, with
// the names the decoded CRDs have, or gives up on the file. It counts the
// files read ahead, so that a scan giving up on everything fails.
func TestReadAheadAgrees(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	corpus := filepath.Join(filepath.Dir(file), "..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		if os.Getenv("CRDSCHEMA_REQUIRE_SHARED") == "1" {
			t.Fatalf("shared test data missing at %s (%s=1)", corpus, "CRDSCHEMA_REQUIRE_SHARED")
		}
		t.Skipf("shared test data not found at %s: skipping (it sits beside the checkout in CI)", corpus)
	}
	files, _ := filepath.Glob(filepath.Join(corpus, "*", "crds", "*"))
	ahead, crds := 0, 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		found, ok := readAhead(data)
		if !ok {
			continue
		}
		ahead++
		crds += len(found)
		if _, err := crdschema.ReadDocuments(name, data); err != nil {
			t.Errorf("%s: read ahead, but it cannot be read: %v", name, err)
			continue
		}
		agree(t, name, data, found)
	}
	t.Logf("%d of %d corpus CRD files read ahead (%d CRDs)", ahead, len(files), crds)
	if ahead < len(files)*3/4 {
		t.Errorf("only %d of %d corpus CRD files read ahead", ahead, len(files))
	}
}

// agree compares the CRDs read ahead from a file with its decoding, and
// decodes each as kind.decode does. A file that cannot be decoded is
// passed over (its CRDs fail their kinds' requests).
func agree(t *testing.T, name string, data []byte, found []aheadDoc) {
	t.Helper()
	docs, err := crdschema.ReadDocuments(name, data)
	if err != nil {
		return
	}
	var want []*crdschema.Document
	for i := range docs {
		if docs[i].IsCRD() {
			want = append(want, &docs[i])
		}
	}
	if len(want) != len(found) {
		t.Errorf("%s: %d CRDs read ahead, %d decoded", name, len(found), len(want))
		return
	}
	for i, d := range want {
		crd, err := d.CRD()
		if err != nil {
			continue
		}
		f := &found[i]
		if n := namesOf(crd); !n.equal(&f.names) || d.Index != f.index || d.Line != f.line {
			t.Errorf("%s: CRD %d read ahead as %+v (document %d, line %d), decoded as %+v (document %d, line %d)", name, i, f.names, f.index, f.line, n, d.Index, d.Line)
		}
		k := &kind{names: f.names, file: name, text: f.text, index: f.index, line: f.line}
		got, err := k.decode()
		if err != nil {
			t.Errorf("%s: CRD %d decoded from its document: %v", name, i, err)
			continue
		}
		if got.Position() != crd.Position() || got.Name() != crd.Name() {
			t.Errorf("%s: CRD %d decoded from its document as %s at %+v, from the file as %s at %+v", name, i, got.Name(), got.Position(), crd.Name(), crd.Position())
		}
	}
}

// aheadCases are YAML shapes the scan reads or gives up on; read says
// which. Whatever it reads must agree with decoding (TestReadAhead,
// TestReadAheadEdited).
var aheadCases = []struct {
	name string
	read bool
	yaml string
}{
	{"plain", true, crdText},
	{"compact sequence, comments, quotes", true, `# leading comment
apiVersion: "apiextensions.k8s.io/v1" # the version
kind: 'CustomResourceDefinition'
metadata:
  name: things.example.com
  annotations: {a: "b"}
spec:
  "group": example.com
  names:
    kind: Thing
    shortNames:
    - th
    plural: things
  scope: Cluster
  versions:
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        description: |
          ... a block scalar
          --- with markers
        type: object
  - name: v1
    served: true # the stored one
    storage: true
    schema: {openAPIV3Schema: {type: object}}
  - name: v2alpha1
    served: false
    storage: false
`},
	{"spec before kind, CRLF", true, strings.ReplaceAll("spec:\n  group: example.com\n  names:\n    kind: Thing\n    plural: things\n  scope: Namespaced\n  versions:\n    - name: v1\n      served: true\n      storage: true\n      schema:\n        openAPIV3Schema:\n          type: object\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: things.example.com\n", "\n", "\r\n")},
	{"documents, empty ones, other kinds", true, "# only a comment\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  versions: |\n    a\n--- # separator with a comment\n\n---\n" + crdText + "---\n" + strings.ReplaceAll(crdText, "Widget", "Gadget")},
	{"flow names", false, strings.Replace(crdText, "  names:\n    kind: Widget\n    plural: widgets\n", "  names: {kind: Widget, plural: widgets}\n", 1)},
	{"served yes", false, strings.Replace(crdText, "served: true", "served: yes", 1)},
	{"group continued", false, strings.Replace(crdText, "group: example.com", "group: example\n    .com", 1)},
	{"anchor", false, strings.Replace(crdText, "  names:", "  names: &n", 1)},
	{"alias", false, strings.Replace(crdText, "  scope: Namespaced", "  scope: *s", 1)},
	{"duplicate spec", false, crdText + "spec:\n  group: other.com\n"},
	{"duplicate kind", false, strings.Replace(crdText, "    plural: widgets", "    plural: widgets\n    kind: Gadget", 1)},
	{"v1beta1", false, strings.Replace(crdText, "apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1", 1)},
	{"list", false, "apiVersion: v1\nkind: List\nitems: []\n"},
	{"json", false, `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition"}`},
	{"tab", false, strings.Replace(crdText, "  scope:", "\tscope:", 1)},
	{"escaped", false, strings.Replace(crdText, "kind: Widget", `kind: "Wid\x67et"`, 1)},
	{"quoted continued", false, strings.Replace(crdText, "kind: Widget", "kind: \"Wid\n      get\"", 1)},
	{"a number", false, strings.Replace(crdText, "- name: v1", "- name: 1", 1)},
	{"null word", false, strings.Replace(crdText, "plural: widgets", "plural: null", 1)},
	{"no versions", false, crdText[:strings.Index(crdText, "  versions:")]},
	{"nested item", false, strings.Replace(crdText, "- name: v1", "- - name: v1", 1)},
	{"indented document", false, "  " + strings.ReplaceAll(crdText, "\n", "\n  ")},
	{"directive", false, "%YAML 1.1\n" + crdText},
	{"document start with content", false, "--- !tag\n" + crdText},
	{"a lone CR", false, strings.Replace(crdText, "  scope: Namespaced\n", "  scope: Namespaced\r  x: y\n", 1)},
	{"LS", false, strings.Replace(crdText, "  scope: Namespaced\n", "  scope: Namespaced\u2028  x: y\n", 1)},
	{"NEL deep", false, strings.Replace(crdText, "type: object\n", "type: object\u0085kind: Evil\n", 1)},
}

const crdText = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    plural: widgets
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
`

func TestReadAhead(t *testing.T) {
	for _, tc := range aheadCases {
		found, ok := readAhead([]byte(tc.yaml))
		if ok != tc.read {
			t.Errorf("%s: read ahead %v, want %v", tc.name, ok, tc.read)
		}
		if ok {
			if _, err := crdschema.ReadDocuments(tc.name, []byte(tc.yaml)); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			agree(t, tc.name, []byte(tc.yaml), found)
		}
	}
}

// TestReadAheadEdited reads ahead edits of the cases (a line dropped,
// repeated, indented or outdented; a byte replaced by one that means
// something to YAML): whatever the scan reads agrees with decoding. (A
// native fuzz target would not run in CI's fuzz step, which runs from the
// root module; this one ran 92,859 executions without a finding.)
func TestReadAheadEdited(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 6))
	special := []byte(" \t\n-:#'\"{}[]&*!|>?%.")
	read := 0
	for _, tc := range aheadCases {
		for range 300 {
			data := edit(rng, []byte(tc.yaml), special)
			if found, ok := readAhead(data); ok {
				read++
				agree(t, tc.name+" edited", data, found)
			}
		}
	}
	t.Logf("%d of %d edits read ahead", read, 300*len(aheadCases))
	// With this seed 678 edits are read ahead: a scan that gave up on
	// (nearly) every edit would leave the agreement above checking nothing.
	if read < 500 {
		t.Errorf("only %d of %d edits read ahead, want at least 500: the agreement check has too little to check", read, 300*len(aheadCases))
	}
}

// edit changes one line of data, or one byte.
func edit(rng *rand.Rand, data []byte, special []byte) []byte {
	lines := bytes.SplitAfter(data, []byte("\n"))
	i := rng.IntN(len(lines))
	switch rng.IntN(5) {
	case 0:
		lines = slices.Delete(lines, i, i+1)
	case 1:
		lines = slices.Insert(lines, i, lines[i])
	case 2:
		lines[i] = append([]byte("  "), lines[i]...)
	case 3:
		lines[i] = bytes.TrimPrefix(lines[i], []byte("  "))
	default:
		out := bytes.Clone(data)
		out[rng.IntN(len(out))] = special[rng.IntN(len(special))]
		return out
	}
	return bytes.Join(lines, nil)
}
