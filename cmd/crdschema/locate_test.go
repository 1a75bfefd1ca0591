package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/internal/shareddata"
)

// pathNames are the keys and indices of a field path, as the library's
// locator reads it: "spec.list[2].m[a.b]" is spec, list, 2, m, a.b.
func pathNames(p string) []string {
	var out []string
	for _, e := range objpath.ParseField(p) {
		out = append(out, e.Name())
	}
	return out
}

// TestPositionsOnCorpus: every error of every corpus CRD (check) and of
// every corpus example (apply) carries a line and a column, and the text
// at that place is the field's name, or that of a parent (its key, or the
// "- " of a list item), or the document's start.
func TestPositionsOnCorpus(t *testing.T) {
	corpus := shareddata.Dir(t, "corpus")
	t.Chdir(corpus)
	projects, err := filepath.Glob("*/crds")
	if err != nil || len(projects) == 0 {
		t.Fatalf("no corpus projects: %v", err)
	}
	errs, onField, atStart := 0, 0, 0
	for _, crds := range projects {
		p := filepath.Dir(crds)
		runs := [][]string{{"check", "-o", "json", crds}}
		if st, err := os.Stat(filepath.Join(p, "examples")); err == nil && st.IsDir() {
			runs = append(runs, []string{"apply", "-o", "json", "--crd", crds, filepath.Join(p, "examples")})
		}
		for _, args := range runs {
			out, _, _ := runCmd(t, nil, args...)
			for _, l := range jsonLines(t, out) {
				for _, e := range l.Errors {
					errs++
					switch placedOn(t, l, e) {
					case "field":
						onField++
					case "start":
						atStart++
					default:
						t.Errorf("%s#%d: %s at %d:%d: the line holds no part of its path", l.File, l.Document, e.Field, e.Line, e.Column)
					}
				}
			}
		}
	}
	t.Logf("%d errors: %d on their field or a parent, %d at the document's start", errs, onField, atStart)
	if errs < 100 || onField < errs*9/10 {
		t.Errorf("%d errors, %d on their field: want 100 or more, 90%% placed", errs, onField)
	}
}

type posLine struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	Line     int    `json:"line"`
	Errors   []struct {
		Field     string `json:"field"`
		UserField string `json:"userField"`
		Line      int    `json:"line"`
		Column    int    `json:"column"`
	} `json:"errors"`
}

func jsonLines(t *testing.T, out string) []posLine {
	var ls []posLine
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l posLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		ls = append(ls, l)
	}
	return ls
}

// placedOn says what the text at an error's position is: "field" (a
// segment of its path, or a list item's "-"), "start" (the document's
// first line) or "" (neither).
func placedOn(t *testing.T, l posLine, e struct {
	Field     string `json:"field"`
	UserField string `json:"userField"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
}) string {
	if e.Line == 0 {
		return ""
	}
	data, err := os.ReadFile(l.File)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	if e.Line > len(lines) {
		return ""
	}
	if e.Column == 0 {
		if e.Line == l.Line {
			return "start"
		}
		return ""
	}
	text := string(lines[e.Line-1])
	if e.Column-1 > len(text) {
		return ""
	}
	at := strings.TrimLeft(text[e.Column-1:], `"'`)
	path := e.Field
	if e.UserField != "" {
		path = e.UserField
	}
	if e.Column == 1 {
		return "field" // the document's root: its first key
	}
	if e.Column >= 3 && text[e.Column-3:e.Column-1] == "- " {
		return "field" // a list item's mapping: its first key
	}
	for _, seg := range pathNames(path) {
		if strings.HasPrefix(at, seg) {
			return "field"
		}
	}
	if strings.HasPrefix(at, "- ") || strings.HasPrefix(at, "{") {
		return "field" // a list item, or a flow mapping item
	}
	return ""
}
