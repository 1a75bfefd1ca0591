package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// BenchmarkCRDWorkflowsFromYAML is bench/'s crdschema side of
// CRDFromYAML for the largest corpus CRD: read, decode, check, build.
func BenchmarkCRDWorkflowsFromYAML(b *testing.B) {
	benchFromYAML(b, filepath.Join(shareddata.Dir(b, "corpus"), "argo-workflows", "crds", "workflows.argoproj.io.yaml"))
}

// BenchmarkCRDAllFromYAML is the same over every corpus CRD file.
func BenchmarkCRDAllFromYAML(b *testing.B) {
	benchFromYAML(b, filepath.Join(shareddata.Dir(b, "corpus"), "*", "crds", "*.yaml"))
}

// benchFromYAML reads, decodes, checks and builds every CRD of the files
// matching pattern, per iteration.
func benchFromYAML(b *testing.B, pattern string) {
	files, _ := filepath.Glob(pattern)
	if len(files) == 0 {
		b.Skip("corpus absent")
	}
	var datas [][]byte
	var n int64
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		datas = append(datas, d)
		n += int64(len(d))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range datas {
			docs, err := schema.ReadDocuments("crd", data)
			if err != nil {
				b.Fatal(err)
			}
			for _, d := range docs {
				crd, err := model.DecodeCRDDocument(d)
				if err != nil {
					b.Fatal(err)
				}
				_, built := CRD(crd)
				for _, v := range crd.Spec.Versions {
					if p := crd.SchemaFor(v.Name); p != nil && built.Structural(p) == nil {
						structural.New(p)
					}
				}
			}
		}
	}
}

// BenchmarkCRDDeepChain checks a CRD whose schema is a chain of 400
// objects, each with the same rule: the compile cache's lookups compared
// each node with every entry down to the chain's end, which made the
// check cubic in the depth (6.3 s at depth 400 from the command; the
// apiserver's code takes 0.6 s).
func BenchmarkCRDDeepChain(b *testing.B) {
	benchCheck(b, chainCRD(ruleChain(400, `{"type":"string"}`)))
}

// BenchmarkCRDLeafChains checks a CRD whose schema has 16 properties, each
// a chain of 100 objects with the same rule ending in a string of its own
// maxLength: nodes at the same depth of two chains have subtrees of the
// same size that differ only at their leaves, so a lookup that compares
// subtrees of equal size walks each to its leaf.
func BenchmarkCRDLeafChains(b *testing.B) {
	benchCheck(b, chainCRD(leafChains(16, 100)))
}

// TestLeafChainsLinear: checking BenchmarkCRDLeafChains' CRD allocates in
// proportion to the chains' depth (4 times the depth, about 4 times the
// allocations). Compile-cache lookups that compared the nodes of same-size
// subtrees down to their leaves made it 12.5 times.
func TestLeafChainsLinear(t *testing.T) {
	allocs := func(depth int) float64 {
		crd, err := model.DecodeCRD(chainCRD(leafChains(16, depth)))
		if err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(1, func() {
			if errs, _ := CRD(crd); len(errs) > 0 {
				t.Fatal(errs)
			}
		})
	}
	short, long := allocs(25), allocs(100)
	if long > 6*short {
		t.Errorf("check of 16 leaf chains: %.0f allocations at depth 25, %.0f at depth 100 (%.1fx)", short, long, long/short)
	}
}

// leafChains is a schema of n properties, each a ruleChain of depth whose
// leaf is a string of maxLength its index.
func leafChains(n, depth int) string {
	var root strings.Builder
	root.WriteString(`{"type":"object","properties":{`)
	for k := range n {
		if k > 0 {
			root.WriteByte(',')
		}
		fmt.Fprintf(&root, `"c%d":%s`, k, ruleChain(depth, fmt.Sprintf(`{"type":"string","maxLength":%d}`, k)))
	}
	root.WriteString(`}}`)
	return root.String()
}

// ruleChain is a schema of depth nested objects, each with the rule
// "true", whose innermost property a is leaf.
func ruleChain(depth int, leaf string) string {
	var chain strings.Builder
	for range depth {
		chain.WriteString(`{"type":"object","x-kubernetes-validations":[{"rule":"true"}],"properties":{"a":`)
	}
	chain.WriteString(leaf)
	chain.WriteString(strings.Repeat(`}}`, depth))
	return chain.String()
}

// chainCRD is a CRD's JSON with one version whose schema is s.
func chainCRD(s string) []byte {
	return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",` +
		`"metadata":{"name":"deeps.example.com"},"spec":{"group":"example.com","scope":"Namespaced",` +
		`"names":{"kind":"Deep","plural":"deeps"},"versions":[{"name":"v1","served":true,"storage":true,` +
		`"schema":{"openAPIV3Schema":` + s + `}}]}}`)
}

// benchCheck decodes and checks the CRD data, which must have no error.
func benchCheck(b *testing.B, data []byte) {
	b.ReportAllocs()
	for b.Loop() {
		crd, err := model.DecodeCRD(data)
		if err != nil {
			b.Fatal(err)
		}
		if errs, _ := CRD(crd); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
