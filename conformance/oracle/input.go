package oracle

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// Document is one decoded input document: a JSON object, as kubectl would
// send it to the apiserver.
type Document struct {
	// File is the file name as printed in the output (the command-line
	// argument, or the argument joined with the path found by walking it).
	File string
	// Index is the position of the document in its file, counted after
	// List expansion, skipping empty documents.
	Index int
	// Line is the 1-based line of the file where the document starts.
	Line int
	// Object is the decoded document (what apimachinery's unstructured JSON
	// decoding gives: int64 for integral numbers, float64 otherwise).
	Object map[string]interface{}
}

// InputError is an input that cannot be read or parsed. It names the file
// and, where known, the line and the document.
type InputError struct {
	File     string
	Line     int // 0 when unknown
	Document int // -1 when unknown
	Err      error
}

// Error implements error.
func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Document >= 0 {
		fmt.Fprintf(&b, ": document %d", e.Document)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

// fileSource is one file to read: the name to print and the path to open.
type fileSource struct {
	name string
	path string
}

// expandPaths resolves command-line PATH arguments into files: a file, a
// directory walked recursively for *.yaml, *.yml and *.json (in lexical
// order), or "-" for standard input. Relative paths are resolved against
// dir, but printed as given.
func expandPaths(dir string, args []string) ([]fileSource, error) {
	var out []fileSource
	for _, arg := range args {
		if arg == "-" {
			out = append(out, fileSource{name: "-", path: "-"})
			continue
		}
		p := arg
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, &InputError{File: arg, Document: -1, Err: err}
		}
		if !st.IsDir() {
			out = append(out, fileSource{name: arg, path: p})
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			switch filepath.Ext(path) {
			case ".yaml", ".yml", ".json":
			default:
				return nil
			}
			rel, err := filepath.Rel(p, path)
			if err != nil {
				return err
			}
			out = append(out, fileSource{name: filepath.ToSlash(filepath.Join(arg, rel)), path: path})
			return nil
		})
		if err != nil {
			return nil, &InputError{File: arg, Document: -1, Err: err}
		}
	}
	return out, nil
}

// readSource reads a whole file (or standard input).
func readSource(src fileSource, stdin io.Reader) ([]byte, error) {
	if src.path == "-" {
		if stdin == nil {
			return nil, &InputError{File: src.name, Document: -1, Err: errors.New("no standard input")}
		}
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, &InputError{File: src.name, Document: -1, Err: err}
		}
		return b, nil
	}
	b, err := os.ReadFile(src.path)
	if err != nil {
		return nil, &InputError{File: src.name, Document: -1, Err: err}
	}
	return b, nil
}

// rawDoc is one document of a stream before decoding.
type rawDoc struct {
	data   []byte
	line   int
	isJSON bool
}

// splitStream splits a file into documents as apimachinery's
// YAMLOrJSONDecoder does: a stream starting with '{' is a stream of JSON
// values, anything else a YAML stream separated by "---" lines.
func splitStream(name string, data []byte) ([]rawDoc, error) {
	trimmed := bytes.TrimLeftFunc(data, unicode.IsSpace)
	if !bytes.HasPrefix(trimmed, []byte("{")) {
		return splitYAML(name, data, 1)
	}
	docs, rest, restLine, err := splitJSON(data)
	if err == nil {
		return docs, nil
	}
	if len(docs) > 1 {
		return nil, &InputError{File: name, Line: restLine, Document: -1, Err: err}
	}
	// An ambiguous stream: like the apiserver's decoder, continue as YAML.
	ydocs, yerr := splitYAML(name, rest, restLine)
	if yerr != nil {
		return nil, &InputError{File: name, Line: restLine, Document: -1, Err: err}
	}
	return append(docs, ydocs...), nil
}

// splitJSON decodes a stream of JSON values. On error it returns the values
// read so far, the remaining input and its first line.
func splitJSON(data []byte) ([]rawDoc, []byte, int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var docs []rawDoc
	var consumed int64
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return docs, nil, 0, nil
		}
		if err != nil {
			rest := data[consumed:]
			// skip whitespace up to and including the first newline, as the apiserver's decoder does
			i := 0
			for i < len(rest) && unicode.IsSpace(rune(rest[i])) {
				i++
				if rest[i-1] == '\n' {
					break
				}
			}
			line := 1 + bytes.Count(data[:consumed+int64(i)], []byte("\n"))
			return docs, rest[i:], line, err
		}
		off := dec.InputOffset()
		start := off - int64(len(raw))
		line := 1 + bytes.Count(data[:start], []byte("\n"))
		docs = append(docs, rawDoc{data: raw, line: line, isJSON: true})
		consumed = off
	}
}

// splitYAML splits a YAML stream on "---" lines exactly as apimachinery's
// YAMLReader does; firstLine is the line number of data's first line.
func splitYAML(name string, data []byte, firstLine int) ([]rawDoc, error) {
	r := bufio.NewReader(bytes.NewReader(data))
	var docs []rawDoc
	var buf bytes.Buffer
	line := firstLine - 1
	start := firstLine
	for {
		l, err := r.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return nil, &InputError{File: name, Document: -1, Err: err}
		}
		if len(l) > 0 {
			line++
		}
		if bytes.HasPrefix(l, []byte("---")) {
			rest := strings.TrimSpace(string(l[3:]))
			if len(rest) > 0 && rest[0] != '#' {
				return nil, &InputError{File: name, Line: line, Document: -1, Err: fmt.Errorf("invalid YAML document separator: %s", rest)}
			}
			if buf.Len() != 0 {
				docs = append(docs, rawDoc{data: bytes.Clone(buf.Bytes()), line: start})
				buf.Reset()
			}
			if err == io.EOF {
				return docs, nil
			}
			continue
		}
		if buf.Len() == 0 {
			start = line
		}
		buf.Write(l)
		if err == io.EOF {
			if buf.Len() != 0 {
				docs = append(docs, rawDoc{data: bytes.Clone(buf.Bytes()), line: start})
			}
			return docs, nil
		}
	}
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

// decodeDoc converts one raw document into JSON as kubectl does (YAML 1.1 via
// sigs.k8s.io/yaml) and decodes it as the apiserver's unstructured decoder
// would. It returns nil for an empty document.
func decodeDoc(name string, index int, d rawDoc) (interface{}, error) {
	js := d.data
	if !d.isJSON {
		var err error
		js, err = yaml.YAMLToJSON(d.data)
		if err != nil {
			line := d.line
			if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
				if n, cerr := strconv.Atoi(m[1]); cerr == nil {
					line = d.line + n - 1
				}
			}
			return nil, &InputError{File: name, Line: line, Document: index, Err: err}
		}
	}
	js = bytes.TrimSpace(js)
	if len(js) == 0 || bytes.Equal(js, []byte("null")) {
		return nil, nil
	}
	var v interface{}
	if err := utiljson.Unmarshal(js, &v); err != nil {
		return nil, &InputError{File: name, Line: d.line, Document: index, Err: err}
	}
	return v, nil
}

// listItems reports whether a document stands for its items: its kind is
// "List" or ends in "List", and it has an items array.
func listItems(obj map[string]interface{}) ([]interface{}, bool) {
	kind, _ := obj["kind"].(string)
	if !strings.HasSuffix(kind, "List") {
		return nil, false
	}
	items, ok := obj["items"].([]interface{})
	return items, ok
}

// ReadDocuments reads every document of the given PATH arguments, expanding
// Lists. A document that cannot be parsed is reported in docErrs and reading
// continues with the next document or file. A PATH that does not exist is
// returned as err.
func ReadDocuments(dir string, args []string, stdin io.Reader) (docs []Document, docErrs []error, err error) {
	files, err := expandPaths(dir, args)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		data, err := readSource(f, stdin)
		if err != nil {
			docErrs = append(docErrs, err)
			continue
		}
		raws, err := splitStream(f.name, data)
		if err != nil {
			docErrs = append(docErrs, err)
			continue
		}
		index := 0
		for _, rd := range raws {
			v, err := decodeDoc(f.name, index, rd)
			if err != nil {
				docErrs = append(docErrs, err)
				index++
				continue
			}
			if v == nil {
				continue
			}
			obj, ok := v.(map[string]interface{})
			if !ok {
				docErrs = append(docErrs, &InputError{File: f.name, Line: rd.line, Document: index, Err: fmt.Errorf("expected a mapping, got %s", jsonKind(v))})
				index++
				continue
			}
			items, ok := listItems(obj)
			if !ok {
				docs = append(docs, Document{File: f.name, Index: index, Line: rd.line, Object: obj})
				index++
				continue
			}
			for i, it := range items {
				m, ok := it.(map[string]interface{})
				if !ok {
					docErrs = append(docErrs, &InputError{File: f.name, Line: rd.line, Document: index, Err: fmt.Errorf("items[%d]: expected a mapping, got %s", i, jsonKind(it))})
					index++
					continue
				}
				docs = append(docs, Document{File: f.name, Index: index, Line: rd.line, Object: m})
				index++
			}
		}
	}
	return docs, docErrs, nil
}

func jsonKind(v interface{}) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case int64, float64, json.Number:
		return "a number"
	case []interface{}:
		return "an array"
	case map[string]interface{}:
		return "a mapping"
	}
	return fmt.Sprintf("%T", v)
}
