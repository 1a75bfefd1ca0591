package gen_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/conformance/gen"
	"github.com/crdschema/crdschema/conformance/oracle"
)

// oracleLines writes batch b into a directory of its own and returns the
// oracle's output lines for it.
func oracleLines(t *testing.T, b *gen.Batch) []string {
	t.Helper()
	dir := t.TempDir()
	args, err := b.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	oracle.Run(context.Background(), oracle.Env{Dir: dir, Stdout: &out}, args)
	return strings.FieldsFunc(out.String(), func(r rune) bool { return r == '\n' })
}

// TestConvertBatchReachesTheReadPath checks that generated convert batches
// are not all routing errors: the oracle accepts their CRDs and serves a
// good share of the objects, many of them losing fields on the way.
func TestConvertBatchReachesTheReadPath(t *testing.T) {
	served, pruned, total := 0, 0, 0
	for seed := int64(1); seed <= 10; seed++ {
		for _, l := range oracleLines(t, gen.New(seed).Batch("convert", 30)) {
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

// TestReviewBatchMixesFaults checks that generated reviews are accepted
// and rejected, the rejections at several places.
func TestReviewBatchMixesFaults(t *testing.T) {
	accepted, total := 0, 0
	fields := map[string]bool{}
	for seed := int64(1); seed <= 10; seed++ {
		for _, l := range oracleLines(t, gen.New(seed).Batch("review", 30)) {
			total++
			if strings.Contains(l, `"errors":[]`) {
				accepted++
			} else if i := strings.Index(l, `"field":"`); i >= 0 {
				f := l[i+9:]
				fields[f[:strings.IndexByte(f, '"')]] = true
			}
		}
	}
	t.Logf("%d reviews, %d accepted, rejected at %d distinct fields", total, accepted, len(fields))
	if accepted*5 < total || accepted == total || len(fields) < 8 {
		t.Errorf("%d reviews, %d accepted, rejected at %v", total, accepted, fields)
	}
}

// TestConvertBatchFailsReadsAfterPruning checks that generated convert
// batches hold reads that fail on a malformed embedded resource after
// pruning unknown fields (the oracle's line: a null object, an error at
// an embedded resource's metadata, a pruned list that is not empty), so
// that a difftest run compares such pruned lists. Measured at a CI run's
// size (2,000 cases over 9 verbs: 222 convert cases, about 560 objects),
// ten generators (seeds 1001-1010) made 3-15 such reads each.
func TestConvertBatchFailsReadsAfterPruning(t *testing.T) {
	failed, total := 0, 0
	for seed := int64(1); seed <= 10; seed++ {
		for _, l := range oracleLines(t, gen.New(seed).Batch("convert", 30)) {
			total++
			if strings.Contains(l, `"object":null`) && !strings.Contains(l, `"pruned":[]`) && strings.Contains(l, `.metadata","detail"`) {
				failed++
			}
		}
	}
	t.Logf("%d objects, %d reads failing after pruning", total, failed)
	if failed*200 < total {
		t.Errorf("%d objects, only %d reads failing after pruning", total, failed)
	}
}
