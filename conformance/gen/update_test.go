package gen

import (
	"bytes"
	"reflect"
	"testing"
)

// TestUpdateBatches checks that update batches reach what they are for:
// status updates, creates among updates, unchanged and changed objects,
// transition rules and the status subresource.
func TestUpdateBatches(t *testing.T) {
	g := New(7)
	var status, creates, unchanged, changed, rules, subresource int
	for i := 0; i < 40; i++ {
		b := g.UpdateBatch(10)
		if b.Status {
			status++
		}
		args, err := b.Write(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if args[0] != "apply" || args[1] != "--old" {
			t.Fatalf("args %v, want apply --old ...", args)
		}
		for _, c := range b.CRDs {
			data, err := c.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(data, []byte("oldSelf")) {
				rules++
			}
			if bytes.Contains(data, []byte("subresources:")) {
				subresource++
			}
		}
		stored := map[string]any{}
		for _, d := range b.Old.Docs {
			if m, ok := d.(map[string]any)["metadata"].(map[string]any); ok {
				if n, ok := m["name"].(string); ok {
					stored[n] = d
				}
			}
		}
		for _, c := range b.Cases {
			for _, d := range c.Docs {
				m, _ := d.(map[string]any)["metadata"].(map[string]any)
				n, _ := m["name"].(string)
				old, ok := stored[n]
				switch {
				case !ok:
					creates++
				case reflect.DeepEqual(old, d):
					unchanged++
				default:
					changed++
				}
			}
		}
	}
	t.Logf("status batches %d, creates %d, unchanged %d, changed %d, CRDs with transition rules %d, with subresources %d", status, creates, unchanged, changed, rules, subresource)
	for what, n := range map[string]int{"status batches": status, "creates": creates, "unchanged": unchanged, "changed": changed, "transition rules": rules, "subresources": subresource} {
		if n == 0 {
			t.Errorf("no %s", what)
		}
	}
}
