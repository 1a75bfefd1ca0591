package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	crdschema "github.com/crdschema/crdschema"
)

// openapiLine is one line of `crdschema openapi -o json`: the definitions
// published for one served version of one CRD.
type openapiLine struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	// Line is where the CRD document starts (an addition to the
	// contract's third edition, as the errors' line and column).
	Line     int            `json:"line"`
	Name     string         `json:"name"`
	Group    string         `json:"group"`
	Version  string         `json:"version"`
	Kind     string         `json:"kind"`
	ListKind string         `json:"listKind"`
	V3       map[string]any `json:"v3"`
	V2       map[string]any `json:"v2"`
	Errors   []jsonError    `json:"errors"`
}

func runOpenAPI(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("openapi")
	var crds []string
	fs.Var(stringList{&crds}, "crd", "a CRD file or directory (repeatable)")
	output := fs.String("o", "json", "output format: json or yaml")
	operands, err := parseInterleaved(fs, args)
	if err == errHelp {
		fmt.Fprint(stdout, verbHelp["openapi"])
		return 0
	}
	if err == nil {
		err = openapiOptions(*output, append(crds, operands...))
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema openapi: %v\n%s", err, verbUsage("openapi"))
		return 2
	}
	in := &inputs{stdin: stdin, max: defaultMaxInput}
	return openapiRun(append(crds, operands...), *output, in, stdout, stderr)
}

func openapiOptions(output string, paths []string) error {
	switch {
	case output != "json" && output != "yaml":
		return fmt.Errorf("-o must be json or yaml, not %q", output)
	case len(paths) == 0:
		return errors.New("no CRD PATH given")
	}
	return stdinOnce(paths)
}

func openapiRun(paths []string, output string, in *inputs, stdout, stderr io.Writer) int {
	names, err := expandPaths(paths)
	if err != nil {
		reportError(stderr, err)
		return 2
	}
	p := newLinePrinter(output, stdout, stderr)
	rd := &docReader{in: in, p: p, stderr: stderr}
	found := false
	err = rd.each(namedFiles(names), func(d crdschema.Document) error {
		if !d.IsCRD() {
			rd.counts.skip(skipNotCRD, d.File)
			return nil
		}
		c, err := d.CRD()
		if err != nil {
			reportError(stderr, err)
			rd.inputErr = true
			return nil
		}
		n := 0
		for _, line := range openapiLines(c, d) {
			n += len(line.Errors)
			if err := p.print(outcome{}, line); err != nil {
				return err
			}
		}
		rd.counts.checked(n)
		found = found || n > 0
		return nil
	})
	return servedStatus(rd, found, err)
}

// openapiLines are the lines of one CRD: one per served version, or one
// with the errors of a CRD the apiserver rejects.
func openapiLines(c *crdschema.CRD, d crdschema.Document) []openapiLine {
	gk := c.GroupKind()
	base := openapiLine{File: d.File, Document: d.Index, Line: d.Line, Name: c.Name(), Group: gk.Group, Kind: gk.Kind, ListKind: listKind(d.Object, gk.Kind), Errors: []jsonError{}}
	if errs := c.Errors(); len(errs) > 0 {
		base.Errors = located(errs, d)
		return []openapiLine{base}
	}
	var out []openapiLine
	for _, v := range c.Versions() {
		v3, v2, err := c.OpenAPI(v)
		var ns *crdschema.NotServedError
		if errors.As(err, &ns) {
			continue
		}
		line := base
		line.Version, line.V3, line.V2 = v, v3, v2
		if err != nil {
			line.Errors = located(field.ErrorList{field.InternalError(nil, err)}, d)
		}
		out = append(out, line)
	}
	return out
}

// servedStatus ends the run of a verb reading CRDs or stored objects
// (openapi, columns, scale, sample, jsonschema): the summary, and the exit
// status: 2 for an input that could not be read or an output that could
// not be written (err), 1 when found (some line has errors), else 0 (also
// for inputs without a document, as the contract's third edition has it).
func servedStatus(rd *docReader, found bool, err error) int {
	if err == nil {
		err = rd.finish()
	}
	switch {
	case err != nil:
		fmt.Fprintf(rd.stderr, "crdschema: %v\n", err)
		return 2
	case rd.inputErr:
		return 2
	case found:
		return 1
	}
	return 0
}

// namedFiles are files named on the command line or found in a directory
// given there, read without a lint's skips.
func namedFiles(names []string) []inputFile {
	out := make([]inputFile, len(names))
	for i, n := range names {
		out[i] = inputFile{name: n}
	}
	return out
}

// listKind is the CRD document's spec.names.listKind after defaulting.
func listKind(doc map[string]any, kind string) string {
	spec, _ := doc["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	if lk, _ := names["listKind"].(string); lk != "" {
		return lk
	}
	return kind + "List"
}

// lineWriter writes result lines as JSON Lines or as a YAML stream.
func lineWriter(output string, stdout io.Writer) func(any) error {
	if output == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode
	}
	first := true
	return func(line any) error {
		data, err := yaml.Marshal(line)
		if err != nil {
			return err
		}
		if !first {
			if _, err := io.WriteString(stdout, "---\n"); err != nil {
				return err
			}
		}
		first = false
		_, err = stdout.Write(data)
		return err
	}
}
