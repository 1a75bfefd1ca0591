package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/check"
	"github.com/crdschema/crdschema/schema"
)

// checkResult is one line of `check -o json`.
type checkResult struct {
	File     string      `json:"file"`
	Document int         `json:"document"`
	Kind     string      `json:"kind"`
	Name     string      `json:"name"`
	Errors   []jsonError `json:"errors"`
}

// jsonError is an error in the contract's JSON form.
type jsonError struct {
	Type   string `json:"type"`
	Field  string `json:"field"`
	Detail string `json:"detail"`
}

func toJSONErrors(errs field.ErrorList) []jsonError {
	check.SortErrors(errs)
	out := make([]jsonError, 0, len(errs))
	for _, e := range errs {
		out = append(out, jsonError{Type: string(e.Type), Field: e.Field, Detail: e.Detail})
	}
	return out
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseArgs(args, false)
	if err == nil && len(o.operands) == 0 {
		err = errors.New("no PATH given")
	}
	if err == nil && o.output == "" {
		o.output = "text"
	}
	if err == nil && o.output != "text" && o.output != "json" {
		err = fmt.Errorf("-o must be text or json, not %q", o.output)
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema check: %v\n%s", err, usage)
		return 2
	}
	files, err := schema.ExpandPaths(o.operands)
	if err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	// An unreadable file or document is reported on stderr and makes the
	// exit status 2, but every readable document is still checked, as the
	// apiserver would answer for each one it is sent.
	var results []checkResult
	inputErr := false
	for _, f := range files {
		docs, err := schema.ReadFile(f, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "crdschema: %v\n", err)
			inputErr = true
			continue
		}
		for _, d := range docs {
			r, err := checkDocument(d)
			if err != nil {
				fmt.Fprintf(stderr, "crdschema: %v\n", err)
				inputErr = true
				continue
			}
			results = append(results, r)
		}
	}
	status := 0
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	for _, r := range results {
		if len(r.Errors) > 0 {
			status = 1
		}
		if o.output == "json" {
			if err := enc.Encode(r); err != nil {
				fmt.Fprintf(stderr, "crdschema: %v\n", err)
				return 2
			}
			continue
		}
		printCheckText(stdout, r)
	}
	if inputErr {
		return 2
	}
	return status
}

func printCheckText(w io.Writer, r checkResult) {
	what := r.Kind
	if r.Name != "" {
		what += " " + r.Name
	}
	if len(r.Errors) == 0 {
		fmt.Fprintf(w, "%s#%d: %s: ok\n", r.File, r.Document, what)
		return
	}
	fmt.Fprintf(w, "%s#%d: %s: %d error(s)\n", r.File, r.Document, what, len(r.Errors))
	for _, e := range r.Errors {
		fe := field.Error{Type: field.ErrorType(e.Type), Field: e.Field, Detail: e.Detail, BadValue: field.OmitValueType{}}
		fmt.Fprintf(w, "  %s\n", fe.Error())
	}
}

// checkDocument checks one document: a CRD or a bare schema.
func checkDocument(d schema.Document) (checkResult, error) {
	r := checkResult{File: d.File, Document: d.Index}
	if d.Object == nil {
		return r, &schema.InputError{File: d.File, Line: d.Line, Err: fmt.Errorf("document %d is not a mapping", d.Index)}
	}
	if schema.IsCRD(d.Object) {
		crd, err := schema.DecodeCRDDocument(d)
		if err != nil {
			return r, &schema.InputError{File: d.File, Line: d.Line, Err: fmt.Errorf("document %d: cannot decode CustomResourceDefinition: %w", d.Index, err)}
		}
		r.Kind, r.Name = "CustomResourceDefinition", crd.Metadata.Name
		r.Errors = toJSONErrors(check.CRD(crd))
		return r, nil
	}
	var p schema.Props
	if err := schema.DecodeProps(d.JSON, &p); err != nil {
		return r, &schema.InputError{File: d.File, Line: d.Line, Err: fmt.Errorf("document %d: cannot decode schema: %w", d.Index, err)}
	}
	r.Kind = "Schema"
	r.Errors = toJSONErrors(check.Schema(&p))
	return r, nil
}
