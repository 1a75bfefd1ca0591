package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/conversion"
)

// convertOptions are the parsed arguments of convert.
type convertOptions struct {
	crds     []string
	to       string
	output   string
	review   bool
	maxInput int64
	operands []string
}

// parseConvertArgs parses convert's flags, which may come before, between
// or after the operands.
func parseConvertArgs(args []string) (*convertOptions, error) {
	o := &convertOptions{maxInput: defaultMaxInput}
	fs := newFlagSet("convert")
	fs.Var(stringList{&o.crds}, "crd", "CRD file or directory (repeatable)")
	fs.StringVar(&o.to, "to", "", "the version to read at: VERSION or GROUP/VERSION")
	fs.StringVar(&o.output, "o", "", "output format: yaml or json (--review: json)")
	fs.StringVar(&o.output, "output", "", "output format (same as -o)")
	fs.BoolVar(&o.review, "review", false, "check ConversionReviews (request and the webhook's answer)")
	fs.Var(sizeValue{&o.maxInput}, "max-input-bytes", "size limit of one input")
	operands, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, err
	}
	o.operands = operands
	return o, checkConvertOptions(o)
}

func checkConvertOptions(o *convertOptions) error {
	switch {
	case len(o.operands) == 0 && o.review:
		return errors.New("no ConversionReview PATH given")
	case len(o.operands) == 0:
		return errors.New("no OBJECTS given")
	case o.review && (len(o.crds) > 0 || o.to != ""):
		return errors.New("--review takes ConversionReviews only: no --crd, no --to")
	case o.review && o.output != "" && o.output != "json":
		return fmt.Errorf("--review: -o must be json, not %q", o.output)
	case o.review:
		o.output = "json"
		return stdinOnce(o.operands)
	case len(o.crds) == 0:
		return errors.New("--crd is required")
	case o.to == "" || strings.Count(o.to, "/") > 1:
		return fmt.Errorf("--to must be VERSION or GROUP/VERSION, not %q", o.to)
	case o.output == "":
		o.output = "yaml"
	case o.output != "yaml" && o.output != "json":
		return fmt.Errorf("-o must be yaml or json, not %q", o.output)
	}
	return stdinOnce(o.operands, o.crds)
}

// runConvert is the convert verb: stored objects read at another version
// (the storage read path), or ConversionReviews checked (--review).
func runConvert(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseConvertArgs(args)
	if err == errHelp {
		fmt.Fprint(stdout, verbHelp["convert"])
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema convert: %v\n%s", err, verbUsage("convert"))
		return 2
	}
	in := &inputs{stdin: stdin, max: o.maxInput}
	if o.review {
		return runReviews(o, in, stdout, stderr)
	}
	return convertObjects(o, in, stdout, stderr)
}

// convertObjects reads every object at --to, one at a time.
func convertObjects(o *convertOptions, in *inputs, stdout, stderr io.Writer) int {
	p := newPrinter(o.output, "convert", stdout, stderr)
	stderr = withInputErrors(p, stderr, stdout, "convert")
	names, err := expandPaths(o.operands)
	var crds []*crdschema.CRD
	crdsOK := true
	if err == nil {
		crds, crdsOK, err = loadCRDs(o.crds, in, stderr)
	}
	if err != nil {
		reportError(stderr, err)
		return 2
	}
	rd := &docReader{in: in, p: p, stderr: stderr, inputErr: !crdsOK}
	found := false
	err = rd.each(namedFiles(names), func(d crdschema.Document) error {
		oc, line := convertDocument(crds, d, o.to)
		found = found || len(oc.errs) > 0
		rd.counts.checked(len(oc.errs))
		return p.print(oc, place(&oc, line, d))
	})
	if err == nil {
		err = rd.finish()
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	return rd.status("convert", found)
}

// convertDocument routes one stored object to its CRD and reads it at to.
func convertDocument(crds []*crdschema.CRD, d crdschema.Document, to string) (outcome, objectResult) {
	kind, name := documentKindName(d.Object)
	oc := outcome{file: d.File, document: d.Index, line: d.Line, kind: kind, name: name}
	var r crdschema.Result
	crd, routeErr := routeStored(crds, d.Object)
	if routeErr != nil {
		r.Errors = field.ErrorList{routeErr}
	} else {
		r = crd.Read(context.Background(), d.Object, to)
	}
	var object any
	if r.Object != nil {
		object = r.Object
	}
	pruned := r.Pruned
	if pruned == nil {
		pruned = []string{}
	}
	oc.object, oc.pruned, oc.errs, oc.deprecation = object, pruned, r.Errors, r.Deprecation
	return oc, objectResult{File: d.File, Document: d.Index, Line: d.Line, Kind: kind, Name: name, Object: object, Pruned: pruned, Errors: toJSONErrors(r.Errors), Warnings: deprecationWarnings(r.Deprecation)}
}

// reviewLine is one line of convert --review's output.
type reviewLine struct {
	File     string      `json:"file"`
	Document int         `json:"document"`
	Line     int         `json:"line"`
	Objects  any         `json:"objects"`
	Errors   []jsonError `json:"errors"`
}

// runReviews checks every ConversionReview document (convert --review),
// one at a time.
func runReviews(o *convertOptions, in *inputs, stdout, stderr io.Writer) int {
	p := newPrinter("json", "convert", stdout, stderr)
	names, err := expandPaths(o.operands)
	if err != nil {
		reportError(stderr, err)
		return 2
	}
	rd := &docReader{in: in, p: p, stderr: stderr}
	found := false
	err = rd.each(namedFiles(names), func(d crdschema.Document) error {
		objects, ferr := conversion.CheckReview(d.Object)
		line := reviewLine{File: d.File, Document: d.Index, Line: d.Line, Errors: []jsonError{}}
		if ferr != nil {
			found = true
			line.Errors = located(field.ErrorList{ferr}, d)
		} else {
			line.Objects = objects
		}
		rd.counts.checked(len(line.Errors))
		return p.print(outcome{}, line)
	})
	if err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	return rd.status("convert --review", found)
}
