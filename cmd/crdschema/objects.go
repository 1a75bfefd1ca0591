package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/layout"
	"github.com/crdschema/crdschema/schema"
)

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
	// Operation is "CREATE" or "UPDATE" with --old, absent otherwise.
	Operation string `json:"operation,omitempty"`
	// Warnings holds the deprecation warning of a request to a
	// deprecated version (apply, convert --to), absent otherwise.
	Warnings []string `json:"warnings,omitempty"`
	// CRD is the file:line of the CustomResourceDefinition that checked
	// the object (issue 29), absent when none did.
	CRD string `json:"crd,omitempty"`
	// Templated are the fields whose values a tool fills in ({{ ... }},
	// ${NAME}, a chainsaw binding): in a lint (--skip-unknown-kinds)
	// errors about them are not counted (issue 29).
	Templated []string `json:"templated,omitempty"`
	// Suggestions maps an unknown field to the declared field it is
	// probably a misspelling of (issue 29), absent when there is none.
	Suggestions map[string]string `json:"suggestions,omitempty"`
	// Source is the file a rendered object came from: the template named
	// by helm template's "# Source:" comment, or kustomize's
	// config.kubernetes.io/origin annotation (issue 29); absent otherwise.
	Source string `json:"source,omitempty"`
}

func runObjects(verb string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseArgs(verb, args)
	if err == nil {
		err = checkObjectOptions(o)
	}
	if status, done := argsDone(verb, err, stdout, stderr); done {
		return status
	}
	in := &inputs{stdin: stdin, max: o.maxInput}
	return withBudget(o.timeout, stdout, stderr, func(stdout, stderr io.Writer) int {
		return objectInputs(verb, o, in, stdout, stderr)
	})
}

// checkObjectOptions rejects flag combinations the object verbs do not
// take, sets the default output format and checks that standard input is
// named at most once.
func checkObjectOptions(o *options) error {
	switch {
	case len(o.crds) > 0 && o.schemaSet:
		return errors.New("--crd and --schema exclude each other")
	case o.schemaSet && o.skipUnknownKinds:
		return errors.New("--skip-unknown-kinds routes objects by kind: it needs --crd (or CRDs among OBJECTS), not --schema")
	case len(o.operands) == 0:
		return errors.New("no OBJECTS given")
	case len(o.olds) > 0 && o.schemaSet:
		return errors.New("--old needs --crd (stored objects are routed by kind), not --schema")
	case o.subresourceSet && len(o.olds) == 0:
		return errors.New("--subresource needs --old")
	case o.subresourceSet && o.subresource != "status":
		return fmt.Errorf("--subresource must be status, not %q", o.subresource)
	}
	if o.output == "" {
		o.output = "yaml"
	}
	if o.output != "yaml" && !slices.Contains(outputFormats, o.output) {
		return fmt.Errorf("-o must be one of yaml, %s, not %q", strings.Join(outputFormats, ", "), o.output)
	}
	var schemaPath []string
	if o.schemaSet {
		schemaPath = []string{o.schema}
	}
	return stdinOnce(o.operands, o.crds, schemaPath, o.olds)
}

// objectInputs is an object verb with its arguments parsed. The objects
// are read, processed and printed one document at a time.
func objectInputs(verb string, o *options, in *inputs, stdout, stderr io.Writer) int {
	p := newPrinter(o.output, verb, stdout, stderr)
	stderr = withInputErrors(p, stderr, stdout, verb)
	files, err := expandInputs(o.operands, o.excludes)
	if err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	lint := o.skipUnknownKinds
	run := objectRun{verb: verb, o: o, crdsFromObjects: len(o.crds) == 0 && !o.schemaSet}
	var ls *layouts
	if lint {
		ls = &layouts{}
	}
	status, ok := run.load(files, in, ls, stderr)
	if !ok {
		return status
	}
	if err := run.warnConflicts(p, stderr); err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	rd := &docReader{in: in, lint: lint, p: p, stderr: stderr, inputErr: status == 2, layouts: ls}
	found := false
	err = rd.each(files, func(d crdschema.Document) error {
		oc, line, failed := run.document(d, rd.place)
		line = place(&oc, line, d)
		found = found || failed
		if oc.skipped != "" {
			rd.counts.skip(oc.skipClass, d.File)
		} else {
			rd.counts.checked(len(oc.errs))
		}
		return p.print(oc, line)
	})
	if err == nil {
		err = rd.finish()
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	return rd.status(verb, found)
}

// load reads what routes the objects: the --schema, the --crd CRDs or the
// CRDs among the objects (a first pass over files), and the --old stored
// objects. It returns 2 and ok false when the run cannot go on, status 2
// and ok true when a CRD could not be read but the others route objects.
func (run *objectRun) load(files []inputFile, in *inputs, ls *layouts, stderr io.Writer) (status int, ok bool) {
	o := run.o
	var err error
	crdsOK := true
	switch {
	case o.schemaSet:
		run.bare, run.bareErr, err = loadBareSchema(o.schema, in)
	case run.crdsFromObjects:
		// CRDs among the objects: those documents are definitions, not
		// objects to process. Standard input is then read twice.
		if err = in.bufferStdin(files); err != nil {
			break
		}
		run.crds, crdsOK = crdsAmongFiles(files, in, ls, stderr)
		if len(run.crds) == 0 && crdsOK && !anyDocument(files, in) {
			// Nothing to route: the second pass reports what it cannot read.
			return 0, true
		}
		if len(run.crds) == 0 && !o.skipUnknownKinds {
			err = errors.New("no --crd or --schema given, and no CustomResourceDefinition among OBJECTS")
		}
	default:
		run.crds, crdsOK, err = loadCRDs(o.crds, in, stderr)
	}
	if err == nil && len(o.olds) > 0 {
		run.stored, err = loadStored(run.crds, o.olds, in)
	}
	if err != nil {
		reportError(stderr, err)
		return 2, false
	}
	if !crdsOK {
		return 2, true
	}
	return 0, true
}

// objectRun is what an object verb applies every document with: the
// routing targets and the stored objects of an update.
type objectRun struct {
	verb            string
	o               *options
	crds            []*crdschema.CRD
	bare            *crdschema.Schema
	bareErr         error // a bare schema the apiserver would reject routes nothing
	stored          map[objectKey]map[string]any
	crdsFromObjects bool
	// conflicted are the names of the CRDs defined more than once, with
	// differing specs (see warnConflicts).
	conflicted map[string]bool
}

// document routes one document and runs the verb on it. It returns the
// document's outcome, the line the printer writes (a skippedResult or an
// objectResult) and whether the document has errors.
// place is what the repository's layout says of the document's file.
func (run *objectRun) document(d crdschema.Document, place layout.Place) (outcome, any, bool) {
	o := run.o
	kind, name := documentKindName(d.Object)
	oc := outcome{file: d.File, document: d.Index, line: d.Line, kind: kind, name: name, source: renderedSource(d)}
	if (run.crdsFromObjects || o.skipUnknownKinds) && d.IsCRD() {
		oc.skipped, oc.skipClass = "CustomResourceDefinition: a definition, not an object", skipCRD
		return oc, skippedLine(oc), false
	}
	s, routeErr := run.bare, run.bareErr
	if s == nil && routeErr == nil {
		s, routeErr = crdschema.Route(run.crds, d.Object)
		if reason := unknownKind(routeErr); reason != "" && o.skipUnknownKinds {
			oc.skipped, oc.skipClass = reason, skipUnknown
			return oc, skippedLine(oc), false
		}
	}
	var r crdschema.Result
	update := false
	switch {
	case routeErr != nil:
		r.Errors = field.ErrorList{routingError(routeErr)}
	case run.stored != nil:
		r, update = runUpdate(s, d, run.stored, o.subresourceSet)
	default:
		r = runVerb(run.verb, s, d)
	}
	if run.verb == "apply" && routeErr == nil {
		// A request: the keys its JSON holds twice are warned about, or
		// with --strict rejected with the unknown fields.
		r.Duplicates = d.Duplicates
		if o.strict {
			r = r.Strict()
		}
	}
	templated := run.lintResult(&oc, &r, d, s, place)
	var object any
	if r.Object != nil {
		object = r.Object
	}
	pruned := r.Pruned // sorted and unique, from the root pipeline
	if pruned == nil {
		pruned = []string{} // the contract's JSON has "pruned": []
	}
	oc.object, oc.pruned, oc.errs, oc.deprecation, oc.duplicates = object, pruned, r.Errors, r.Deprecation, r.Duplicates
	res := objectResult{File: d.File, Document: d.Index, Line: d.Line, Kind: kind, Name: name, Object: object, Pruned: pruned, Errors: toJSONErrors(r.Errors), Warnings: deprecationWarnings(r.Deprecation),
		CRD: oc.crd, Templated: templated, Suggestions: oc.suggest, Source: oc.source}
	res.Errors = withHints(res.Errors, r.Errors, oc.hints)
	if run.stored != nil {
		res.Operation = "CREATE"
		if update {
			res.Operation = "UPDATE"
		}
	}
	return oc, res, len(r.Errors) > 0
}

// lintResult is what issue 29 adds to an object's result: in a lint of a
// repository (--skip-unknown-kinds), the errors about values a tool fills
// in are dropped from r (their fields returned); elsewhere an object is a
// request as given, answered as the apiserver answers it. oc gets the "did
// you mean" of its unknown fields and the CRD that checked it (s, nil when
// routing failed).
func (run *objectRun) lintResult(oc *outcome, r *crdschema.Result, d crdschema.Document, s *crdschema.Schema, place layout.Place) []string {
	var templated []string
	if run.o.skipUnknownKinds {
		r.Errors, templated = withoutPlaceholders(r.Errors, d.Object, place.Bindings)
	}
	if place.Role == layout.Update {
		r.Errors = withoutRequired(r.Errors)
	}
	if s == nil {
		return templated
	}
	oc.hints, oc.suggest = suggestions(s, r.Errors, r.Pruned)
	if c := s.CRD(); c != nil && c.Position().File != "" {
		oc.crd = crdAt(c)
		oc.crdConflicts = run.conflicted[c.Name()]
	}
	return templated
}

// deprecationWarnings is the warnings field of a line: the deprecation
// warning, or none.
func deprecationWarnings(deprecation string) []string {
	if deprecation == "" {
		return nil
	}
	return []string{deprecation}
}

func skippedLine(oc outcome) skippedResult {
	return skippedResult{File: oc.file, Document: oc.document, Line: oc.line, Kind: oc.kind, Name: oc.name, Skipped: oc.skipped}
}

// unknownKind says why --skip-unknown-kinds skips an object that could not
// be routed: no CRD given (accepted or not) defines its group and kind. ""
// when the routing error stands: a malformed apiVersion or kind, or a kind
// some CRD defines (in another version, or in a CRD that would be
// rejected).
func unknownKind(routeErr error) string {
	var uk *crdschema.UnknownKindError
	if !errors.As(routeErr, &uk) {
		return ""
	}
	gk := uk.Kind
	if group, _, ok := strings.Cut(uk.APIVersion, "/"); ok && group != "" {
		gk += "." + group
	}
	return fmt.Sprintf("no CustomResourceDefinition given defines %s", gk)
}

// loadBareSchema reads the schema given with --schema. A schema the
// apiserver would reject is returned as rejected (a *RejectedError): it
// routes no object.
func loadBareSchema(path string, in *inputs) (s *crdschema.Schema, rejected, err error) {
	docs, err := in.readFile(path)
	if err != nil {
		return nil, nil, err
	}
	if len(docs) != 1 {
		return nil, nil, &schema.InputError{File: path, Err: errors.New("--schema needs exactly one schema document")}
	}
	s, err = docs[0].Schema()
	var re *crdschema.RejectedError
	switch {
	case errors.As(err, &re):
		return nil, re, nil
	case err != nil:
		return nil, nil, err
	case len(s.Errors()) > 0:
		return nil, &crdschema.RejectedError{Errors: s.Errors()}, nil
	}
	return s, nil, nil
}

// loadCRDs reads the CRDs of the --crd paths. A document that cannot be
// read or decoded is reported on stderr (ok false) and the other CRDs are
// still loaded; err is a path that cannot be expanded.
func loadCRDs(paths []string, in *inputs, stderr io.Writer) (out []*crdschema.CRD, ok bool, err error) {
	return loadCRDsEach(paths, in, stderr, nil)
}

// loadCRDsEach is loadCRDs calling each (when not nil) with every CRD and
// its document, as crdsAmongEach.
func loadCRDsEach(paths []string, in *inputs, stderr io.Writer, each func(*crdschema.CRD, *crdschema.Document)) (out []*crdschema.CRD, ok bool, err error) {
	files, err := expandPaths(paths)
	if err != nil {
		return nil, false, err
	}
	ok = true
	for _, f := range files {
		docs, readOK := readInput(f, in, stderr)
		cs, decodeOK := crdsAmongEach(docs, stderr, each)
		ok = ok && readOK && decodeOK
		out = append(out, cs...)
	}
	return out, ok, nil
}

// crdsAmongEach decodes the CRD documents among docs, calling each (when
// not nil) with every CRD and its document; the other documents are
// ignored. A CRD that cannot be decoded is reported on stderr (ok false)
// and left out.
func crdsAmongEach(docs []crdschema.Document, stderr io.Writer, each func(*crdschema.CRD, *crdschema.Document)) (out []*crdschema.CRD, ok bool) {
	ok = true
	for i := range docs {
		if !docs[i].IsCRD() {
			continue
		}
		c, err := docs[i].CRD()
		if err != nil {
			reportError(stderr, err)
			ok = false
			continue
		}
		if each != nil {
			each(c, &docs[i])
		}
		out = append(out, c)
	}
	return out, ok
}

// noObjects is the answer to inputs without a single document (empty
// files, comments only, /dev/null, an empty directory): as kubectl says
// "no objects passed to apply", and exit 2, since nothing was checked.
func noObjects(verb string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "crdschema: no objects passed to %s\n", verb)
	return 2
}

// readInput reads the documents of one file, reporting on stderr each
// part that cannot be read; ok is false when there was one.
func readInput(f string, in *inputs, stderr io.Writer) (docs []crdschema.Document, ok bool) {
	docs, err := in.readFile(f)
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

// routingError is the contract's error for an object that reaches no
// schema: the decoder's own field error, or NotFound at kind (no CRD takes
// the kind, or it would be rejected) or apiVersion (the version is not
// served).
func routingError(err error) *field.Error {
	var fe *field.Error
	if errors.As(err, &fe) {
		return fe
	}
	at := "kind"
	var ns *crdschema.NotServedError
	if errors.As(err, &ns) {
		at = "apiVersion"
	}
	return &field.Error{Type: field.ErrorTypeNotFound, Field: at, BadValue: field.OmitValueType{}, Detail: err.Error()}
}
