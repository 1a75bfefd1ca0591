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
	File     string         `json:"file"`
	Document int            `json:"document"`
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
	files, err := expandPaths(paths)
	if err != nil {
		reportError(stderr, err)
		return 2
	}
	status := 0
	emit := lineWriter(output, stdout)
	for _, f := range files {
		docs, ok := readInput(f, in, stderr)
		if !ok {
			status = 2
		}
		for i := range docs {
			if !docs[i].IsCRD() {
				continue
			}
			c, err := docs[i].CRD()
			if err != nil {
				reportError(stderr, err)
				status = 2
				continue
			}
			for _, line := range openapiLines(c, &docs[i]) {
				if len(line.Errors) > 0 && status == 0 {
					status = 1
				}
				if err := emit(line); err != nil {
					fmt.Fprintf(stderr, "crdschema: %v\n", err)
					return 2
				}
			}
		}
	}
	return status
}

// openapiLines are the lines of one CRD: one per served version, or one
// with the errors of a CRD the apiserver rejects.
func openapiLines(c *crdschema.CRD, d *crdschema.Document) []openapiLine {
	gk := c.GroupKind()
	base := openapiLine{File: d.File, Document: d.Index, Name: c.Name(), Group: gk.Group, Kind: gk.Kind, ListKind: listKind(d.Object, gk.Kind), Errors: []jsonError{}}
	if errs := c.Errors(); len(errs) > 0 {
		base.Errors = toJSONErrors(errs)
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
			line.Errors = toJSONErrors(field.ErrorList{field.InternalError(nil, err)})
		}
		out = append(out, line)
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
