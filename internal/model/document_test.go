package model

import (
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/schema"
)

// agreeCRDDocument compares DecodeCRDDocument with DecodeCRD on every
// document of data as ReadDocuments reads it: same CRD, same error, and no
// map or slice shared with the document's value. It returns how many
// documents were converted from their value.
func agreeCRDDocument(t testing.TB, name string, data []byte) (fromValue int) {
	t.Helper()
	docs, err := schema.ReadDocuments(name, data)
	if err != nil {
		return 0
	}
	for _, d := range docs {
		want, werr := DecodeCRD(d.JSON())
		got, gerr := DecodeCRDDocument(d)
		if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
			t.Fatalf("%s: document %d: error %v, DecodeCRD: %v", name, d.Index, gerr, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: document %d:\n got %+v\nwant %+v", name, d.Index, got, want)
		}
		if gerr != nil || !d.Plain() {
			continue
		}
		if _, ok := d.Value.(map[string]any); ok {
			if _, ok := crdFromValue(d.Value.(map[string]any), true); ok {
				fromValue++
			}
		}
		// Nothing the CRD holds may change with the document's value.
		poison(d.Value)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: document %d: the CRD shares values with the document", name, d.Index)
		}
	}
	return fromValue
}

// poison overwrites every map entry and slice element of a JSON value, in
// place, with a marker.
func poison(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			poison(e)
			x[k] = "poisoned"
		}
		x["poisoned"] = true
	case []any:
		for i, e := range x {
			poison(e)
			x[i] = "poisoned"
		}
	}
}

// TestDecodeCRDDocumentAgrees runs agreeCRDDocument over every input file:
// the shared corpus and conformance batches (when present) and the
// repository's testdata.
func TestDecodeCRDDocumentAgrees(t *testing.T) {
	files := inputFiles(t)
	fromValue := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fromValue += agreeCRDDocument(t, f, data)
	}
	t.Logf("%d CRD documents converted from their value (%d files)", fromValue, len(files))
	if sharedCorpusPresent() && fromValue < 300 {
		t.Errorf("only %d CRDs converted from their value: the differential test tests little", fromValue)
	}
}

// documentSeeds are CRD documents around the edges of the value path:
// floats that read back as integers, duplicate keys, Lists, JSON streams.
var documentSeeds = []string{
	"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: as.b.io\nspec:\n  group: b.io\n  names:\n    plural: as\n    kind: A\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          x:\n            default: {a: [1, 2.5]}\n            enum: [1.0, 1e3, -0.0, 2.5, x, {}, []]\n            example: 1.5\n            maximum: 1.0\n            maxLength: 1.0\n",
	"{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\",\"spec\":{\"versions\":[{\"name\":\"v1\",\"schema\":{\"openAPIV3Schema\":{\"default\":1.0,\"enum\":[1,1.5,-0,1e400]}}}]}}\n{\"apiVersion\":\"apiextensions.k8s.io/v1beta1\",\"kind\":\"CustomResourceDefinition\",\"spec\":{\"version\":\"v1\",\"names\":{\"kind\":\"A\"},\"names\":{\"plural\":\"as\"}}}",
	"apiVersion: v1\nkind: List\nitems:\n- apiVersion: apiextensions.k8s.io/v1\n  kind: CustomResourceDefinition\n  spec:\n    versions:\n    - name: v1\n      schema:\n        openAPIV3Schema:\n          default: 1.0\n",
	"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  names: x\n",
	"apiVersion: apiextensions.k8s.io/v2\nkind: CustomResourceDefinition\n",
	"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: a\n  group: b\n",
	"apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nspec:\n  version: v1\n  validation:\n    openAPIV3Schema:\n      properties:\n        a:\n          default: [x, {y: 1.0}]\n  conversion:\n    strategy: Webhook\n    webhookClientConfig:\n      caBundle: QUJD\n      service: {name: s, namespace: n}\n",
	"- 1\n- 2\n",
}

func TestDecodeCRDDocumentSeeds(t *testing.T) {
	for _, s := range documentSeeds {
		agreeCRDDocument(t, "f.yaml", []byte(s))
	}
}

func TestPlainJSON(t *testing.T) {
	for _, c := range []struct {
		v    any
		want bool
	}{
		{nil, true}, {"x", true}, {int64(1), true}, {1.5, true}, {1e21, true}, {9.3e18, true},
		{float64(1), false}, {math.Copysign(0, -1), false}, {-9.223372036854775808e18, false},
		{map[string]any{"a": []any{int64(1), "b"}}, true}, {map[string]any{"a": []any{2.0}}, false},
		{map[string]any(nil), false}, {[]any(nil), false}, {int(1), false}, {math.Inf(1), false},
	} {
		if got := plainJSON(c.v, 0); got != c.want {
			t.Errorf("plainJSON(%#v) = %v, want %v", c.v, got, c.want)
		}
	}
}

// TestDecodeCRDDocumentNotPlain checks that a document not known to be
// plain (an item of a List) is decoded from its JSON, whatever its Value
// says.
func TestDecodeCRDDocumentNotPlain(t *testing.T) {
	in := `{"kind":"List","items":[{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"from-json"}}]}`
	docs, err := schema.ReadDocuments("f.json", []byte(in))
	if err != nil || len(docs) != 1 {
		t.Fatalf("%d documents, %v", len(docs), err)
	}
	d := docs[0]
	if d.Plain() {
		t.Fatal("an item of a List is marked plain")
	}
	// The JSON is encoded when first asked for, from the value as read.
	if js := d.JSON(); !strings.Contains(string(js), `"name":"from-json"`) {
		t.Fatalf("JSON %s", js)
	}
	d.Value = map[string]any{"apiVersion": v1APIVersion, "kind": "CustomResourceDefinition", "metadata": map[string]any{"name": "from-value"}}
	crd, err := DecodeCRDDocument(d)
	if err != nil {
		t.Fatal(err)
	}
	if crd.Metadata.Name != "from-json" {
		t.Errorf("name %q, want from-json", crd.Metadata.Name)
	}
}

func FuzzDecodeCRDDocument(f *testing.F) {
	for _, s := range documentSeeds {
		f.Add([]byte(s))
	}
	for _, s := range crdSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		agreeCRDDocument(t, "f.yaml", data)
	})
}
