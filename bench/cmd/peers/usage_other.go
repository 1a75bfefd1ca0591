//go:build !unix

package main

import (
	"os"
	"time"
)

// usage is a finished child's CPU time; its peak RSS is not known here.
func usage(ps *os.ProcessState) (time.Duration, int64) {
	return ps.UserTime() + ps.SystemTime(), 0
}
