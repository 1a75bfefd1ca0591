package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

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
	File     string      `json:"file"`
	Document int         `json:"document"`
	Object   any         `json:"object"`
	Pruned   []string    `json:"pruned"`
	Errors   []jsonError `json:"errors"`
}

// crdEntry is one CRD given with --crd, with its check verdict.
type crdEntry struct {
	crd      *schema.CRD
	rejected field.ErrorList
	targets  map[string]*target // by version name, built lazily
}

func runObjects(verb string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseArgs(args, true)
	if err == nil {
		switch {
		case len(o.crds) == 0 && !o.schemaSet:
			err = errors.New("one of --crd or --schema is required")
		case len(o.crds) > 0 && o.schemaSet:
			err = errors.New("--crd and --schema exclude each other")
		case len(o.operands) == 0:
			err = errors.New("no OBJECTS given")
		}
	}
	if err == nil && o.output == "" {
		o.output = "yaml"
	}
	if err == nil && o.output != "yaml" && o.output != "json" {
		err = fmt.Errorf("-o must be yaml or json, not %q", o.output)
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema %s: %v\n%s", verb, err, usage)
		return 2
	}

	var crds []*crdEntry
	var bare *target
	if o.schemaSet {
		bare, err = loadBareSchema(o.schema, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "crdschema: %v\n", err)
			return 2
		}
	} else {
		crds, err = loadCRDs(o.crds, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "crdschema: %v\n", err)
			return 2
		}
	}

	files, err := schema.ExpandPaths(o.operands)
	if err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	var docs []schema.Document
	inputErr := false
	for _, f := range files {
		ds, err := schema.ReadFile(f, stdin)
		if err != nil {
			// Reported, and exit 2, but the readable objects still go on.
			fmt.Fprintf(stderr, "crdschema: %v\n", err)
			inputErr = true
			continue
		}
		docs = append(docs, ds...)
	}

	status := 0
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	first := true
	for _, d := range docs {
		var r result
		if d.Object == nil {
			r.errs = field.ErrorList{field.Invalid(field.NewPath(""), nil, "object is not a mapping")}
		} else {
			t := bare
			var routeErr *field.Error
			if t == nil {
				t, routeErr = route(crds, d.Object)
			}
			if routeErr == nil && len(t.rejected) > 0 {
				routeErr = notFound("kind", fmt.Sprintf("the schema would be rejected (%d errors, first: %s)", len(t.rejected), t.rejected[0].Error()))
			}
			if routeErr != nil {
				r.errs = field.ErrorList{routeErr}
			} else {
				r = runVerb(verb, t, d.Object)
			}
		}
		if len(r.errs) > 0 {
			status = 1
		}
		pruned := r.pruned // sorted and unique, from the root pipeline
		if pruned == nil {
			pruned = []string{} // the contract's JSON has "pruned": []
		}
		res := objectResult{File: d.File, Document: d.Index, Object: r.object, Pruned: pruned, Errors: toJSONErrors(r.errs)}
		if o.output == "json" {
			if err := enc.Encode(res); err != nil {
				fmt.Fprintf(stderr, "crdschema: %v\n", err)
				return 2
			}
			continue
		}
		if err := printObjectYAML(stdout, stderr, res, &first); err != nil {
			fmt.Fprintf(stderr, "crdschema: %v\n", err)
			return 2
		}
	}
	if inputErr {
		return 2
	}
	return status
}

func printObjectYAML(stdout, stderr io.Writer, r objectResult, first *bool) error {
	for _, p := range r.Pruned {
		fmt.Fprintf(stderr, "%s#%d: pruned %s\n", r.File, r.Document, p)
	}
	for _, e := range r.Errors {
		fe := field.Error{Type: field.ErrorType(e.Type), Field: e.Field, Detail: e.Detail, BadValue: field.OmitValueType{}}
		fmt.Fprintf(stderr, "%s#%d: %s\n", r.File, r.Document, fe.Error())
	}
	if r.Object == nil {
		return nil
	}
	b, err := yaml.Marshal(r.Object)
	if err != nil {
		return err
	}
	if !*first {
		fmt.Fprintln(stdout, "---")
	}
	*first = false
	_, err = stdout.Write(b)
	return err
}

func loadBareSchema(path string, stdin io.Reader) (*target, error) {
	docs, err := schema.ReadFile(path, stdin)
	if err != nil {
		return nil, err
	}
	if len(docs) != 1 || docs[0].Object == nil {
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

func loadCRDs(paths []string, stdin io.Reader) ([]*crdEntry, error) {
	files, err := schema.ExpandPaths(paths)
	if err != nil {
		return nil, err
	}
	var out []*crdEntry
	for _, f := range files {
		docs, err := schema.ReadFile(f, stdin)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			if d.Object == nil || !schema.IsCRD(d.Object) {
				continue
			}
			crd, err := schema.DecodeCRDDocument(d)
			if err != nil {
				return nil, &schema.InputError{File: f, Line: d.Line, Err: fmt.Errorf("document %d: cannot decode CustomResourceDefinition: %w", d.Index, err)}
			}
			errs := check.CRD(crd)
			check.SortErrors(errs)
			out = append(out, &crdEntry{crd: crd, rejected: errs, targets: map[string]*target{}})
		}
	}
	return out, nil
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
