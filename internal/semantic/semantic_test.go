package semantic

import "testing"

func TestEqual(t *testing.T) {
	if !Equal([]string(nil), []string{}) || !Equal(map[string]int(nil), map[string]int{}) {
		t.Error("nil and empty must be equal")
	}
	if Equal([]string{"a"}, []string{"b"}) {
		t.Error("different values must differ")
	}
}

// TestEqualThroughPointers: values reached through pointers and maps of
// pointers compare by what they point to, nil and empty still equal.
func TestEqualThroughPointers(t *testing.T) {
	type node struct {
		Name string
		Tags []string
		Kids map[string]*node
	}
	a := &node{Name: "x", Kids: map[string]*node{"k": {Name: "y", Tags: nil}}}
	b := &node{Name: "x", Kids: map[string]*node{"k": {Name: "y", Tags: []string{}}}}
	if !Equal(a, b) {
		t.Error("nil and empty below pointers must be equal")
	}
	b.Kids["k"].Name = "z"
	if Equal(a, b) {
		t.Error("different values below pointers must differ")
	}
}
