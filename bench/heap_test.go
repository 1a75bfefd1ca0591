package bench

import (
	"bytes"
	"errors"
	"runtime"
	"testing"

	"github.com/crdschema/crdschema"
)

// BenchmarkCRDHeap loads every corpus CRD through the public API and
// reports what stays on the heap while the CRDs are held (heap-MB: live
// heap after a collection, less the live heap before loading):
//   - load: after LoadCRDs only;
//   - errors: after CRD.Errors only, as the command's check, crdfake and a
//     webhook leave the many CRDs they load and do not touch. It fails
//     when that is more than errorsHeapSlack above load's, measured in
//     the same run: Errors keeps nothing the check built;
//   - errors+versions: after Errors, then CRD.Version of every served
//     version (crdfake's and the command's order);
//   - versions: after CRD.Version of every served version, first (which
//     checks the CRD on the way).
//
// Allocations per op are those of the whole load.
func BenchmarkCRDHeap(b *testing.B) {
	c := loadCorpus(b)
	for _, tc := range []struct {
		name             string
		errors, versions bool
	}{{"load", false, false}, {"errors", true, false}, {"errors+versions", true, true}, {"versions", false, true}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			var live float64
			for b.Loop() {
				live = liveHeapOf(b, func() any { return loadAll(b, c, tc.errors, tc.versions) })
			}
			b.ReportMetric(live/(1<<20), "heap-MB")
			if tc.name == "errors" {
				// The bound, for bench/cmd/report to state.
				b.ReportMetric(errorsHeapSlack*100, "slack-%")
				checkErrorsKeepNothing(b, c.crds, live)
			}
		})
	}
}

// errorsHeapSlack is how much more live heap the CRDs may hold after
// Errors than after LoadCRDs alone: the errors themselves. With the
// check's models and compile results kept it was 91% (76.5 → 143 MB for
// the corpus); with nothing kept, 0.3% (74.7 → 74.9 MB).
const errorsHeapSlack = 0.05

// checkErrorsKeepNothing fails tb when errorsLive, the live heap of crds
// loaded and held after Errors, is more than errorsHeapSlack above the
// live heap of the same CRDs after LoadCRDs alone.
func checkErrorsKeepNothing(tb testing.TB, crds []*crdFile, errorsLive float64) {
	tb.Helper()
	c := &corpus{crds: crds}
	loadLive := liveHeap(func() any { return loadAll(tb, c, false, false) })
	tb.Logf("%d CRD files held: %.1f MB after LoadCRDs, %.1f MB after Errors", len(crds), loadLive/(1<<20), errorsLive/(1<<20))
	if errorsLive > loadLive*(1+errorsHeapSlack) {
		tb.Errorf("Errors keeps what the check built: %.1f MB live after Errors, %.1f MB after LoadCRDs alone (more than %.0f%% above)", errorsLive/(1<<20), loadLive/(1<<20), errorsHeapSlack*100)
	}
}

// TestErrorsKeepNothing is BenchmarkCRDHeap's check on the corpus CRDs
// with CEL rules (whose compile results are the largest thing the check
// builds), run by go test.
func TestErrorsKeepNothing(t *testing.T) {
	var withRules []*crdFile
	for _, f := range loadCorpus(t).crds {
		if bytes.Contains(f.yaml, []byte("x-kubernetes-validations:")) {
			withRules = append(withRules, f)
		}
	}
	if len(withRules) == 0 {
		t.Fatal("no corpus CRD with CEL rules")
	}
	c := &corpus{crds: withRules}
	checkErrorsKeepNothing(t, withRules, liveHeap(func() any { return loadAll(t, c, true, false) }))
}

// liveHeapOf is liveHeap with b's timer running only while load runs.
func liveHeapOf(b *testing.B, load func() any) float64 {
	b.StopTimer()
	defer b.StartTimer()
	return liveHeap(func() any {
		b.StartTimer()
		defer b.StopTimer()
		return load()
	})
}

// liveHeap returns how much more live heap there is while the result of
// load is held than before it ran (after a collection each time).
func liveHeap(load func() any) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	held := load()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(held)
	return float64(after.HeapAlloc) - float64(before.HeapAlloc)
}

// loadAll loads every corpus CRD and, with errs, calls Errors on each;
// then, with versions, Version of each served version (a rejected CRD's
// RejectedError is expected). It returns the CRDs.
func loadAll(tb testing.TB, c *corpus, errs, versions bool) []*crdschema.CRD {
	var all []*crdschema.CRD
	for _, f := range c.crds {
		crds, err := crdschema.LoadCRDs(f.name, f.yaml)
		if err != nil {
			tb.Fatal(err)
		}
		for _, crd := range crds {
			if errs {
				_ = crd.Errors()
			}
			if !versions {
				continue
			}
			for _, v := range crd.ServedVersions() {
				var rejected *crdschema.RejectedError
				if _, err := crd.Version(v); err != nil && !errors.As(err, &rejected) {
					tb.Fatal(err)
				}
			}
		}
		all = append(all, crds...)
	}
	return all
}
