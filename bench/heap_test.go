package bench

import (
	"errors"
	"runtime"
	"testing"

	"github.com/crdschema/crdschema"
)

// BenchmarkCRDHeap loads every corpus CRD through the public API and
// reports what stays on the heap while the CRDs are held (heap-MB: live
// heap after a collection, less the live heap before loading):
//   - errors: after CRD.Errors only, as the command's check, crdfake and a
//     webhook leave the many CRDs they load and do not touch;
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
	}{{"errors", true, false}, {"errors+versions", true, true}, {"versions", false, true}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			var live float64
			for b.Loop() {
				live = liveHeapOf(b, func() any { return loadAll(b, c, tc.errors, tc.versions) })
			}
			b.ReportMetric(live/(1<<20), "heap-MB")
		})
	}
}

// liveHeapOf returns how much more live heap there is while the result of
// load is held than before it ran (after a collection each time).
func liveHeapOf(b *testing.B, load func() any) float64 {
	b.StopTimer()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.StartTimer()
	held := load()
	b.StopTimer()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(held)
	b.StartTimer()
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
