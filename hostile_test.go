package crdschema_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/schema"
)

// Hostile inputs: none may panic, memory stays bounded, bad input gets a
// clear error.

// crontab is the v1 schema of cronTabCRD.
func crontab(t testing.TB) *crdschema.Schema {
	t.Helper()
	crd, err := crdschema.LoadCRD([]byte(cronTabCRD))
	if err != nil {
		t.Fatal(err)
	}
	s, err := crd.Version("v1")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDeeplyNestedDocumentsGiveClearErrors(t *testing.T) {
	const depth = 10000
	for name, doc := range map[string]string{
		"yaml": "a: " + strings.Repeat("[", depth) + strings.Repeat("]", depth),
		"json": `{"a": ` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}",
	} {
		_, err := schema.ReadDocuments("deep."+name, []byte(doc))
		if err == nil {
			t.Errorf("%s nested %d deep: no error", name, depth)
			continue
		}
		if !strings.HasPrefix(err.Error(), "deep."+name+":1:") || !strings.Contains(err.Error(), "depth") {
			t.Errorf("%s: error %q does not name the file, line and the depth", name, err)
		}
	}
}

func TestDeeplyNestedObjectAndSchema(t *testing.T) {
	// Just under the decoders' depth limit: walkers must cope.
	const depth = 4000
	var obj any = "leaf"
	for i := 0; i < depth; i++ {
		obj = map[string]any{"n": obj, "unknown": int64(i)}
	}
	s := crontab(t)
	r := s.Apply(map[string]any{"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "deep"}, "spec": obj})
	if r.Object == nil || len(r.Errors) != 0 {
		t.Fatalf("deep spec: object %v, errors %v", r.Object == nil, r.Errors)
	}
	if got := r.Object["spec"].(map[string]any); len(got) != 2 || got["replicas"] != int64(1) {
		t.Errorf("deep spec not pruned and defaulted: %v", got)
	}

	// A schema nested depth levels deep: built and checked without panic.
	var b strings.Builder
	for i := 0; i < depth/4; i++ {
		b.WriteString(`{"type":"object","properties":{"n":`)
	}
	b.WriteString(`{"type":"string","default":"x"}`)
	for i := 0; i < depth/4; i++ {
		b.WriteString(`}}`)
	}
	deep, err := crdschema.ParseSchema([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if errs := deep.Errors(); len(errs) != 0 {
		t.Errorf("deep schema: %v", errs[0])
	}
	r = deep.Apply(map[string]any{"metadata": map[string]any{"name": "x"}})
	if len(r.Errors) != 0 {
		t.Errorf("deep schema apply: %v", r.Errors)
	}
}

func TestLargeObject(t *testing.T) {
	// About 10 MB of JSON under an unknown field and in a kept string.
	blob := make(map[string]any, 90000)
	for i := 0; i < 90000; i++ {
		blob[fmt.Sprintf("k%d", i)] = strings.Repeat("v", 100)
	}
	obj := map[string]any{"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "big"},
		"spec":     map[string]any{"image": strings.Repeat("i", 1<<20), "blob": blob}}
	if b, _ := json.Marshal(obj); len(b) < 10<<20 {
		t.Fatalf("object is only %d bytes", len(b))
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	r := crontab(t).Apply(obj)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if r.Object == nil || len(r.Errors) != 0 || len(r.Pruned) != 1 || r.Pruned[0] != "spec.blob" {
		t.Fatalf("pruned %v, errors %v", r.Pruned, r.Errors)
	}
	if _, ok := obj["spec"].(map[string]any)["blob"]; !ok {
		t.Errorf("Apply changed its input")
	}
	// Bounded: well under a hundred times the input.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<30 {
		t.Errorf("applying a 10 MB object allocated %d MB", grew>>20)
	}
}

func TestOddKeys(t *testing.T) {
	keys := []string{"a.b", "a[0]", "[", "]", `"q"`, "'", "\\", "/", "~1", "ünï", "日本", " ", "", "\n", "\x00", "a]b", "metadata.name"}
	spec := map[string]any{}
	for _, k := range keys {
		spec[k] = map[string]any{k: k}
	}
	r := crontab(t).Apply(map[string]any{"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "odd"}, "spec": spec})
	if r.Object == nil || len(r.Pruned) != len(keys) {
		t.Fatalf("pruned %d paths %q, want %d", len(r.Pruned), r.Pruned, len(keys))
	}
}

// TestSixtyFourGoroutines applies one compiled schema from 64 goroutines at once;
// run with -race (CI does) to catch shared state.
func TestSixtyFourGoroutines(t *testing.T) {
	s := crontab(t)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 64; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				r := s.Apply(map[string]any{"apiVersion": "stable.example.com/v1", "kind": "CronTab",
					"metadata": map[string]any{"name": fmt.Sprintf("o-%d-%d", g, i)},
					"spec":     map[string]any{"replicas": int64(15), "junk": true}})
				if len(r.Errors) != 1 || len(r.Pruned) != 1 || r.Object["spec"].(map[string]any)["cronSpec"] != "5 0 * * *" {
					errs <- fmt.Sprintf("goroutine %d: %v %v", g, r.Pruned, r.Errors)
					return
				}
				// Mutating one result must not affect the others.
				r.Object["spec"].(map[string]any)["cronSpec"] = "changed"
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestCyclicAndTooDeepObjects: a map that contains itself (library misuse:
// no document decodes to one) or an object nested deeper than the readers
// accept is refused with an error, not a stack overflow in the copy.
func TestCyclicAndTooDeepObjects(t *testing.T) {
	s := crontab(t)
	cyclic := map[string]any{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": map[string]any{"name": "x"}}
	spec := map[string]any{"cronSpec": "* * * * *"}
	spec["loop"] = []any{cyclic}
	cyclic["spec"] = spec
	cyclic["self"] = cyclic
	deep := map[string]any{"apiVersion": "stable.example.com/v1", "kind": "CronTab"}
	var v any = "leaf"
	for i := 0; i < 10001; i++ {
		v = []any{v}
	}
	deep["spec"] = map[string]any{"x": v}
	clean := map[string]any{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": map[string]any{"name": "x"}}
	const want = ": Invalid value: the object is nested more than 10000 levels deep, or contains itself"
	for name, obj := range map[string]map[string]any{"cyclic": cyclic, "deep": deep} {
		for op, r := range map[string]crdschema.Result{
			"Apply":            s.Apply(obj),
			"Prune":            s.Prune(obj),
			"Default":          s.Default(obj),
			"ApplyUpdate(new)": s.ApplyUpdate(obj, clean),
			"ApplyUpdate(old)": s.ApplyUpdate(clean, obj),
		} {
			if r.Object != nil || len(r.Errors) != 1 || r.Errors[0].Error() != want {
				t.Errorf("%s %s: object %v, errors %v", name, op, r.Object != nil, r.Errors)
			}
		}
		if errs := s.Validate(obj); len(errs) != 1 || errs[0].Error() != want {
			t.Errorf("%s Validate: %v", name, errs)
		}
	}
}
