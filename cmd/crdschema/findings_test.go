package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/shareddata"
)

// TestSharedFindingsAnswers replays the parity reproducers of
// ../shared/findings (read there, not copied: regression cases 10 and 11
// are inputs of our own with the same shapes) and compares the command's
// answers with the apiserver's (oracle.json), as TestRegressions does: a
// convert read that fails on a malformed embedded resource still lists
// what it pruned (convert-failed-read-pruned/NN, the arguments in
// args.txt), and which stored CRD counts as already having unpruned
// defaults (crd-update-pruned-defaults, check --old). Every reproducer
// failed before those fixes.
func TestSharedFindingsAnswers(t *testing.T) {
	t.Parallel()
	type finding struct {
		dir, verb string
		args      []string
	}
	var cases []finding
	convert, err := filepath.Abs(shareddata.Dir(t, "findings", "convert-failed-read-pruned"))
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob(filepath.Join(convert, "[0-9]*"))
	if len(dirs) == 0 {
		shareddata.Missing(t, filepath.Join(convert, "[0-9]*"))
	}
	for _, dir := range dirs {
		extra, err := os.ReadFile(filepath.Join(dir, "args.txt"))
		if err != nil {
			t.Fatal(err)
		}
		args := append(append([]string{"convert", "--crd", "crd.yaml"}, strings.Fields(string(extra))...), "-o", "json", "object.yaml")
		cases = append(cases, finding{dir, "convert", args})
	}
	update, err := filepath.Abs(shareddata.Dir(t, "findings", "crd-update-pruned-defaults"))
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, finding{update, "check", []string{"check", "-o", "json", "--old", "old.yaml", "new.yaml"}})
	for _, c := range cases {
		name, _ := filepath.Rel(filepath.Dir(convert), c.dir)
		want, err := os.ReadFile(filepath.Join(c.dir, "oracle.json"))
		if err != nil {
			t.Fatal(err)
		}
		got, status := runIn(t, c.dir, c.args)
		tl := &tally{}
		if status != 1 { // every answer holds errors
			tl.fail("exit %d, want 1", status)
		}
		compareLines(c.verb, parseLines(t, got), parseLines(t, want), allErrors, tl)
		report(t, name, tl)
	}
}
