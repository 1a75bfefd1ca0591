package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/crdschema/crdschema/schema"
)

// defaultMaxInput is the default of --max-input-bytes: far above the
// apiserver's 3 MB request limit and any real manifest file, low enough
// that a runaway input (/dev/zero) fails fast with a clear error.
const defaultMaxInput = 64 << 20

// inputs is where the command reads its files from.
type inputs struct {
	stdin io.Reader
	// max is the size limit of one input in bytes; 0 means none.
	max int64
	// stdinData is standard input read whole (buffered is set), for a run
	// that reads its inputs twice.
	stdinData []byte
	buffered  bool
}

// expandPaths turns command-line PATH arguments into file names: files as
// given, directories walked recursively for *.yaml, *.yml and *.json (in
// lexical order), "-" kept for standard input. Entries of a directory that
// are not regular files (FIFOs, sockets, devices; symbolic links to them)
// are skipped: reading them could block forever or never end.
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
			default:
				return nil
			}
			if !d.Type().IsRegular() {
				// A symbolic link counts when it leads to a regular file.
				if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
					return nil
				}
			}
			found = append(found, path)
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

func (in *inputs) tooLarge() error {
	return fmt.Errorf("larger than %s, the input size limit (--max-input-bytes)", formatSize(in.max))
}

// parseSize reads a size in bytes: a number, optionally followed by k, M,
// G (powers of 1000) or Ki, Mi, Gi (powers of 1024).
func parseSize(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, errors.New("want a size in bytes such as 3000000, 64Mi or 1G")
	}
	return n * mult, nil
}

// formatSize writes n bytes in the largest binary unit that divides it.
func formatSize(n int64) string {
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10}} {
		if n >= u.mult && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + u.suffix + "B"
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// stdinOnce refuses "-" given more than once among all the inputs of one
// run: standard input can be read only once, and the second reader would
// silently get nothing.
func stdinOnce(lists ...[]string) error {
	n := 0
	for _, l := range lists {
		for _, p := range l {
			if p == "-" {
				n++
			}
		}
	}
	if n > 1 {
		return errors.New("- (standard input) given more than once: it can be read only once")
	}
	return nil
}
