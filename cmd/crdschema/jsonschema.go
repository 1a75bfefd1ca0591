package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
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
	files, rejected, n, err := rd.schemaFiles(namedFiles(names))
	if err != nil || rd.inputErr {
		return servedStatus(rd, false, err)
	}
	if n == 0 {
		// Nothing to write is no success: a wrong path in a CI step
		// would otherwise pass and leave kubeconform without schemas.
		fmt.Fprintf(stderr, "crdschema jsonschema: no CustomResourceDefinition in %s: nothing written to %s\n", strings.Join(paths, ", "), out)
		return 2
	}
	if len(rejected) > 0 {
		for _, msg := range rejected {
			fmt.Fprint(stderr, msg)
		}
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

// schemaFiles reads the CRDs of files as rd.crds does and computes each
// CRD's schema files as it is read, right after its check, whose
// structural models the schemas are then made from (see
// crdschema.CRD.Errors). It returns the files, the message of each CRD
// that has none (rejected), and the number of CRDs.
func (rd *docReader) schemaFiles(in []inputFile) (files []schemaFile, rejected []string, n int, err error) {
	err = rd.eachCRD(in, func(c *crdschema.CRD) {
		n++
		fs, err := crdSchemaFiles(c)
		if err != nil {
			rejected = append(rejected, fmt.Sprintf("crdschema: %s:%d: %v\n", c.Position().File, c.Position().Line, err))
			return
		}
		files = append(files, fs...)
	})
	return files, rejected, n, err
}

// crdSchemaFiles are a CRD's schema files: GROUP/KIND_VERSION.json and its
// strict variant GROUP/KIND_VERSION-strict.json for every version (an
// unserved one gets the schema that says it is not served), kind in lower
// case (the CRDs-catalog layout; kubeconform's
// -schema-location DIR/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}{{.StrictSuffix}}.json,
// and the file yaml-language-server's kubernetesCRDStore.url reads); for a
// group yaml-language-server takes for OpenShift's, also the strict
// variant where it looks for it (editorPath).
func crdSchemaFiles(c *crdschema.CRD) ([]schemaFile, error) {
	if errs := c.Errors(); len(errs) > 0 {
		return nil, &crdschema.RejectedError{CRD: c.Name(), Errors: errs}
	}
	gk := c.GroupKind()
	var out []schemaFile
	for _, v := range c.Versions() {
		for _, strict := range []bool{false, true} {
			s, err := c.JSONSchema(v, strict)
			if err != nil {
				return nil, err
			}
			data, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				return nil, err
			}
			data = append(data, '\n')
			name := strings.ToLower(gk.Kind) + "_" + v
			if strict {
				name += "-strict"
			}
			out = append(out, schemaFile{name: filepath.Join(gk.Group, name+".json"), data: data})
			if p, ok := editorPath(gk.Group, v, gk.Kind); ok && strict {
				out = append(out, schemaFile{name: p, data: data})
			}
		}
	}
	return out, nil
}

// editorPath is where yaml-language-server 2.0.0 (autoDetectCustomResource)
// looks, under its kubernetesCRDStore.url, for the schema of a group it
// takes for OpenShift's: one whose "io.k8s.api.GROUP.VERSION.KIND" name
// (GROUP without its first ".k8s.io" and with rbac.authorization as rbac)
// contains "openshift.io", at openshift/v4.15-strict/KIND_GROUP_VERSION.json
// in lower case, a strict schema as the catalog's folder name says. Other
// groups are read at GROUP/KIND_VERSION.json.
func editorPath(group, version, kind string) (string, bool) {
	g := strings.Replace(strings.Replace(group, ".k8s.io", "", 1), "rbac.authorization", "rbac", 1)
	name := strings.ToLower("io.k8s.api." + g + "." + version + "." + kind)
	if !strings.Contains(name, "openshift.io") {
		return "", false
	}
	return filepath.Join("openshift", "v4.15-strict", strings.ToLower(kind+"_"+group+"_"+version)+".json"), true
}

// writeSchemaFiles writes each file to a temporary name beside it and
// renames it into place, so no reader sees a half-written schema. Files
// get mode 0666 less the umask (0644 by default), as a plain create
// would: a language server running as another user reads them.
func writeSchemaFiles(dir string, files []schemaFile) error {
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		tmp, err := createTemp(filepath.Dir(path))
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

// createTemp creates a new file in dir with mode 0666 less the umask
// (os.CreateTemp's is 0600 whatever the umask).
func createTemp(dir string) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, ".crdschema-"+strconv.FormatUint(rand.Uint64(), 36)+".json")
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("%s: no free temporary file name", dir)
}
