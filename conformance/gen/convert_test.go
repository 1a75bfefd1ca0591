package gen_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/conformance/gen"
	"github.com/crdschema/crdschema/conformance/oracle"
)

// TestConvertBatchReachesTheReadPath checks that generated convert batches
// are not all routing errors: the oracle accepts their CRDs and serves a
// good share of the objects, many of them losing fields on the way.
func TestConvertBatchReachesTheReadPath(t *testing.T) {
	served, pruned, total := 0, 0, 0
	for seed := int64(1); seed <= 10; seed++ {
		dir := t.TempDir()
		args, err := gen.New(seed).Batch("convert", 30).Write(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		oracle.Run(context.Background(), oracle.Env{Dir: dir, Stdout: &out}, args)
		for _, l := range strings.Split(out.String(), "\n") {
			if l == "" {
				continue
			}
			total++
			if !strings.Contains(l, `"object":null`) {
				served++
			}
			if !strings.Contains(l, `"pruned":[]`) {
				pruned++
			}
		}
	}
	t.Logf("%d objects, %d served, %d losing fields", total, served, pruned)
	if served*4 < total || pruned*10 < total {
		t.Errorf("%d objects: only %d served, %d losing fields", total, served, pruned)
	}
}
