package main

import (
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
)

// scaleLine is one line of `crdschema scale -o json`.
type scaleLine struct {
	File     string         `json:"file"`
	Document int            `json:"document"`
	Scale    map[string]any `json:"scale"`
	Errors   []jsonError    `json:"errors"`
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
	emit := lineWriter(*output, stdout)
	return storedRun(crds, operands, stdin, stderr, func(c *crdschema.CRD, d *crdschema.Document, routeErr *field.Error) (bool, error) {
		line := scaleLine{File: d.File, Document: d.Index}
		errs := field.ErrorList{}
		if routeErr != nil {
			errs = append(errs, routeErr)
		} else {
			var fe field.ErrorList
			line.Scale, fe = c.Scale(d.Object)
			errs = append(errs, fe...)
		}
		line.Errors = toJSONErrors(errs)
		return len(errs) > 0, emit(line)
	})
}
