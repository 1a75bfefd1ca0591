package model

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/schema"
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
	for _, root := range []string{corpus, conformance, findings, "../../testdata", "testdata", "../check/testdata", "../../structural/testdata"} {
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

// crdJSONs returns the JSON of every document of the inputs read by the
// exact reader, with the file it came from.
func crdJSONs(t testing.TB) (names []string, docs [][]byte) {
	for _, f := range inputFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := schema.ReadDocuments(f, data)
		if err != nil {
			continue
		}
		for _, d := range ds {
			names = append(names, f)
			docs = append(docs, d.JSON())
		}
	}
	return names, docs
}

// agreeCRD compares the fast CRD decoder with the exact one on data; it
// reports whether the fast path declined.
func agreeCRD(t testing.TB, data []byte) (declined bool) {
	t.Helper()
	in := string(data)
	got, ok := fastDecodeCRD(data)
	if in != string(data) {
		t.Fatal("fastDecodeCRD modified its input")
	}
	if !ok {
		return true
	}
	want, err := decodeCRDExact(data)
	if err != nil {
		t.Fatalf("fast path decoded %.200q, the exact decoder failed: %v", data, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fast path on %.200q:\n got %+v\nwant %+v", data, got, want)
	}
	return false
}

func TestFastDecodeCRDAgrees(t *testing.T) {
	names, docs := crdJSONs(t)
	crds, declined := 0, 0
	for i, d := range docs {
		dec := agreeCRD(t, d)
		if _, err := decodeCRDExact(d); err == nil {
			crds++
			if dec {
				declined++
				t.Logf("declined a CRD of %s", names[i])
			}
		}
	}
	t.Logf("fast CRD decoding declined %d of %d CRD documents (%d documents)", declined, crds, len(docs))
	if sharedCorpusPresent() && crds < 300 {
		t.Errorf("only %d CRDs found in the corpus", crds)
	}
	if declined*100 > crds {
		t.Errorf("fast CRD decoding declined %d of %d CRDs", declined, crds)
	}
}

var crdSeeds = []string{
	`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.b.io","labels":{"a":null}},"spec":{"group":"b.io","names":{"plural":"as","kind":"A"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"x":{"type":"integer","default":1,"maximum":1e3,"enum":[1,2.5,null]},"y":{"items":"z"},"z":{"additionalProperties":false}}}}}]}}`,
	`{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition","spec":{"version":"v1","validation":{"openAPIV3Schema":{"properties":{"a":{"maxLength":1.5}}}},"conversion":{"strategy":"Webhook","webhookClientConfig":{"caBundle":"AAAA","service":{"port":70000}}}}}`,
	`{"apiVersion":"apiextensions.k8s.io/v1","spec":{"versions":[{"name":"v1","additionalPrinterColumns":[{"name":"a","priority":1,"jsonPath":".x"}]},{"name":"v2"}],"conversion":{"webhook":{"clientConfig":{"caBundle":"!"}}}}}`,
	`{"apiVersion":"apiextensions.k8s.io/v1","spec":{"names":"x"}}`,
	`{"apiVersion":"apiextensions.k8s.io/v1","spec":{"names":{"kind":"A"},"names":{"plural":"as"}}}`,
	`{"apiVersion":"apiextensions.k8s.io/v1","spec":{"versions":[{"schema":{"openAPIV3Schema":{"dependencies":{"a":["b"],"c":null,"d":{}},"items":[{},null]}}}]}}`,
}

func TestFastDecodeCRDSeeds(t *testing.T) {
	for _, s := range crdSeeds {
		agreeCRD(t, []byte(s))
	}
}

func FuzzFastDecodeCRD(f *testing.F) {
	for _, s := range crdSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		agreeCRD(t, data)
		var fast, exact Props
		if p, ok := fastDecodeProps(data); ok {
			fast = *p
			if err := decodePropsExact(data, &exact); err != nil {
				t.Fatalf("fast path decoded schema %q, exact failed: %v", data, err)
			}
			if !reflect.DeepEqual(fast, exact) {
				t.Fatalf("schema %q:\n got %+v\nwant %+v", data, fast, exact)
			}
		}
	})
}

var _ = strings.Contains

// TestFastCRDPathTaken makes sure the fast CRD decoder runs on a typical
// document rather than declining, so that the differential tests test
// something.
func TestFastCRDPathTaken(t *testing.T) {
	crd := "{\"apiVersion\":\"apiextensions.k8s.io/v1beta1\",\"spec\":{\"version\":\"v1\",\"conversion\":{\"strategy\":\"Webhook\",\"webhookClientConfig\":{\"caBundle\":\"QUJD\",\"service\":{\"name\":\"s\",\"namespace\":\"n\",\"port\":null}}}}}"
	if agreeCRD(t, []byte(crd)) {
		t.Errorf("fast CRD decoding declined %s", crd)
	}
}
