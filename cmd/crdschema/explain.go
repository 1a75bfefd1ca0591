package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/serving"
)

// explainLine is `crdschema explain -o json`: one JSON line, with the
// CRD's file, document, line and name as every verb's lines have them.
type explainLine struct {
	File      string                   `json:"file"`
	Document  int                      `json:"document"`
	Line      int                      `json:"line"`
	Name      string                   `json:"name"`
	Group     string                   `json:"group"`
	Version   string                   `json:"version"`
	Kind      string                   `json:"kind"`
	Path      []string                 `json:"path"`
	Recursive bool                     `json:"recursive"`
	Text      string                   `json:"text"`
	Fields    []serving.ExplainedField `json:"fields"`
}

// explainOptions are explain's flags and operand.
type explainOptions struct {
	crds       []string
	apiVersion string
	recursive  bool
	output     string
	resource   string // TYPE[.FIELD...]
}

func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("explain")
	var o explainOptions
	fs.Var(stringList{&o.crds}, "crd", "a CRD file or directory (repeatable)")
	fs.StringVar(&o.apiVersion, "api-version", "", "the GROUP/VERSION to explain (default: the CRD's preferred served version)")
	fs.BoolVar(&o.recursive, "recursive", false, "list the fields of fields")
	fs.StringVar(&o.output, "o", "plaintext", "output format: plaintext or json")
	operands, err := parseInterleaved(fs, args)
	if err == nil {
		err = o.check(operands)
	}
	if status, done := argsDone("explain", err, stdout, stderr); done {
		return status
	}
	in := &inputs{stdin: stdin, max: defaultMaxInput}
	return explainRun(o, in, stdout, stderr)
}

func (o *explainOptions) check(operands []string) error {
	switch {
	case o.output != "plaintext" && o.output != "json":
		return fmt.Errorf("-o must be plaintext or json, not %q", o.output)
	case len(o.crds) == 0:
		return errors.New("no --crd PATH given")
	case len(operands) != 1 || operands[0] == "":
		return errors.New("want exactly one TYPE[.FIELD.PATH]")
	case o.apiVersion != "" && strings.Count(o.apiVersion, "/") != 1:
		return fmt.Errorf("--api-version must be GROUP/VERSION, not %q", o.apiVersion)
	}
	o.resource = operands[0]
	return stdinOnce(o.crds)
}

// explainCRD is a CRD read for explain, with the names it answers to.
type explainCRD struct {
	crd   *crdschema.CRD
	names []string // plural, singular, short names, kind: lower case
	group string
	// plural is the resource name kubectl's plural.group prefix uses.
	plural string
}

func explainRun(o explainOptions, in *inputs, stdout, stderr io.Writer) int {
	crds, status := readExplainCRDs(o.crds, in, stderr)
	if status != 0 {
		return status
	}
	c, path, err := resolveResource(crds, o.resource, o.apiVersion)
	if err != nil {
		fmt.Fprintf(stderr, "crdschema explain: %v\n", err)
		return 2
	}
	version := ""
	if o.apiVersion != "" {
		_, version, _ = strings.Cut(o.apiVersion, "/")
	} else if served := c.crd.ServedVersions(); len(served) > 0 {
		version = served[0]
	}
	e, err := c.crd.Explain(version, path, o.recursive)
	if err != nil {
		fmt.Fprintf(stderr, "crdschema explain: %v\n", err)
		var rejected *crdschema.RejectedError
		if errors.As(err, &rejected) {
			return 1
		}
		return 2
	}
	if o.output == "plaintext" {
		fmt.Fprint(stdout, e.Plaintext())
		return 0
	}
	gk := c.crd.GroupKind()
	pos := c.crd.Position()
	line := explainLine{File: pos.File, Document: pos.Index, Line: pos.Line, Name: c.crd.Name(), Group: gk.Group, Version: version, Kind: gk.Kind, Path: path, Recursive: o.recursive, Text: e.Text, Fields: e.Fields}
	if line.Path == nil {
		line.Path = []string{}
	}
	if line.Fields == nil {
		line.Fields = []serving.ExplainedField{}
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(line); err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	return 0
}

// readExplainCRDs reads the CRDs of the --crd paths with their names.
func readExplainCRDs(paths []string, in *inputs, stderr io.Writer) ([]explainCRD, int) {
	files, err := expandPaths(paths)
	if err != nil {
		reportError(stderr, err)
		return nil, 2
	}
	var out []explainCRD
	for _, f := range files {
		docs, ok := readInput(f, in, stderr)
		if !ok {
			return nil, 2
		}
		for i := range docs {
			if !docs[i].IsCRD() {
				continue
			}
			c, err := docs[i].CRD()
			if err != nil {
				reportError(stderr, err)
				return nil, 2
			}
			out = append(out, explainNames(c))
		}
	}
	return out, 0
}

// explainNames are the names kubectl explain takes for a CRD's resource:
// plural, singular, short names and kind, in any case (the same for every
// version the CRD defines).
func explainNames(c *crdschema.CRD) explainCRD {
	e := explainCRD{crd: c, group: c.GroupKind().Group}
	versions := c.Versions()
	if len(versions) == 0 {
		e.names = []string{strings.ToLower(c.GroupKind().Kind)}
		return e
	}
	r, err := c.Resource(versions[0])
	if err != nil {
		e.names = []string{strings.ToLower(c.GroupKind().Kind)}
		return e
	}
	e.plural = r.Plural
	for _, n := range append(append([]string{r.Plural, r.Singular}, r.ShortNames...), r.Kind) {
		if n != "" {
			e.names = append(e.names, strings.ToLower(n))
		}
	}
	return e
}

// resolveResource finds the CRD TYPE[.FIELD...] names and the field path,
// as kubectl explain does: TYPE is a plural, singular, short name or kind;
// without --api-version the resource may be written PLURAL.GROUP (then
// the path follows it).
func resolveResource(crds []explainCRD, arg, apiVersion string) (*explainCRD, []string, error) {
	segs := strings.Split(arg, ".")
	name := strings.ToLower(segs[0])
	group, _, _ := strings.Cut(apiVersion, "/")
	var found []*explainCRD
	for i := range crds {
		c := &crds[i]
		if apiVersion != "" && c.group != group {
			continue
		}
		for _, n := range c.names {
			if n == name {
				found = append(found, c)
				break
			}
		}
	}
	if apiVersion == "" {
		for _, c := range found {
			gr := c.plural + "." + c.group
			if arg == gr || strings.HasPrefix(arg, gr+".") {
				return c, fieldPath(strings.TrimPrefix(arg, gr)), nil
			}
		}
	}
	switch len(found) {
	case 0:
		return nil, nil, fmt.Errorf("no CRD among --crd defines a resource type %q%s", segs[0], inGroup(group))
	case 1:
		return found[0], segs[1:], nil
	}
	var names []string
	for _, c := range found {
		names = append(names, c.plural+"."+c.group)
	}
	return nil, nil, fmt.Errorf("resource type %q is defined by several CRDs (%s): name one as PLURAL.GROUP or give --api-version", segs[0], strings.Join(names, ", "))
}

// fieldPath is the path after a PLURAL.GROUP prefix (".spec.x": spec x).
func fieldPath(rest string) []string {
	rest = strings.TrimPrefix(rest, ".")
	if rest == "" {
		return nil
	}
	return strings.Split(rest, ".")
}

func inGroup(group string) string {
	if group == "" {
		return ""
	}
	return " in group " + group
}
