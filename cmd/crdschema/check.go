package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
)

// checkResult is one line of `check -o json`.
type checkResult struct {
	File     string      `json:"file"`
	Document int         `json:"document"`
	Line     int         `json:"line"`
	Kind     string      `json:"kind"`
	Name     string      `json:"name"`
	Errors   []jsonError `json:"errors"`
	// Warnings are the apiserver's warnings, always present.
	Warnings []string `json:"warnings"`
	// Operation is UPDATE or CREATE for CRDs under --old.
	Operation string `json:"operation,omitempty"`
	// Lint are what the apiserver accepts in a CRD but cannot work as
	// meant (see lintFinding); absent when there are none.
	Lint []lintFinding `json:"lint,omitempty"`
}

// skippedResult is the JSON line of a skipped document (check
// --skip-non-crds, --skip-unknown-kinds).
type skippedResult struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	Line     int    `json:"line"`
	Kind     string `json:"kind,omitempty"`
	Name     string `json:"name,omitempty"`
	Skipped  string `json:"skipped"`
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseArgs("check", args)
	if err == errHelp {
		fmt.Fprint(stdout, verbHelp["check"])
		return 0
	}
	if err == nil && len(o.operands) == 0 {
		err = errors.New("no PATH given")
	}
	if err == nil && o.output == "" {
		o.output = "text"
	}
	if err == nil && !slices.Contains(outputFormats, o.output) {
		err = fmt.Errorf("-o must be one of %s, not %q", strings.Join(outputFormats, ", "), o.output)
	}
	if err == nil {
		err = stdinOnce(o.operands, o.olds)
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema check: %v\n%s", err, verbUsage("check"))
		return 2
	}
	in := &inputs{stdin: stdin, max: o.maxInput}
	return withBudget(o.timeout, stdout, stderr, func(stdout, stderr io.Writer) int {
		return checkInputs(o, in, stdout, stderr)
	})
}

// checkInputs is check with its arguments parsed. The documents are read,
// checked and printed one at a time; an unreadable file or document is
// reported on stderr and makes the exit status 2, but every readable
// document is still checked, as the apiserver would answer for each one it
// is sent.
func checkInputs(o *options, in *inputs, stdout, stderr io.Writer) int {
	p := newPrinter(o.output, "check", stdout, stderr)
	stderr = withInputErrors(p, stderr, stdout, "check")
	files, err := expandInputs(o.operands, o.excludes)
	if err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	rd := &docReader{in: in, lint: o.skipNonCRDs, p: p, stderr: stderr}
	// The stored CRDs of --old are read first: each CRD of the same name
	// among the documents is checked as an update of one.
	var stored map[string]*crdschema.CRD
	if len(o.olds) > 0 {
		var ok bool
		if stored, ok, err = storedCRDs(o.olds, in, stderr); err != nil {
			fmt.Fprintf(stderr, "crdschema: %v\n", err)
			return 2
		}
		rd.inputErr = !ok
	}
	found := false
	err = rd.each(files, func(d crdschema.Document) error {
		if o.skipNonCRDs {
			if reason := nonCRDReason(&d); reason != "" {
				rd.counts.skip(skipNotCRD, d.File)
				oc := skippedOutcome(d.File, d.Index, d.Line, d.Object, reason)
				return p.print(oc, skippedLine(oc))
			}
		}
		r, errs, err := checkDocument(d, stored)
		if err != nil {
			reportError(stderr, err)
			rd.inputErr = true
			return nil
		}
		found = found || len(errs) > 0 || (o.lintFail && len(r.Lint) > 0)
		rd.counts.checked(len(errs))
		oc := outcome{file: r.File, document: r.Document, line: r.Line, kind: r.Kind, name: r.Name, errs: errs, notes: r.Warnings, update: r.Operation == "UPDATE",
			lint: r.Lint, lintFails: o.lintFail}
		return p.print(oc, place(&oc, r, d))
	})
	if err == nil {
		err = rd.finish()
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	return rd.status("check", found)
}

// nonCRDReason says why check --skip-non-crds skips a document: it has a
// string apiVersion and kind (so it is a Kubernetes object, not a bare
// schema) and is not a CustomResourceDefinition. "" when it is checked.
func nonCRDReason(d *crdschema.Document) string {
	obj := d.Object
	if d.IsCRD() {
		return ""
	}
	apiVersion, ok1 := obj["apiVersion"].(string)
	kind, ok2 := obj["kind"].(string)
	if !ok1 || !ok2 || apiVersion == "" || kind == "" {
		return ""
	}
	return fmt.Sprintf("not a CustomResourceDefinition: %s %s", apiVersion, kind)
}

// checkDocument checks one document: a CRD (as an update when stored has
// a CRD of its name) or a bare schema. It returns the document's JSON line
// and its errors, sorted.
func checkDocument(d crdschema.Document, stored map[string]*crdschema.CRD) (checkResult, field.ErrorList, error) {
	r := checkResult{File: d.File, Document: d.Index, Line: d.Line}
	var errs field.ErrorList
	if d.IsCRD() {
		crd, err := d.CRD()
		if err != nil {
			return r, nil, err
		}
		r.Kind, r.Name = "CustomResourceDefinition", crd.Name()
		errs = checkCRD(crd, stored, &r)
		r.Lint = lintCRD(d, crd)
	} else {
		s, err := d.Schema()
		var rejected *crdschema.RejectedError
		switch {
		case errors.As(err, &rejected):
			errs = rejected.Errors
		case err != nil:
			return r, nil, err
		default:
			errs = s.Errors()
			r.Warnings = s.Warnings()
		}
		r.Kind = "Schema"
	}
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	r.Errors = toJSONErrors(errs)
	return r, errs, nil
}
