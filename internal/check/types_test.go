package check

import (
	"slices"
	"testing"
)

// TestIsOpenAPIV3Type keeps the switch of isOpenAPIV3Type and the list
// openAPIV3Types (the one the error prints) the same set: one edited
// without the other would accept a type the error does not name, or
// reject one it does.
func TestIsOpenAPIV3Type(t *testing.T) {
	if !slices.IsSorted(openAPIV3Types) {
		t.Errorf("openAPIV3Types %q is not sorted", openAPIV3Types)
	}
	for _, typ := range openAPIV3Types {
		if !isOpenAPIV3Type(typ) {
			t.Errorf("isOpenAPIV3Type(%q) = false; openAPIV3Types lists it", typ)
		}
	}
	for _, typ := range []string{"", "null", "Object", "int", "strings", "file"} {
		if isOpenAPIV3Type(typ) != slices.Contains(openAPIV3Types, typ) {
			t.Errorf("isOpenAPIV3Type(%q) = %v; openAPIV3Types says otherwise", typ, isOpenAPIV3Type(typ))
		}
	}
}
