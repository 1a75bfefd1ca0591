//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// usage is a finished child's CPU time (user + system) and peak RSS in
// bytes (maxrss is in KiB, in bytes on Darwin).
func usage(ps *os.ProcessState) (time.Duration, int64) {
	cpu := ps.UserTime() + ps.SystemTime()
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return cpu, 0
	}
	if runtime.GOOS == "darwin" {
		return cpu, int64(ru.Maxrss)
	}
	return cpu, int64(ru.Maxrss) << 10
}
