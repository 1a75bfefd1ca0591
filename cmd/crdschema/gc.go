package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// gcStartBytes is the memory the command grows to before its first
// garbage collection. Most runs (one project's CRDs and objects) end
// below it and never collect; a larger run collects once there and is
// paced as GOGC=100 from then on. The runtime's default starts collecting
// at 4 MB and collected 5 to 12 times per corpus project, a fifth of the
// command's CPU in bench/cmd/peers' run (issue 32); 48 MiB leaves the
// peak RSS of that run's largest project (argo-workflows, whose live heap
// ends near 40 MB) where the default pacing has it.
const gcStartBytes = 48 << 20

// deferGC holds garbage collection off until the process's memory reaches
// gcStartBytes, then hands pacing back to the runtime's default (GOGC=100,
// no memory limit). A GOGC or GOMEMLIMIT the user set is left to rule.
func deferGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(gcStartBytes)
	// The first collection, forced by the limit, finds the sentinel
	// unreachable and runs the cleanup.
	sentinel := new([64]byte)
	runtime.AddCleanup(sentinel, func(struct{}) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}, struct{}{})
}
