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
