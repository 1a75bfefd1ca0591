package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// withBudget runs f, giving up after d (no limit when d is 0): it then
// says so on stderr and returns 2 while f may still be running; f's later
// output is discarded, so a line is either written whole or not at all.
// The command exits right after, which stops f; no Go code can interrupt
// a regular expression match in progress otherwise.
func withBudget(d time.Duration, stdout, stderr io.Writer, f func(stdout, stderr io.Writer) int) int {
	if d <= 0 {
		return f(stdout, stderr)
	}
	g := &gate{}
	done := make(chan int, 1)
	go func() { done <- f(g.writer(stdout), g.writer(stderr)) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case status := <-done:
		return status
	case <-t.C:
		g.close()
		fmt.Fprintf(stderr, "crdschema: stopped after %v, the time budget (--timeout); the output above is complete for the documents it covers\n", d)
		return 2
	}
}

// gate passes writes through until it is closed, and drops them after.
type gate struct {
	mu     sync.Mutex
	closed bool
}

func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

func (g *gate) writer(w io.Writer) io.Writer { return gateWriter{g, w} }

type gateWriter struct {
	g *gate
	w io.Writer
}

func (w gateWriter) Write(p []byte) (int, error) {
	w.g.mu.Lock()
	defer w.g.mu.Unlock()
	if w.g.closed {
		return len(p), nil
	}
	return w.w.Write(p)
}
