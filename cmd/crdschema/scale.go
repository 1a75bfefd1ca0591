package main

import (
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
)

// scaleLine is one line of `crdschema scale -o json`.
type scaleLine struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	// Line is where the object starts (an addition to the contract's
	// third edition, as the errors' line and column).
	Line   int            `json:"line"`
	Scale  map[string]any `json:"scale"`
	Errors []jsonError    `json:"errors"`
}

func runScale(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("scale")
	var crds []string
	fs.Var(stringList{&crds}, "crd", "a CRD file or directory (repeatable)")
	output := fs.String("o", "yaml", "output format: yaml or json")
	operands, err := parseInterleaved(fs, args)
	if err == errHelp {
		fmt.Fprint(stdout, verbHelp["scale"])
		return 0
	}
	if err == nil {
		err = storedOptions(*output, []string{"yaml", "json"}, crds, operands)
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema scale: %v\n%s", err, verbUsage("scale"))
		return 2
	}
	p := newLinePrinter(*output, stdout, stderr)
	return storedRun(crds, operands, stdin, stderr, p, func(c *crdschema.CRD, d crdschema.Document, routeErr *field.Error) (any, int) {
		line := scaleLine{File: d.File, Document: d.Index, Line: d.Line}
		errs := field.ErrorList{}
		if routeErr != nil {
			errs = append(errs, routeErr)
		} else {
			var fe field.ErrorList
			line.Scale, fe = c.Scale(d.Object)
			errs = append(errs, fe...)
		}
		line.Errors = located(errs, d)
		return line, len(errs)
	})
}
