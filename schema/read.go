package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// Document is one document of an input file, after List expansion.
type Document struct {
	// File is the name the document was read from ("-" for standard input).
	File string
	// Index numbers the documents of a file from 0, in stream order, after
	// List expansion; empty documents are not numbered.
	Index int
	// Line is the 1-based line of the file where the document starts.
	Line int
	// JSON is the document as JSON, as kubectl would send it.
	JSON []byte
	// Object is the decoded document (integers as int64). It is nil when the
	// document is not a mapping.
	Object map[string]any
	// Value is the decoded document, whatever its type.
	Value any

	// plain is true when Value is exactly what internal/jsonfast.Decode
	// returns for JSON (which then holds no duplicate keys): JSON was
	// decoded by jsonfast, or encoded from a Value read by yamlfast.
	// DecodeCRDDocument then converts Value instead of decoding JSON again.
	plain bool
}

// InputError is an input that cannot be read or decoded. It names the file
// and, where known, the line.
type InputError struct {
	File string
	Line int // 0 when unknown
	Err  error
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *InputError) Unwrap() error { return e.Err }

// ExpandPaths turns command-line PATH arguments into file names: files as
// given, directories walked recursively for *.yaml, *.yml and *.json (in
// lexical order), "-" kept for standard input.
func ExpandPaths(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if p == "-" {
			out = append(out, p)
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, &InputError{File: p, Err: err}
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			switch strings.ToLower(filepath.Ext(path)) {
			case ".yaml", ".yml", ".json":
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, &InputError{File: p, Err: err}
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// ReadFile reads the documents of one file; name "-" reads stdin.
func ReadFile(name string, stdin io.Reader) ([]Document, error) {
	var data []byte
	var err error
	if name == "-" {
		if stdin == nil {
			stdin = os.Stdin
		}
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, &InputError{File: name, Err: err}
	}
	return ReadDocuments(name, data)
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

// ReadDocuments splits data into its documents and decodes each as kubectl
// and the apiserver would: a stream that starts with '{' is a stream of JSON
// values, decoded directly (as apimachinery's YAML-or-JSON decoder does);
// anything else is a YAML stream split at "---" lines and read as YAML 1.1
// (sigs.k8s.io/yaml). List documents are expanded. Errors name the file
// and, where known, the line.
func ReadDocuments(name string, data []byte) ([]Document, error) {
	return readDocuments(name, data, true)
}

// readDocumentsExact is ReadDocuments without the fast paths: every YAML
// document goes through sigs.k8s.io/yaml and every document is decoded with
// apimachinery's JSON decoder.
func readDocumentsExact(name string, data []byte) ([]Document, error) {
	return readDocuments(name, data, false)
}

func readDocuments(name string, data []byte, fast bool) ([]Document, error) {
	var docs []Document
	chunks := []chunk(nil)
	trimmed := bytes.TrimLeftFunc(data, unicode.IsSpace)
	if bytes.HasPrefix(trimmed, []byte("{")) {
		if fast {
			if docs, ok := fastJSONStream(name, data); ok {
				return docs, nil
			}
		}
		js, rest, restLine, err := splitJSON(data)
		switch {
		case err == nil:
		case len(js) > 1:
			return nil, &InputError{File: name, Line: restLine, Err: err}
		default:
			// Ambiguous (e.g. a YAML flow mapping): the rest is read as YAML.
			for _, c := range splitStream(rest) {
				c.line += restLine - 1
				chunks = append(chunks, c)
			}
		}
		chunks = append(js, chunks...)
	} else {
		chunks = splitStream(data)
	}
	for _, c := range chunks {
		js := c.data
		if fast {
			if d, ok := fastChunk(c); ok {
				if d.skip {
					continue
				}
				docs = appendExpanded(docs, name, c.line, d.json, d.value, true)
				continue
			}
		}
		if !c.json {
			var err error
			js, err = yaml.YAMLToJSON(c.data)
			if err != nil {
				return nil, &InputError{File: name, Line: yamlErrorLine(err, c.line), Err: err}
			}
		}
		t := bytes.TrimSpace(js)
		if len(t) == 0 || string(t) == "null" {
			continue
		}
		var v any
		if err := kjson.Unmarshal(js, &v); err != nil {
			return nil, &InputError{File: name, Line: c.line, Err: err}
		}
		docs = appendExpanded(docs, name, c.line, js, v, false)
	}
	return docs, nil
}

// splitJSON reads a stream of JSON values. On error it returns the values
// read so far, the unread rest of the input and the rest's first line.
func splitJSON(data []byte) ([]chunk, []byte, int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []chunk
	var consumed int64
	// Lines are counted incrementally: counting from the start for every
	// value would make long streams quadratic.
	line, counted := 1, int64(0)
	lineAt := func(off int64) int {
		line += bytes.Count(data[counted:off], []byte("\n"))
		counted = off
		return line
	}
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return out, nil, 0, nil
		}
		if err != nil {
			rest := data[consumed:]
			// Skip blanks up to and including the first newline.
			i := 0
			for i < len(rest) && unicode.IsSpace(rune(rest[i])) {
				i++
				if rest[i-1] == '\n' {
					break
				}
			}
			return out, rest[i:], lineAt(consumed + int64(i)), err
		}
		off := dec.InputOffset()
		start := off - int64(len(raw))
		out = append(out, chunk{data: raw, line: lineAt(start), json: true})
		consumed = off
	}
}

type chunk struct {
	data []byte
	line int  // 1-based line of the chunk's first line
	json bool // a JSON value, not YAML
}

// splitStream splits a YAML stream at lines that start with "---" followed
// by nothing but blanks or a comment, as kubectl's YAML reader does.
func splitStream(data []byte) []chunk {
	var out []chunk
	start, startLine, line := 0, 1, 1
	for pos := 0; pos < len(data); line++ {
		end := bytes.IndexByte(data[pos:], '\n')
		next := len(data)
		if end >= 0 {
			next = pos + end + 1
		}
		l := data[pos:next]
		if bytes.HasPrefix(l, []byte("---")) {
			rest := bytes.TrimSpace(l[3:])
			if len(rest) == 0 || rest[0] == '#' {
				if pos > start {
					out = append(out, chunk{data: data[start:pos], line: startLine})
				}
				start, startLine = next, line+1
			}
		}
		pos = next
	}
	if start < len(data) {
		out = append(out, chunk{data: data[start:], line: startLine})
	}
	return out
}

func yamlErrorLine(err error, start int) int {
	m := yamlLineRE.FindStringSubmatch(err.Error())
	if m == nil {
		return start
	}
	n, _ := strconv.Atoi(m[1])
	return start + n - 1
}

// appendExpanded appends the document (js, v), or the items of a List
// document. plain says whether v is exactly jsonfast's decoding of js; the
// items of a List are re-encoded and never count as plain.
func appendExpanded(docs []Document, name string, line int, js []byte, v any, plain bool) []Document {
	obj, _ := v.(map[string]any)
	if obj != nil {
		if kind, _ := obj["kind"].(string); strings.HasSuffix(kind, "List") {
			if items, ok := obj["items"].([]any); ok {
				for _, it := range items {
					b, err := kjson.Marshal(it)
					if err != nil {
						continue
					}
					m, _ := it.(map[string]any)
					docs = append(docs, Document{File: name, Index: len(docs), Line: line, JSON: b, Object: m, Value: it})
				}
				return docs
			}
		}
	}
	return append(docs, Document{File: name, Index: len(docs), Line: line, JSON: js, Object: obj, Value: v, plain: plain})
}
