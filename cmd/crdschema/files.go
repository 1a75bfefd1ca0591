package main

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/schema"
)

// expandPaths turns command-line PATH arguments into file names: files as
// given, directories walked recursively for *.yaml, *.yml and *.json (in
// lexical order), "-" kept for standard input.
func expandPaths(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if p == "-" {
			out = append(out, p)
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, &schema.InputError{File: p, Err: err}
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
			return nil, &schema.InputError{File: p, Err: err}
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// readFile reads the documents of one file; name "-" reads stdin.
func readFile(name string, stdin io.Reader) ([]crdschema.Document, error) {
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
		return nil, &schema.InputError{File: name, Err: err}
	}
	return crdschema.ReadDocuments(name, data)
}
