//go:build linux

package yamlfast

import (
	"reflect"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
)

// TestDecodeReadsNothingPastData decodes each seed (with and without its
// last newline) from the end of a page followed by one that cannot be
// read, through a slice whose capacity reaches into that page: a word
// load past the document's length faults, which this test reports. The
// scans read whole words up to a slice's capacity, so this holds Decode to
// capping the caller's slice at its length.
func TestDecodeReadsNothingPastData(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	decode := func(doc string) {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Decode(%q) read past the end of its input: %v", doc, r)
			}
		}()
		data := mem[page-len(doc) : page : 2*page]
		copy(data, doc)
		want := []byte(doc)
		got, ok := Decode(data)
		if w, wok := Decode(want[:len(want):len(want)]); ok != wok || !reflect.DeepEqual(got, w) {
			t.Fatalf("Decode(%q) before a page it cannot read gave %#v, %v; elsewhere %#v, %v", doc, got, ok, w, wok)
		}
	}
	for _, s := range seeds {
		if len(s) > page {
			continue
		}
		decode(s)
		decode(strings.TrimSuffix(s, "\n"))
	}
	decode("a: b")
	decode("a: b #")
	decode("k:\n- x")
}
