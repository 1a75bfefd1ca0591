package gen

import (
	"bytes"
	"slices"
	"testing"
)

// TestDeterministic checks that a seed fixes every generated file, of
// every verb difftest runs.
func TestDeterministic(t *testing.T) {
	render := func() []byte {
		var buf bytes.Buffer
		g := New(42)
		for _, v := range slices.Concat(Verbs, RevisionVerbs, ServedVerbs) {
			b := g.Batch(v, 10)
			for _, in := range append(append(b.CRDs, b.Cases...), b.Schema, b.Old) {
				if in == nil {
					continue
				}
				data, err := in.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				buf.Write(data)
			}
		}
		return buf.Bytes()
	}
	a, b := render(), render()
	if !bytes.Equal(a, b) {
		t.Fatal("same seed, different output")
	}
	if bytes.Contains(a, []byte(rawMarker)) {
		t.Error("raw marker left in output")
	}
}
