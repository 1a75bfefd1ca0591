package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	crdschema "github.com/crdschema/crdschema"
)

// schemaFile is one JSON Schema file to write, relative to --out.
type schemaFile struct {
	name string
	data []byte
}

func runJSONSchema(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("jsonschema")
	var crds []string
	fs.Var(stringList{&crds}, "crd", "a CRD file or directory (repeatable)")
	out := fs.String("out", "", "the directory to write the schemas to")
	operands, err := parseInterleaved(fs, args)
	if err == errHelp {
		fmt.Fprint(stdout, verbHelp["jsonschema"])
		return 0
	}
	paths := append(crds, operands...)
	switch {
	case err != nil:
	case *out == "":
		err = errors.New("no --out DIR given")
	case len(paths) == 0:
		err = errors.New("no CRD PATH given")
	default:
		err = stdinOnce(paths)
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema jsonschema: %v\n%s", err, verbUsage("jsonschema"))
		return 2
	}
	in := &inputs{stdin: stdin, max: defaultMaxInput}
	return jsonschemaRun(paths, *out, in, stdout, stderr)
}

// jsonschemaRun computes every schema first and writes only when every CRD
// was read and accepted: a rejected CRD leaves --out untouched.
func jsonschemaRun(paths []string, out string, in *inputs, stdout, stderr io.Writer) int {
	names, err := expandPaths(paths)
	if err != nil {
		reportError(stderr, err)
		return 2
	}
	// The summary of the CRDs read goes to stderr, last: stdout lists the
	// files written.
	rd := &docReader{in: in, p: linePrinter{stderr: stderr}, stderr: stderr}
	cs, err := rd.crds(namedFiles(names))
	if err != nil || rd.inputErr {
		return servedStatus(rd, false, err)
	}
	var files []schemaFile
	status := 0
	for _, c := range cs {
		fs, err := crdSchemaFiles(c)
		if err != nil {
			fmt.Fprintf(stderr, "crdschema: %s:%d: %v\n", c.Position().File, c.Position().Line, err)
			status = 1
			continue
		}
		files = append(files, fs...)
	}
	if status != 0 {
		fmt.Fprintf(stderr, "crdschema jsonschema: nothing written to %s\n", out)
		return servedStatus(rd, true, nil)
	}
	if err := writeSchemaFiles(out, files); err != nil {
		fmt.Fprintf(stderr, "crdschema jsonschema: %v\n", err)
		return 2
	}
	for _, f := range files {
		fmt.Fprintln(stdout, filepath.Join(out, f.name))
	}
	return servedStatus(rd, false, nil)
}

// crdSchemaFiles are a CRD's schema files: GROUP/KIND_VERSION.json and its
// strict variant GROUP/KIND_VERSION-strict.json for every served version,
// kind in lower case (the CRDs-catalog layout; kubeconform's
// -schema-location DIR/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}{{.StrictSuffix}}.json).
func crdSchemaFiles(c *crdschema.CRD) ([]schemaFile, error) {
	if errs := c.Errors(); len(errs) > 0 {
		return nil, &crdschema.RejectedError{CRD: c.Name(), Errors: errs}
	}
	gk := c.GroupKind()
	var out []schemaFile
	for _, v := range c.ServedVersions() {
		for _, strict := range []bool{false, true} {
			s, err := c.JSONSchema(v, strict)
			if err != nil {
				return nil, err
			}
			data, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				return nil, err
			}
			name := strings.ToLower(gk.Kind) + "_" + v
			if strict {
				name += "-strict"
			}
			out = append(out, schemaFile{name: filepath.Join(gk.Group, name+".json"), data: append(data, '\n')})
		}
	}
	return out, nil
}

// writeSchemaFiles writes each file to a temporary name beside it and
// renames it into place, so no reader sees a half-written schema.
func writeSchemaFiles(dir string, files []schemaFile) error {
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		tmp, err := os.CreateTemp(filepath.Dir(path), ".crdschema-*.json")
		if err != nil {
			return err
		}
		_, werr := tmp.Write(f.data)
		cerr := tmp.Close()
		if err := errors.Join(werr, cerr); err != nil {
			os.Remove(tmp.Name())
			return err
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			os.Remove(tmp.Name())
			return err
		}
	}
	return nil
}
