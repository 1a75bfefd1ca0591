// Package golden runs the project's golden-file tests: every
// <dir>/<case>.yaml is rendered to text by the test and compared with
// <dir>/<case>.golden. With -update the golden files are rewritten instead;
// review their diff before committing.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files (then review the diff)")

// Run calls render for every <dir>/*.yaml case, in a subtest named after the
// case, and compares what it returns with the case's .golden file. It fails
// when dir holds no case.
func Run(t *testing.T, dir string, render func(t *testing.T, path string, data []byte) string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases in %s: %v", dir, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := render(t, f, data)
			path := strings.TrimSuffix(f, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := Diff(string(want), got); diff != "" {
				t.Errorf("%s differs (-want +got):\n%s", path, diff)
			}
		})
	}
}

// Diff returns a line diff of two renderings (-want +got), "" when they are
// equal: a failing golden test shows what changed, not both outputs whole.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	return cmp.Diff(strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n"))
}
