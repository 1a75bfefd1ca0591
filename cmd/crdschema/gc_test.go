package main

import (
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// TestDeferGC runs deferGC in a process of its own (it sets the runtime's
// collection settings for the whole process): no collection while the
// heap stays well below gcStartBytes, then the default pacing back once
// the heap passes it; a GOGC the user set is left alone.
func TestDeferGC(t *testing.T) {
	if mode := os.Getenv("CRDSCHEMA_TEST_DEFERGC"); mode != "" {
		deferGCChild(t, mode)
		return
	}
	for _, tc := range []struct{ name, env string }{
		{"default", "CRDSCHEMA_TEST_DEFERGC=deferred"},
		{"GOGC set", "CRDSCHEMA_TEST_DEFERGC=user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestDeferGC$", "-test.v")
			cmd.Env = append(withoutGCSettings(os.Environ()), tc.env)
			if tc.env == "CRDSCHEMA_TEST_DEFERGC=user" {
				cmd.Env = append(cmd.Env, "GOGC=50")
			}
			if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "PASS") {
				t.Fatalf("child process: %v\n%s", err, out)
			}
		})
	}
}

// withoutGCSettings is env without GOGC and GOMEMLIMIT.
func withoutGCSettings(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
			out = append(out, kv)
		}
	}
	return out
}

var gcSink []byte

func deferGCChild(t *testing.T, mode string) {
	deferGC()
	if mode == "user" {
		if old := debug.SetGCPercent(50); old != 50 {
			t.Fatalf("GOGC=50 set by the user: deferGC changed the GC percent to %d", old)
		}
		return
	}
	numGC := func() uint32 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.NumGC
	}
	before := numGC()
	allocate := func(total int) {
		for range total >> 16 {
			gcSink = make([]byte, 1<<16)
		}
	}
	allocate(16 << 20)
	if n := numGC(); n != before {
		t.Fatalf("%d collections within 16 MiB of garbage, want none before %d MiB", n-before, gcStartBytes>>20)
	}
	allocate(4 * gcStartBytes)
	if numGC() == before {
		t.Fatalf("no collection after %d MiB of garbage", 4*gcStartBytes>>20)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		percent := debug.SetGCPercent(-1)
		debug.SetGCPercent(percent)
		limit := debug.SetMemoryLimit(-1)
		if percent == 100 && limit == math.MaxInt64 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the first collection: GC percent %d, memory limit %d; want the default pacing (100, none)", percent, limit)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
