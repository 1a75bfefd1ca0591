package bench

import (
	"fmt"
	"strings"
	"testing"
)

// deepChainDepths are BenchmarkCRDDeepChain's depths: the reference's
// check grows with the square of the depth (0.6 s at depth 400 from the
// oracle command), so the deepest stays well under a second per op.
var deepChainDepths = []int{50, 200}

// deepChainCRD is a CRD's JSON whose schema is a chain of depth objects,
// each with the same x-kubernetes-validations rule, ending in a string:
// the shape of internal/check's BenchmarkCRDDeepChain.
func deepChainCRD(depth int) []byte {
	var chain strings.Builder
	for range depth {
		chain.WriteString(`{"type":"object","x-kubernetes-validations":[{"rule":"true"}],"properties":{"a":`)
	}
	chain.WriteString(`{"type":"string"}`)
	chain.WriteString(strings.Repeat(`}}`, depth))
	return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",` +
		`"metadata":{"name":"deeps.example.com"},"spec":{"group":"example.com","scope":"Namespaced",` +
		`"names":{"kind":"Deep","plural":"deeps"},"versions":[{"name":"v1","served":true,"storage":true,` +
		`"schema":{"openAPIV3Schema":` + chain.String() + `}}]}}`)
}

// TestDeepChainAccepted holds both sides of BenchmarkCRDDeepChain to the
// same answer on a short chain: no error.
func TestDeepChainAccepted(t *testing.T) {
	data := deepChainCRD(20)
	for _, side := range []struct {
		name string
		f    func([]byte) (int, error)
	}{{"crdschema", csCheck}, {"reference", refFromJSON}} {
		if n, err := side.f(data); err != nil || n != 0 {
			t.Errorf("%s: %d errors, %v", side.name, n, err)
		}
	}
}

// BenchmarkCRDDeepChain decodes, checks and builds a CRD whose schema is a
// chain of 50 or 200 nested objects, each with the same CEL rule, from its
// JSON (as BenchmarkCRDFromJSON): every rule is compiled and cost-checked
// on both sides. crdschema's compile cache compares each node with the
// nodes compiled before it, which once made its check cubic in the depth;
// the reference compiles every rule again.
func BenchmarkCRDDeepChain(b *testing.B) {
	for _, depth := range deepChainDepths {
		data := deepChainCRD(depth)
		b.Run(fmt.Sprintf("depth%d", depth), func(b *testing.B) {
			benchCRD(b, []*crdFile{{json: data}}, func(f *crdFile) []byte { return f.json }, checkedClean(csCheck), checkedClean(refFromJSON))
		})
	}
}

// checkedClean is f failing when it finds errors: both sides accept the
// generated CRDs.
func checkedClean(f func([]byte) (int, error)) func([]byte) (int, error) {
	return func(data []byte) (int, error) {
		n, err := f(data)
		if err == nil && n != 0 {
			err = fmt.Errorf("%d errors", n)
		}
		return n, err
	}
}
