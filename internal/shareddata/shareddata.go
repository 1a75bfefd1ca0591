// Package shareddata finds the shared test data of the development tree for
// tests: the directory "shared" beside the checkout (../shared from the
// module root), with the real-world corpus (corpus/), the conformance
// batches and the apiserver's answers (conformance/) and the findings.
//
// Tests that need it call Dir. Without the data they skip with a message,
// so that `go test ./...` passes on a bare clone; with the environment
// variable CRDSCHEMA_REQUIRE_SHARED=1 (set by .ci/run, where the data is
// always present) they fail instead, so a parity suite can never silently
// vanish from CI. Path is for tests that only use the data when present.
package shareddata

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// RequireEnv is the environment variable that turns a missing shared
// directory into a test failure.
const RequireEnv = "CRDSCHEMA_REQUIRE_SHARED"

// root is the shared directory: beside the module root, which is two
// levels above this file.
func root() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("..", "shared")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared")
}

// Path returns the path of elem inside the shared data and whether it
// exists.
func Path(elem ...string) (string, bool) {
	p := filepath.Join(append([]string{root()}, elem...)...)
	_, err := os.Stat(p)
	return p, err == nil
}

// Dir returns the path of elem inside the shared data. When it does not
// exist the test is skipped with a message, or fails when RequireEnv is
// set to 1.
func Dir(tb testing.TB, elem ...string) string {
	tb.Helper()
	p, ok := Path(elem...)
	if !ok {
		Missing(tb, p)
	}
	return p
}

// Missing skips the test because the shared data at p is absent, or fails
// it when RequireEnv is set to 1.
func Missing(tb testing.TB, p string) {
	tb.Helper()
	if os.Getenv(RequireEnv) == "1" {
		tb.Fatalf("shared test data missing at %s (%s=1: it must be present)", p, RequireEnv)
	}
	tb.Skipf("shared test data not found at %s: skipping (it sits beside the checkout in CI)", p)
}

// Optional returns the path of elem inside the shared data, for a test
// that also reads inputs elsewhere; "" when it does not exist: the test
// goes on without those inputs and logs that it does, or fails when
// RequireEnv is set to 1.
func Optional(tb testing.TB, elem ...string) string {
	tb.Helper()
	p, ok := Path(elem...)
	switch {
	case ok:
		return p
	case os.Getenv(RequireEnv) == "1":
		tb.Fatalf("shared test data missing at %s (%s=1: it must be present)", p, RequireEnv)
	}
	tb.Logf("shared test data not found at %s: its inputs are not compared (it sits beside the checkout in CI)", p)
	return ""
}
