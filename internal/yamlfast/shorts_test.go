package yamlfast

import (
	"fmt"
	"strings"
	"testing"
)

// TestShortTableFinds checks that find gives each text its own entry and
// the same one again, for texts of every length up to maxShared that differ
// in one byte at each position.
func TestShortTableFinds(t *testing.T) {
	var tab shortTable
	var texts []string
	for n := 0; n <= maxShared; n++ {
		base := strings.Repeat("k", n)
		texts = append(texts, base)
		for i := 0; i < n; i++ {
			texts = append(texts, base[:i]+"j"+base[i+1:])
		}
	}
	for round := 0; round < 2; round++ {
		for _, s := range texts {
			e := tab.find(words(s))
			if e == nil || e.s != s {
				t.Fatalf("round %d: find(%q) gave %+v", round, s, e)
			}
		}
	}
	if len(tab.entries) != len(texts) {
		t.Fatalf("%d entries for %d texts", len(tab.entries), len(texts))
	}
}

// TestShortTableBoundsProbes fills one run of a table with texts of the
// same first slot: maxProbe of them are shared, the others not, and none
// is mixed up with another.
func TestShortTableBoundsProbes(t *testing.T) {
	var tab shortTable
	tab.grow()
	mask := uint64(len(tab.slots) - 1)
	var same []string
	for i := 0; len(same) < 2*maxProbe; i++ {
		b := []byte(fmt.Sprintf("text%06d", i))
		lo, hi := shortWords(b[:len(b):len(b)])
		if shortHash(b, lo, hi)&mask == 0 {
			same = append(same, string(b))
		}
	}
	for round := 0; round < 2; round++ {
		shared := 0
		for _, s := range same {
			if e := tab.find(words(s)); e != nil {
				shared++
				if e.s != s {
					t.Fatalf("find(%q) gave the entry of %q", s, e.s)
				}
			}
		}
		if shared != maxProbe || len(tab.slots) != int(mask+1) {
			t.Errorf("%d of %d texts of one slot shared (table of %d), want %d", shared, len(same), len(tab.slots), maxProbe)
		}
	}
}

// TestDecodeCollidingKeys reads a mapping whose keys all have the same
// length and first and last eight bytes.
func TestDecodeCollidingKeys(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 3*maxProbe; i++ {
		fmt.Fprintf(&b, "abcdefgh%04dijklmnop: abcdefgh%04dijklmnop\n", i, 3*maxProbe-i)
	}
	if agree(t, []byte(b.String())) {
		t.Fatal("Decode declined")
	}
}

// TestShortTableComparesMiddles finds two texts of over sixteen bytes that
// differ only between their first and last eight bytes and have the same
// first slot: each gets its own entry.
func TestShortTableComparesMiddles(t *testing.T) {
	for n := 17; n <= maxShared; n += 7 {
		var tab shortTable
		tab.grow()
		mask := uint64(len(tab.slots) - 1)
		seen := map[uint64]string{}
		for i := 0; ; i++ {
			mid := fmt.Sprintf("%0*d", n-16, i)
			b := []byte("abcdefgh" + mid + "ijklmnop")
			lo, hi := shortWords(b)
			slot := shortHash(b, lo, hi) & mask
			other, ok := seen[slot]
			if !ok {
				seen[slot] = string(b)
				continue
			}
			for _, s := range []string{other, string(b), other, string(b)} {
				if e := tab.find(words(s)); e == nil || e.s != s {
					t.Fatalf("find(%q) gave %+v", s, e)
				}
			}
			break
		}
	}
}

// words returns the text s with its shortWords, as find takes them.
func words(s string) ([]byte, uint64, uint64) {
	b := []byte(s)
	lo, hi := shortWords(b)
	return b, lo, hi
}

// TestHotTexts checks that each hot text is its own key, that a shared
// value is what resolving it gives, and that documents using them as keys
// and values read as the exact reader reads them.
func TestHotTexts(t *testing.T) {
	n := 0
	for _, texts := range hotTexts {
		for _, h := range texts {
			n++
			if k, ok := plainKey(h.s); !ok || k != h.s {
				t.Errorf("plainKey(%q) = %q, %v", h.s, k, ok)
			}
			if h.value != nil && h.value != resolvePlain(h.s) {
				t.Errorf("%q shares %#v, resolves to %#v", h.s, h.value, resolvePlain(h.s))
			}
			b := []byte(h.s + "x")[:len(h.s)] // a byte past its end
			if lo, hi := shortWords(b); hot(b, lo, hi) == nil || hot(b, lo, hi).s != h.s {
				t.Errorf("hot(%q) = %v", h.s, hot(b, lo, hi))
			}
			doc := h.s + ": " + h.s + "\nx:\n  " + h.s + ": [" + h.s + "]\ny:\n- " + h.s + "\n"
			if agree(t, []byte(doc)) {
				t.Errorf("Decode declined %q", doc)
			}
		}
	}
	if n < 10 {
		t.Errorf("%d hot texts", n)
	}
}
