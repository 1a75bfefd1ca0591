package crdschema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/golden"
	"github.com/crdschema/crdschema/internal/shareddata"
)

// TestUpdateGolden applies every update pair of each testdata/update case
// (a CRD, then pairs of stored object and update; a pair whose name starts
// with "status-" is a status update) and compares the results with
// <case>.golden (rewrite with -update, then review the diff).
func TestUpdateGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "update"), func(t *testing.T, f string, _ []byte) string {
		s, objs := loadCase(t, f)
		if len(objs)%2 != 0 {
			t.Fatalf("%s: %d objects, want pairs of stored object and update", f, len(objs))
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		for i := 0; i < len(objs); i += 2 {
			old, obj := objs[i], objs[i+1]
			r := s.ApplyUpdate(obj, old)
			if name, _ := obj["metadata"].(map[string]any)["name"].(string); strings.HasPrefix(name, "status-") {
				r = s.ApplyStatusUpdate(obj, old)
			}
			if err := enc.Encode(render(r)); err != nil {
				t.Fatal(err)
			}
		}
		return buf.String()
	})
}

// TestUpdateInputsNotChanged: ApplyUpdate and ApplyStatusUpdate leave both
// objects alone and share nothing with them.
func TestUpdateInputsNotChanged(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "update", "*.yaml"))
	for _, f := range files {
		s, objs := loadCase(t, f)
		for i := 0; i+1 < len(objs); i += 2 {
			old, obj := objs[i], objs[i+1]
			oldBefore, objBefore := deepCopyMap(old), deepCopyMap(obj)
			for _, r := range []Result{s.ApplyUpdate(obj, old), s.ApplyStatusUpdate(obj, old)} {
				if r.Object != nil {
					markAll(r.Object)
				}
			}
			if !reflect.DeepEqual(old, oldBefore) || !reflect.DeepEqual(obj, objBefore) {
				t.Errorf("%s pair %d: input changed", f, i/2)
			}
		}
	}
}

// markAll writes into every map of v, so that sharing with an input shows.
func markAll(v any) {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			markAll(e)
		}
		x["__mark"] = true
	case []any:
		for _, e := range x {
			markAll(e)
		}
	}
}

// TestUpdateConcurrentUse runs updates and status updates on one compiled
// schema from many goroutines (run with -race): the status validator is
// built on first use.
func TestUpdateConcurrentUse(t *testing.T) {
	s, objs := loadCase(t, filepath.Join("testdata", "update", "status.yaml"))
	run := func() string {
		var b strings.Builder
		for i := 0; i+1 < len(objs); i += 2 {
			for _, r := range []Result{s.ApplyUpdate(objs[i+1], objs[i]), s.ApplyStatusUpdate(objs[i+1], objs[i])} {
				data, err := json.Marshal(render(r))
				if err != nil {
					t.Error(err)
				}
				b.Write(data)
			}
		}
		return b.String()
	}
	results := make(chan string, 8)
	for g := 0; g < 8; g++ {
		go func() { results <- run() }()
	}
	first := <-results
	for g := 1; g < 8; g++ {
		if got := <-results; got != first {
			t.Errorf("goroutines disagree:\n%s\n%s", got, first)
		}
	}
}

// TestUpdateUnnamedStoredObject: a stored object and an update that both
// carry metadata {name: ""} print no metadata (the apiserver's answer,
// ../shared/findings/update-unnamed-stored-object), while a create of the
// same object keeps "metadata": {}.
func TestUpdateUnnamedStoredObject(t *testing.T) {
	dir := shareddata.Dir(t, "findings", "update-unnamed-stored-object", "001582")
	var all []byte
	for _, f := range []string{"crd.yaml", "old.yaml", "object.yaml"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		all = append(append(all, "---\n"...), data...)
	}
	file := filepath.Join(t.TempDir(), "case.yaml")
	if err := os.WriteFile(file, all, 0o600); err != nil {
		t.Fatal(err)
	}
	s, objs := loadCase(t, file)
	if len(objs) != 2 {
		t.Fatalf("%d objects, want 2", len(objs))
	}
	if r := s.ApplyUpdate(objs[1], objs[0]); r.Object == nil {
		t.Fatalf("update: no object: %v", r.Errors)
	} else if m, ok := r.Object["metadata"]; ok {
		t.Errorf("update: metadata %v, want none", m)
	}
	if r := s.Apply(objs[1]); r.Object == nil {
		t.Fatalf("create: no object: %v", r.Errors)
	} else if m, ok := r.Object["metadata"].(map[string]any); !ok || len(m) != 0 {
		t.Errorf("create: metadata %v, want {}", r.Object["metadata"])
	}
	named := deepCopyMap(objs[1])
	named["metadata"] = map[string]any{"name": "x"}
	if r := s.ApplyUpdate(named, named); !reflect.DeepEqual(r.Object["metadata"], map[string]any{"name": "x"}) {
		t.Errorf("named update: metadata %v, want {name: x}", r.Object["metadata"])
	}
}
