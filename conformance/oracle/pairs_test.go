package oracle_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/conformance/oracle"
)

// probeAnswer is the oracle's JSON line for one object of apply.
type probeAnswer struct {
	Object map[string]any    `json:"object"`
	Pruned []string          `json:"pruned"`
	Errors []json.RawMessage `json:"errors"`
}

// applyProbe runs oracle apply with args and returns its one answer.
func applyProbe(t *testing.T, args ...string) probeAnswer {
	t.Helper()
	var out, errOut bytes.Buffer
	oracle.Run(context.Background(), oracle.Env{Stdout: &out, Stderr: &errOut}, append([]string{"apply", "-o", "json"}, args...))
	var a probeAnswer
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &a); err != nil {
		t.Fatalf("oracle apply %v: %v\n%s%s", args, err, out.String(), errOut.String())
	}
	return a
}

// TestMadeUpPairProbes checks the classes of the made-up release pairs
// (../../revision/testdata/pairs, scored against revision.Changes by
// TestReleasePairs there) with the apiserver's own code: for each probe,
// a manifest the old revision accepts is created under the old and the
// new revision, updated unchanged under the new one and, when the probe
// has changed.yaml, updated with it under both. The class those answers
// show must be the probe's.
func TestMadeUpPairProbes(t *testing.T) {
	probes, _ := filepath.Glob(filepath.Join("..", "..", "revision", "testdata", "pairs", "*", "probes", "*", "probe.json"))
	if len(probes) == 0 {
		t.Fatal("no probes of the made-up pairs")
	}
	for _, p := range probes {
		dir := filepath.Dir(p)
		pair := filepath.Dir(filepath.Dir(dir))
		t.Run(filepath.Base(pair)+"/"+filepath.Base(dir), func(t *testing.T) {
			var want struct{ Class string }
			data, err := os.ReadFile(p)
			if err == nil {
				err = json.Unmarshal(data, &want)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := probeClass(t, pair, dir); got != want.Class {
				t.Errorf("the apiserver's answers show %s, the probe says %s", got, want.Class)
			}
		})
	}
}

// probeClass is the class the apiserver's answers to one probe show.
func probeClass(t *testing.T, pair, dir string) string {
	old, next := filepath.Join(pair, "old"), filepath.Join(pair, "new")
	manifest, changed := filepath.Join(dir, "manifest.yaml"), filepath.Join(dir, "changed.yaml")
	createOld := applyProbe(t, "--crd", old, manifest)
	if len(createOld.Errors) > 0 {
		t.Fatalf("the old revision refuses the manifest: %s", createOld.Errors)
	}
	createNew := applyProbe(t, "--crd", next, manifest)
	unchanged := applyProbe(t, "--crd", next, "--old", manifest, manifest)
	if _, err := os.Stat(changed); err == nil {
		if applyOld := applyProbe(t, "--crd", old, "--old", manifest, changed); len(applyOld.Errors) == 0 {
			if applyNew := applyProbe(t, "--crd", next, "--old", manifest, changed); len(applyNew.Errors) > 0 {
				return "breaking" // a change the old revision accepts is refused
			}
		}
	}
	switch {
	case len(createNew.Pruned) > 0:
		return "data-loss"
	case len(createNew.Errors) > 0 && len(unchanged.Errors) == 0:
		return "ratcheted"
	case len(createNew.Errors) > 0:
		return "breaking"
	case changedOrRemoved(createOld.Object["spec"], createNew.Object["spec"]):
		return "default-changed" // the same manifest stores another value
	}
	return "safe"
}

// changedOrRemoved reports whether a field of the old object is missing
// or different in the new one (fields only the new one has do not count).
func changedOrRemoved(old, next any) bool {
	o, ok1 := old.(map[string]any)
	n, ok2 := next.(map[string]any)
	if !ok1 || !ok2 {
		return !reflect.DeepEqual(old, next)
	}
	for k, v := range o {
		if w, ok := n[k]; !ok || changedOrRemoved(v, w) {
			return true
		}
	}
	return false
}
