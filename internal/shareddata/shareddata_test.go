package shareddata

import (
	"path/filepath"
	"testing"
)

func TestPathIsBesideTheModule(t *testing.T) {
	p, _ := Path("corpus")
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	module, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(filepath.Dir(module), "shared", "corpus"); abs != want {
		t.Errorf("Path(corpus) = %s, want %s", abs, want)
	}
}
