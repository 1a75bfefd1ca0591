package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crdschema/crdschema/internal/golden"
	"github.com/crdschema/crdschema/internal/shareddata"
)

// signalWriter is a stdout that says when what was written contains want.
type signalWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, err
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// migrate streams: the line of the first object stored is written before
// the second is read (memory holds one object at a time), here from a
// pipe the test writes the second object to only once it has seen that
// line. Each document ends with "---", which ends it for the reader, and
// a comment before the first fills the reader's first look at the input
// (512 bytes, to tell JSON from YAML).
func TestMigrateStreams(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "cli"))
	gizmo := func(name, version string) string {
		return fmt.Sprintf("apiVersion: toys.crdschema.dev/%s\nkind: Gizmo\nmetadata: {name: %s, namespace: toys}\nspec:\n  from: [{kind: Sprocket}]\n---\n", version, name)
	}
	r, w := io.Pipe()
	out := &signalWriter{want: "Gizmo/first: migrated", seen: make(chan struct{})}
	var errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run([]string{"migrate", "--crd", "migrate/new", "-"}, r, out, &errb)
	}()
	if _, err := io.WriteString(w, "#"+strings.Repeat(" padding", 80)+"\n"+gizmo("first", "v1beta1")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-out.seen:
	case <-time.After(time.Minute):
		t.Fatalf("no line for the first object before the input ends:\n%s", out.String())
	}
	if _, err := io.WriteString(w, gizmo("second", "v1")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if status := <-done; status != 0 || errb.Len() > 0 {
		t.Fatalf("exit %d, stderr %s", status, errb.String())
	}
	for _, want := range []string{
		"-:1: Gizmo/first: migrated v1beta1 -> v1\n",
		"-:8: Gizmo/second: migrated: already stored at v1, rewritten\n",
		"crdschema: safe: 2 objects migrate with nothing lost",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in\n%s", want, out.String())
		}
	}
}

// A thousand stored objects in one stream: each is migrated and counted,
// and the findings of the last are on its own line.
func TestMigrateManyObjects(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "cli"))
	var stream strings.Builder
	for i := range 1000 {
		extra := ""
		if i == 999 {
			extra = "  maxReplicas: 9\n"
		}
		fmt.Fprintf(&stream, "---\napiVersion: toys.crdschema.dev/v1alpha1\nkind: Gadget\nmetadata: {name: g%d, namespace: toys}\nspec:\n  config: c\n%s", i, extra)
	}
	var out, errb bytes.Buffer
	status := run([]string{"migrate", "--crd", "migrate/toys", "-"}, strings.NewReader(stream.String()), &out, &errb)
	if status != 1 || errb.Len() > 0 {
		t.Fatalf("exit %d, stderr %s", status, errb.String())
	}
	for _, want := range []string{
		"-:5996: Gadget/g999: data loss: spec.maxReplicas lost on read at v1alpha1\n",
		": 1000 objects: 999 migrated, 1 losing data, 0 failing, 0 not checked, 0 not migrated;",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in\n%s", want, tail(out.String(), 2000))
		}
	}
}

// TestMigrateCorpusGolden runs the golden cases of migrate on real
// multi-version CRDs (testdata/cli/corpus-cases/*.yaml), read from the
// shared corpus beside the checkout ($CORPUS in the arguments), never
// copied into the repository; the stored objects are ours. Without the
// corpus it skips, saying so (fails under CRDSCHEMA_REQUIRE_SHARED=1).
// The same shapes are covered without it by the cases on the made-up
// CRDs of testdata/cli/migrate.
func TestMigrateCorpusGolden(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "cli"))
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := filepath.Abs(shareddata.Dir(t, "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	golden.Run(t, filepath.Join(dir, "corpus-cases"), func(t *testing.T, path string, data []byte) string {
		return runCase(t, dir, data, map[string]string{"CORPUS": corpus})
	})
}
