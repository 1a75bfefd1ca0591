package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/check"
	"github.com/crdschema/crdschema/schema"
)

// target is what an object is routed to: a served version of an accepted
// CRD, or the bare schema given with --schema.
type target struct {
	crd     *schema.CRD // nil with --schema
	version string
	props   *schema.Props // the version's schema; nil when it has none
	// rejected holds a bare schema's check errors: like a CRD that check
	// rejects, such a schema would not be served, so it routes nothing.
	rejected field.ErrorList
}

// result is what a verb makes of one object.
type result struct {
	object any // nil when the object was rejected or could not be routed
	pruned []string
	errs   field.ErrorList
}

// objectResult is one line of the object verbs' -o json output.
type objectResult struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	Line     int    `json:"line"`
	// Kind and Name are the document's kind and metadata.name as read,
	// omitted when absent or not strings.
	Kind   string      `json:"kind,omitempty"`
	Name   string      `json:"name,omitempty"`
	Object any         `json:"object"`
	Pruned []string    `json:"pruned"`
	Errors []jsonError `json:"errors"`
}

// crdEntry is one CRD given with --crd, with its check verdict.
type crdEntry struct {
	crd      *schema.CRD
	rejected field.ErrorList
	targets  map[string]*target // by version name, built lazily
}

func runObjects(verb string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseArgs(verb, args)
	if err == errHelp {
		fmt.Fprint(stdout, verbHelp[verb])
		return 0
	}
	if err == nil {
		switch {
		case len(o.crds) > 0 && o.schemaSet:
			err = errors.New("--crd and --schema exclude each other")
		case o.schemaSet && o.skipUnknownKinds:
			err = errors.New("--skip-unknown-kinds routes objects by kind: it needs --crd (or CRDs among OBJECTS), not --schema")
		case len(o.operands) == 0:
			err = errors.New("no OBJECTS given")
		}
	}
	if err == nil && o.output == "" {
		o.output = "yaml"
	}
	if err == nil && o.output != "yaml" && !slices.Contains(outputFormats, o.output) {
		err = fmt.Errorf("-o must be one of yaml, %s, not %q", strings.Join(outputFormats, ", "), o.output)
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema %s: %v\n%s", verb, err, verbUsage(verb))
		return 2
	}

	files, err := schema.ExpandPaths(o.operands)
	if err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	var docs []schema.Document
	inputErr := false
	for _, f := range files {
		// Unreadable parts are reported, and exit 2, but the readable
		// objects still go on.
		ds, ok := readInput(f, stdin, stderr)
		if !ok {
			inputErr = true
		}
		docs = append(docs, ds...)
	}

	var crds []*crdEntry
	var bare *target
	// crdsFromObjects: without --crd and --schema the CRDs are the ones
	// among the objects, and those CRD documents are definitions, not
	// objects to process.
	crdsFromObjects := len(o.crds) == 0 && !o.schemaSet
	// A CRD document that cannot be read or decoded is reported (exit 2)
	// and the other CRDs still route objects.
	crdsOK := true
	switch {
	case o.schemaSet:
		bare, err = loadBareSchema(o.schema, stdin)
	case crdsFromObjects:
		crds, crdsOK = crdsAmong(docs, stderr)
		if len(crds) == 0 && !o.skipUnknownKinds {
			err = errors.New("no --crd or --schema given, and no CustomResourceDefinition among OBJECTS")
		}
	default:
		crds, crdsOK, err = loadCRDs(o.crds, stdin, stderr)
	}
	if err != nil {
		reportError(stderr, err)
		return 2
	}
	if !crdsOK {
		inputErr = true
	}

	status := 0
	p := newPrinter(o.output, verb, stdout, stderr)
	for _, d := range docs {
		kind, name := documentKindName(d.Object)
		oc := outcome{file: d.File, document: d.Index, line: d.Line, kind: kind, name: name}
		if (crdsFromObjects || o.skipUnknownKinds) && schema.IsCRD(d.Object) {
			oc.skipped = "CustomResourceDefinition: a definition, not an object"
			if err := p.print(oc, skippedLine(oc)); err != nil {
				fmt.Fprintf(stderr, "crdschema: %v\n", err)
				return 2
			}
			continue
		}
		var r result
		t := bare
		var routeErr *field.Error
		if t == nil {
			t, routeErr = route(crds, d.Object)
			if routeErr != nil && o.skipUnknownKinds {
				if reason := unknownKind(crds, d.Object); reason != "" {
					oc.skipped = reason
					if err := p.print(oc, skippedLine(oc)); err != nil {
						fmt.Fprintf(stderr, "crdschema: %v\n", err)
						return 2
					}
					continue
				}
			}
		}
		if routeErr == nil && len(t.rejected) > 0 {
			routeErr = notFound("kind", fmt.Sprintf("the schema would be rejected (%d errors, first: %s)", len(t.rejected), t.rejected[0].Error()))
		}
		if routeErr != nil {
			r.errs = field.ErrorList{routeErr}
		} else {
			r = runVerb(verb, t, d)
			if o.strict {
				r = strictResult(r, d)
			}
		}
		if len(r.errs) > 0 {
			status = 1
		}
		pruned := r.pruned // sorted and unique, from the root pipeline
		if pruned == nil {
			pruned = []string{} // the contract's JSON has "pruned": []
		}
		oc.object, oc.pruned, oc.errs = r.object, pruned, r.errs
		res := objectResult{File: d.File, Document: d.Index, Line: d.Line, Kind: kind, Name: name, Object: r.object, Pruned: pruned, Errors: toJSONErrors(r.errs)}
		if err := p.print(oc, res); err != nil {
			fmt.Fprintf(stderr, "crdschema: %v\n", err)
			return 2
		}
	}
	if err := p.finish(); err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	if inputErr {
		return 2
	}
	return status
}

func skippedLine(oc outcome) skippedResult {
	return skippedResult{File: oc.file, Document: oc.document, Line: oc.line, Kind: oc.kind, Name: oc.name, Skipped: oc.skipped}
}

// unknownKind says why --skip-unknown-kinds skips an object that could not
// be routed: it has a string apiVersion and kind, and no CRD given (accepted
// or not) defines its group and kind. "" when the routing error stands: a
// malformed apiVersion or kind, or a kind some CRD defines (in another
// version, or in a CRD that would be rejected).
func unknownKind(crds []*crdEntry, obj map[string]any) string {
	if typeMetaError(obj) != nil {
		return ""
	}
	kind, apiVersion := obj["kind"].(string), obj["apiVersion"].(string)
	group, _, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group = ""
	}
	for _, e := range crds {
		if e.crd.Spec.Group == group && e.crd.Spec.Names.Kind == kind {
			return ""
		}
	}
	gk := kind
	if group != "" {
		gk += "." + group
	}
	return fmt.Sprintf("no CustomResourceDefinition given defines %s", gk)
}

func loadBareSchema(path string, stdin io.Reader) (*target, error) {
	docs, err := schema.ReadFile(path, stdin)
	if err != nil {
		return nil, err
	}
	if len(docs) != 1 {
		return nil, &schema.InputError{File: path, Err: errors.New("--schema needs exactly one schema document")}
	}
	p := &schema.Props{}
	if err := schema.DecodeProps(docs[0].JSON, p); err != nil {
		return nil, &schema.InputError{File: path, Line: docs[0].Line, Err: fmt.Errorf("cannot decode schema: %w", err)}
	}
	t := &target{props: p, rejected: check.Schema(p)}
	check.SortErrors(t.rejected)
	return t, nil
}

// loadCRDs reads the CRDs of the --crd paths. A document that cannot be
// read or decoded is reported on stderr (ok false) and the other CRDs are
// still loaded; err is a path that cannot be expanded.
func loadCRDs(paths []string, stdin io.Reader, stderr io.Writer) (out []*crdEntry, ok bool, err error) {
	files, err := schema.ExpandPaths(paths)
	if err != nil {
		return nil, false, err
	}
	ok = true
	for _, f := range files {
		docs, readOK := readInput(f, stdin, stderr)
		es, decodeOK := crdsAmong(docs, stderr)
		ok = ok && readOK && decodeOK
		out = append(out, es...)
	}
	return out, ok, nil
}

// crdsAmong decodes and checks the CRD documents among docs; the other
// documents are ignored. A CRD that cannot be decoded is reported on stderr
// (ok false) and left out.
func crdsAmong(docs []schema.Document, stderr io.Writer) (out []*crdEntry, ok bool) {
	ok = true
	for _, d := range docs {
		if !schema.IsCRD(d.Object) {
			continue
		}
		crd, err := schema.DecodeCRDDocument(d)
		if err != nil {
			reportError(stderr, &schema.InputError{File: d.File, Line: d.Line, Err: fmt.Errorf("document %d: cannot decode CustomResourceDefinition: %w", d.Index, err)})
			ok = false
			continue
		}
		errs := check.CRD(crd)
		check.SortErrors(errs)
		out = append(out, &crdEntry{crd: crd, rejected: errs, targets: map[string]*target{}})
	}
	return out, ok
}

// readInput reads the documents of one file, reporting on stderr each
// part that cannot be read; ok is false when there was one.
func readInput(f string, stdin io.Reader, stderr io.Writer) (docs []schema.Document, ok bool) {
	docs, err := schema.ReadFile(f, stdin)
	if err == nil {
		return docs, true
	}
	reportError(stderr, err)
	return docs, false
}

// reportError writes err on stderr, one line per unreadable document.
func reportError(stderr io.Writer, err error) {
	var errs schema.InputErrors
	if errors.As(err, &errs) {
		for _, e := range errs {
			fmt.Fprintf(stderr, "crdschema: %v\n", e)
		}
		return
	}
	fmt.Fprintf(stderr, "crdschema: %v\n", err)
}

// typeMetaError checks the object's kind and apiVersion as the apiserver's
// decoder does before routing: both present, non-empty strings, the
// apiVersion a group/version. (With a bare schema there is no routing; the
// pipeline checks what the apiserver's decoder checks there.)
func typeMetaError(obj map[string]any) *field.Error {
	for _, name := range []string{"kind", "apiVersion"} {
		v := obj[name]
		str, isString := v.(string)
		switch {
		case v == nil || (isString && str == ""):
			return field.Required(field.NewPath(name), "")
		case !isString:
			return field.Invalid(field.NewPath(name), v, "must be a string")
		case name == "apiVersion" && strings.Count(str, "/") > 1:
			return field.Invalid(field.NewPath(name), str, "unexpected GroupVersion string: "+str)
		}
	}
	return nil
}

// route finds the CRD version an object belongs to, or the routing error.
func route(crds []*crdEntry, obj map[string]any) (*target, *field.Error) {
	if err := typeMetaError(obj); err != nil {
		return nil, err
	}
	kind, apiVersion := obj["kind"].(string), obj["apiVersion"].(string)
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "", apiVersion
	}
	noMatch := fmt.Sprintf("no matches for kind %q in version %q", kind, apiVersion)
	var rejected *crdEntry
	for _, e := range crds {
		if e.crd.Spec.Group != group || e.crd.Spec.Names.Kind != kind {
			continue
		}
		if len(e.rejected) > 0 {
			if rejected == nil {
				rejected = e
			}
			continue
		}
		var served []string
		for _, v := range e.crd.Spec.Versions {
			if v.Served {
				served = append(served, v.Name)
			}
			if v.Name == version && v.Served {
				return e.target(version), nil
			}
		}
		sort.Strings(served)
		return nil, notFound("apiVersion", fmt.Sprintf("%s: CustomResourceDefinition %q serves %s", noMatch, e.crd.Metadata.Name, strings.Join(served, ", ")))
	}
	if rejected != nil {
		first := rejected.rejected[0]
		return nil, notFound("kind", fmt.Sprintf("%s: CustomResourceDefinition %q would be rejected (%d errors, first: %s)", noMatch, rejected.crd.Metadata.Name, len(rejected.rejected), first.Error()))
	}
	return nil, notFound("kind", noMatch)
}

func notFound(path, detail string) *field.Error {
	return &field.Error{Type: field.ErrorTypeNotFound, Field: path, BadValue: field.OmitValueType{}, Detail: detail}
}

// target returns the (one, shared) target of a served version.
func (e *crdEntry) target(version string) *target {
	t, ok := e.targets[version]
	if !ok {
		t = &target{crd: e.crd, version: version, props: e.crd.SchemaFor(version)}
		e.targets[version] = t
	}
	return t
}
