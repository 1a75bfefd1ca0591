package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/shareddata"
)

// served is one line of openapi, columns or scale output, by field.
type served map[string]json.RawMessage

func parseServed(t *testing.T, data []byte) []served {
	t.Helper()
	var out []served
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l served
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("bad JSON line %.200q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	return out
}

// key identifies a line: file, document and, for openapi, the version.
func (l served) key() string {
	return string(l["file"]) + "#" + string(l["document"]) + "#" + string(l["version"])
}

// errorPairs is the set of (type, field) pairs of a line's errors.
func (l served) errorPairs() []string {
	var errs []jsonError
	_ = json.Unmarshal(l["errors"], &errs)
	var out []string
	for _, e := range errs {
		out = append(out, e.Type+" "+e.Field)
	}
	sort.Strings(out)
	return dedupe(out)
}

func dedupe(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// servedResults are the fields compared per verb.
var servedResults = map[string][]string{
	"openapi": {"v3", "v2"},
	"columns": {"columns", "cells"},
	"scale":   {"scale"},
}

// compareServed compares lines by the contract's rules: the results equal
// as JSON and the same set of (type, field) error pairs; a null result
// needs only some error.
func compareServed(verb string, got, want []served, tl *tally) {
	byKey := map[string]served{}
	for _, g := range got {
		byKey[g.key()] = g
	}
	if len(got) != len(want) {
		tl.fail("%d lines, want %d", len(got), len(want))
	}
	for _, w := range want {
		tl.docs++
		g, ok := byKey[w.key()]
		if !ok {
			tl.fail("%s: no line", w.key())
			continue
		}
		if msg := servedDiff(verb, g, w); msg != "" {
			tl.fail("%s: %s", w.key(), msg)
		}
	}
}

func servedDiff(verb string, g, w served) string {
	fields := servedResults[verb]
	if string(w[fields[0]]) == "null" {
		if string(g[fields[0]]) != "null" || len(g.errorPairs()) == 0 {
			return fmt.Sprintf("want a null %s and an error, got %.300s", fields[0], g[fields[0]])
		}
		return ""
	}
	for _, f := range fields {
		if !jsonEqual(g[f], w[f]) {
			return fmt.Sprintf("%s differs:\n got %.600s\nwant %.600s", f, g[f], w[f])
		}
	}
	if gp, wp := g.errorPairs(), w.errorPairs(); strings.Join(gp, ",") != strings.Join(wp, ",") {
		return fmt.Sprintf("errors %v, want %v", gp, wp)
	}
	return ""
}

// replayServed replays the public batches of verb.
func replayServed(t *testing.T, verb string) *tally {
	shared := requireShared(t)
	dirs, _ := filepath.Glob(filepath.Join(shared, "conformance", "random-*", verb+"-*"))
	if len(dirs) == 0 {
		shareddata.Missing(t, filepath.Join(shared, "conformance", "random-*", verb+"-*"))
	}
	tl := &tally{}
	for _, dir := range dirs {
		argsData, err := os.ReadFile(filepath.Join(dir, "args.txt"))
		if err != nil {
			t.Fatal(err)
		}
		wantData, _ := os.ReadFile(filepath.Join(dir, "expected.jsonl"))
		exitData, _ := os.ReadFile(filepath.Join(dir, "exit.txt"))
		wantExit, _ := strconv.Atoi(strings.TrimSpace(string(exitData)))
		got, status := runIn(t, dir, strings.Fields(string(argsData)))
		name := filepath.Base(dir)
		if status != wantExit {
			tl.fail("%s: exit %d, want %d", name, status, wantExit)
		}
		before := len(tl.examples)
		compareServed(verb, parseServed(t, got), parseServed(t, wantData), tl)
		for i := before; i < len(tl.examples); i++ {
			tl.examples[i] = name + "/" + tl.examples[i]
		}
	}
	return tl
}

// TestConformanceOpenAPI replays the public openapi batches.
func TestConformanceOpenAPI(t *testing.T) {
	t.Parallel()
	report(t, "openapi batches", replayServed(t, "openapi"))
}

// readExpected reads a file of corpus/expected, gunzipping *.gz.
func readExpected(t *testing.T, corpus, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpus, "expected", name))
	if err != nil {
		shareddata.Missing(t, err.Error())
	}
	if !strings.HasSuffix(name, ".gz") {
		return data
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCorpusOpenAPI compares the definitions published for every served
// version of every corpus CRD with the apiserver's.
func TestCorpusOpenAPI(t *testing.T) {
	t.Parallel()
	corpus := filepath.Join(requireShared(t), "corpus")
	want := readExpected(t, corpus, "openapi.jsonl.gz")
	dirs, _ := filepath.Glob(filepath.Join(corpus, "*", "crds"))
	var got []byte
	for _, d := range dirs {
		rel, _ := filepath.Rel(corpus, d)
		out, _ := runIn(t, corpus, []string{"openapi", "-o", "json", "--crd", rel})
		got = append(got, out...)
	}
	tl := &tally{}
	compareServed("openapi", parseServed(t, got), parseServed(t, want), tl)
	report(t, "corpus openapi", tl)
}

// TestConformanceColumns replays the public columns batches.
func TestConformanceColumns(t *testing.T) {
	t.Parallel()
	report(t, "columns batches", replayServed(t, "columns"))
}

// TestConformanceScale replays the public scale batches.
func TestConformanceScale(t *testing.T) {
	t.Parallel()
	report(t, "scale batches", replayServed(t, "scale"))
}

// corpusServed runs verb over every corpus project with examples, as the
// expected file was made.
func corpusServed(t *testing.T, verb, expected string, extra ...string) *tally {
	corpus := filepath.Join(requireShared(t), "corpus")
	want := readExpected(t, corpus, expected)
	var got []byte
	for _, p := range corpusProjects(t, corpus) {
		args := append([]string{verb}, extra...)
		args = append(args, "--crd", p+"/crds", "-o", "json", p+"/examples")
		out, _ := runIn(t, corpus, args)
		got = append(got, out...)
	}
	tl := &tally{}
	compareServed(verb, parseServed(t, got), parseServed(t, want), tl)
	return tl
}

// TestCorpusColumns compares the table of every corpus example.
func TestCorpusColumns(t *testing.T) {
	t.Parallel()
	report(t, "corpus columns", corpusServed(t, "columns", "columns.jsonl", "--now", "2026-11-25T00:00:00Z"))
}

// TestCorpusScale compares the Scale of every corpus example.
func TestCorpusScale(t *testing.T) {
	t.Parallel()
	report(t, "corpus scale", corpusServed(t, "scale", "scale.jsonl"))
}
