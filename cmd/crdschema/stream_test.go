package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/schema"
)

// readWhole is a file read whole: its documents, then the errors of those
// that cannot be read.
func readWhole(t *testing.T, name string, data []byte) []string {
	docs, err := crdschema.ReadDocuments(name, data)
	var errs schema.InputErrors
	var one *schema.InputError
	var out []string
	switch {
	case errors.As(err, &errs):
	case errors.As(err, &one):
		return []string{"stream error: " + one.Error()}
	case err != nil:
		t.Fatal(err)
	}
	for _, d := range docs {
		out = append(out, fmt.Sprintf("%d@%d %s", d.Index, d.Line, d.JSON()))
	}
	for _, e := range errs {
		out = append(out, "error "+e.Error())
	}
	return out
}

// readStreamed is the same file read by the command, one document at a
// time, in the same order as readWhole.
func readStreamed(t *testing.T, name string) []string {
	var out, errs []string
	in := &inputs{}
	err := in.read(name, func(d crdschema.Document, derr *schema.InputError) error {
		if derr == nil && len(d.Text) == 0 {
			t.Errorf("%s: document %d at line %d has no text", name, d.Index, d.Line)
		}
		if derr != nil {
			errs = append(errs, "error "+derr.Error())
			return nil
		}
		out = append(out, fmt.Sprintf("%d@%d %s", d.Index, d.Line, d.JSON()))
		return nil
	})
	var ie *schema.InputError
	if errors.As(err, &ie) {
		return []string{"stream error: " + ie.Error()}
	}
	return append(out, errs...)
}

// TestStreamMatchesWholeRead: reading a file document by document gives
// the documents, numbers, lines and errors of reading it whole, on the
// command's test inputs and on every file of the shared corpus.
func TestStreamMatchesWholeRead(t *testing.T) {
	files := []string{}
	for _, root := range []string{"testdata", filepath.Join("..", "..", "testdata")} {
		files = append(files, yamlFiles(t, root)...)
	}
	corpus, ok := shareddata.Path("corpus")
	if ok {
		files = append(files, yamlFiles(t, corpus)...)
	}
	extra := filepath.Join(t.TempDir(), "mixed.yaml")
	if err := os.WriteFile(extra, []byte("a: 1\n---\n{\"b\": [1,\n---\n[1, 2]\n--- # c\nkind: FooList\nitems: [{a: 1}, 3, {b: 2}]\n---\n\n---\n{x: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, extra)
	if len(files) < 50 {
		t.Fatalf("only %d files found", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, got := readWhole(t, f, data), readStreamed(t, f)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: streamed\n%s\nwhole\n%s", f, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func yamlFiles(t *testing.T, root string) []string {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch filepath.Ext(p) {
		case ".yaml", ".yml", ".json":
			if d.Type().IsRegular() {
				out = append(out, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStreamingMemory (opt-in: CRDSCHEMA_MEMTEST=1) runs the built command
// on a 29 MB file of 200,000 small custom resources and checks that its
// peak RSS stays under 150 MB (714 MB when the file was read whole). It
// logs the time to the first output line and in all.
func TestStreamingMemory(t *testing.T) {
	if os.Getenv("CRDSCHEMA_MEMTEST") != "1" {
		t.Skip("opt-in: CRDSCHEMA_MEMTEST=1 (builds the command, writes a 29 MB file)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "crdschema")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range 200000 {
		fmt.Fprintf(w, "---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ct-%d\nspec:\n  cronSpec: \"* * * * */%d\"\n  image: img-%d\n  replicas: %d\n", i, i%9+1, i, i%12)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cmd := exec.Command(bin, "apply", "-o", "json", "--crd", filepath.Join("..", "..", "testdata", "examples", "crds", "crontab-crd.yaml"), big)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	lines := 0
	var first time.Duration
	for sc.Scan() {
		if lines == 0 {
			first = time.Since(start)
		}
		lines++
	}
	_ = cmd.Wait()                                              // exit 1: replicas over 10 are invalid
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
	t.Logf("%d lines, first after %v, all after %v, peak RSS %d MiB", lines, first, time.Since(start), rss>>10)
	if lines != 200000 {
		t.Errorf("%d output lines, want 200000", lines)
	}
	if rss > 150<<10 {
		t.Errorf("peak RSS %d MiB, want under 150 MiB", rss>>10)
	}
}

// benchInput writes n small custom resources to a file.
func benchInput(b *testing.B, n int) string {
	var sb strings.Builder
	for i := range n {
		fmt.Fprintf(&sb, "---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ct-%d\nspec:\n  cronSpec: \"* * * * */%d\"\n  image: img-%d\n  replicas: %d\n", i, i%9+1, i, i%12)
	}
	f := filepath.Join(b.TempDir(), "big.yaml")
	if err := os.WriteFile(f, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkReadWhole is how the command read a file before streaming:
// whole, then every document at once.
func BenchmarkReadWhole(b *testing.B) {
	f := benchInput(b, 20000)
	b.ReportAllocs()
	for b.Loop() {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := crdschema.ReadDocuments(f, data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadStreamed reads the same file one document at a time.
func BenchmarkReadStreamed(b *testing.B) {
	f := benchInput(b, 20000)
	in := &inputs{}
	b.ReportAllocs()
	for b.Loop() {
		if err := in.read(f, func(crdschema.Document, *schema.InputError) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOpenSaysFileSize: a regular file is opened as a reader whose Len is
// what it has left to read (through the input limit too), so that
// schema.Documents sizes its buffers to the file (issue 32: 64 KiB for
// every 2 KiB example file otherwise); standard input says nothing.
func TestOpenSaysFileSize(t *testing.T) {
	name := filepath.Join(t.TempDir(), "obj.yaml")
	data := []byte("kind: A\napiVersion: x/v1\n")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	type lener interface{ Len() int }
	for _, in := range []*inputs{{}, {max: 1 << 20}} {
		r, closeFn, err := in.open(name)
		if err != nil {
			t.Fatal(err)
		}
		l, ok := r.(lener)
		if !ok || l.Len() != len(data) {
			t.Errorf("max %d: reader %T, want a Len of %d", in.max, r, len(data))
		}
		if _, err := r.Read(make([]byte, 5)); err != nil {
			t.Fatal(err)
		}
		if ok && l.Len() != len(data)-5 {
			t.Errorf("max %d: Len %d after reading 5 bytes, want %d", in.max, l.Len(), len(data)-5)
		}
		closeFn()
	}
	// A pipe says nothing (io.MultiReader hides strings.Reader's Len).
	r, _, err := (&inputs{stdin: io.MultiReader(strings.NewReader("a: 1\n")), max: 1 << 20}).open("-")
	if err != nil {
		t.Fatal(err)
	}
	if l, ok := r.(lener); ok && l.Len() < 64<<10 {
		t.Errorf("standard input through the limit: Len %d, want none or at least 64 KiB", l.Len())
	}
}
