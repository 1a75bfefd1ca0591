// Package bench holds side-by-side benchmarks of crdschema and the code it
// reproduces, k8s.io/apiextensions-apiserver v0.37.2, run on the same inputs
// in one process: CRD decoding and checking, pruning, dropping nulls and
// defaulting, value validation and the whole create pipeline, on the
// real-world corpus beside the checkout (../shared/corpus) and on generated
// objects of growing size.
//
// Every benchmark has a crdschema and a reference sub-benchmark with the same
// name otherwise, so that their lines pair up:
//
//	BenchmarkPrune/corpus/crdschema
//	BenchmarkPrune/corpus/reference
//
// Run them all and write BENCHMARKS.md at the repository root with
//
//	cd bench && go run ./cmd/report
//
// This is a separate Go module so that the library never depends on the
// apiserver. Without the corpus the benchmarks skip with a message.
package bench
