package validation

import "testing"

// TestLazyChildrenPanicAgain: a node whose children's compile panicked
// panics again when asked for them, instead of validating nothing below
// it (sync.Once counts a panicking function as done).
func TestLazyChildrenPanicAgain(t *testing.T) {
	// A nil model makes the compile panic: no model node is nil in a
	// compiled tree, so this stands for a compile bug.
	n := &cnode{lazy: &lazyChildren{}}
	for i := range 2 {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("call %d of children returned; want a panic", i+1)
				}
			}()
			n.children()
		}()
	}
}
