package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

// Exit statuses of the command.
const (
	ExitOK     = 0 // every document clean
	ExitErrors = 1 // some document or object has errors
	ExitInput  = 2 // unreadable input or bad arguments
)

// Env is the environment of one command run.
type Env struct {
	// Dir resolves relative paths (the working directory when empty).
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

const usage = `usage:
  oracle check [--old PATH]... [-o text|json] PATH...
  oracle openapi [--crd PATH...] [-o json|yaml] [PATH...]
  oracle columns --crd PATH... [--now RFC3339] [-o json|yaml] OBJECTS...
  oracle scale --crd PATH... [-o json|yaml] OBJECTS...
  oracle prune|default|apply (--crd PATH... | --schema PATH) [--no-cel] [-o yaml|json] OBJECTS...
  oracle apply --crd PATH... --old PATH... [--subresource status] [--no-cel] [-o yaml|json] OBJECTS...
  oracle convert --crd PATH... --to [GROUP/]VERSION [-o yaml|json] OBJECTS...
  oracle convert --review -o json PATH...`

// Run runs the command with the given arguments (without the program name)
// and returns its exit status.
func Run(ctx context.Context, env Env, args []string) int {
	if env.Stdout == nil {
		env.Stdout = io.Discard
	}
	if env.Stderr == nil {
		env.Stderr = io.Discard
	}
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, usage)
		return ExitInput
	}
	verb, rest := args[0], args[1:]
	opts, err := parseFlags(verb, rest)
	if err != nil {
		fmt.Fprintf(env.Stderr, "oracle: %v\n%s\n", err, usage)
		return ExitInput
	}
	r := &runner{env: env, opts: opts, codec: newCodec()}
	switch verb {
	case "check":
		return r.check(ctx)
	case "openapi":
		return r.openapi(ctx)
	case "columns", "scale":
		return r.served(ctx, verb)
	}
	if opts.review {
		return r.reviews()
	}
	return r.objects(ctx, objectVerb(verb))
}

type options struct {
	output string
	crds   []string
	schema string
	noCEL  bool
	paths  []string
	// olds are the --old paths: stored objects that objects update.
	olds []string
	// subresource is --subresource's value ("status").
	subresource string
	// to is convert's --to version; review is convert --review.
	to     string
	review bool
	// now is --now (columns): the clock of date cells.
	now time.Time
}

func parseFlags(verb string, args []string) (*options, error) {
	o := &options{}
	switch verb {
	case "check":
		o.output = "text"
	case "openapi":
		o.output = "json"
	case "columns", "scale":
		o.output = "json"
	case string(verbPrune), string(verbDefault), string(verbApply), string(verbConvert):
		o.output = "yaml"
	default:
		return nil, fmt.Errorf("unknown verb %q", verb)
	}
	objectVerb := verb != "check" && verb != "openapi"
	servedVerb := verb == "columns" || verb == "scale"
	hasSchema := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			o.paths = append(o.paths, args[i+1:]...)
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			o.paths = append(o.paths, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		needValue := func() (string, error) {
			if hasValue {
				return value, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("flag %s needs a value", a)
			}
			i++
			return args[i], nil
		}
		switch {
		case name == "o" || name == "output":
			v, err := needValue()
			if err != nil {
				return nil, err
			}
			o.output = v
		case name == "crd" && verb == "openapi":
			v, err := needValue()
			if err != nil {
				return nil, err
			}
			o.paths = append(o.paths, v)
		case name == "crd" && servedVerb:
			v, err := needValue()
			if err != nil {
				return nil, err
			}
			o.crds = append(o.crds, v)
		case name == "now" && verb == "columns":
			v, err := needValue()
			if err != nil {
				return nil, err
			}
			if o.now, err = time.Parse(time.RFC3339, v); err != nil {
				return nil, fmt.Errorf("--now: %v", err)
			}
		case name == "crd" && objectVerb:
			v, err := needValue()
			if err != nil {
				return nil, err
			}
			o.crds = append(o.crds, v)
		case name == "schema" && objectVerb:
			v, err := needValue()
			if err != nil {
				return nil, err
			}
			if hasSchema {
				return nil, errors.New("--schema may be given only once")
			}
			hasSchema = true
			o.schema = v
		case name == "review" && verb == string(verbConvert):
			o.review = true
		case name == "to" && verb == string(verbConvert):
			v, err := needValue()
			if err != nil {
				return nil, err
			}
			o.to = v
		case name == "no-cel":
			o.noCEL = true
		case name == "old" && (verb == string(verbApply) || verb == "check"):
			v, err := needValue()
			if err != nil {
				return nil, err
			}
			o.olds = append(o.olds, v)
		case name == "subresource" && verb == string(verbApply):
			v, err := needValue()
			if err != nil {
				return nil, err
			}
			if v != "status" {
				return nil, fmt.Errorf("--subresource must be status, not %q", v)
			}
			o.subresource = v
		default:
			return nil, fmt.Errorf("unknown flag %s", a)
		}
	}
	if servedVerb {
		if o.output != "yaml" && o.output != "json" {
			return nil, fmt.Errorf("-o must be yaml or json, not %q", o.output)
		}
		if len(o.crds) == 0 {
			return nil, errors.New("--crd is required")
		}
	} else if objectVerb {
		if o.output != "yaml" && o.output != "json" {
			return nil, fmt.Errorf("-o must be yaml or json, not %q", o.output)
		}
		if o.review {
			if len(o.crds) > 0 || hasSchema || o.to != "" || o.output != "json" {
				return nil, errors.New("convert --review takes ConversionReviews only, and -o json")
			}
		} else if hasSchema == (len(o.crds) > 0) {
			return nil, errors.New("exactly one of --crd and --schema is required")
		}
		if len(o.olds) > 0 && hasSchema {
			return nil, errors.New("--old needs --crd")
		}
		if verb == string(verbConvert) && !o.review && (o.to == "" || hasSchema) {
			return nil, errors.New("convert needs --to and --crd")
		}
		if o.subresource != "" && len(o.olds) == 0 {
			return nil, errors.New("--subresource needs --old")
		}
	} else if verb == "openapi" && o.output != "yaml" && o.output != "json" {
		return nil, fmt.Errorf("-o must be json or yaml, not %q", o.output)
	} else if verb == "check" && o.output != "text" && o.output != "json" {
		return nil, fmt.Errorf("-o must be text or json, not %q", o.output)
	}
	if len(o.paths) == 0 {
		return nil, errors.New("no input paths")
	}
	return o, nil
}

type runner struct {
	env   Env
	opts  *options
	codec *codec
}

func (r *runner) inputError(err error) {
	fmt.Fprintf(r.env.Stderr, "oracle: %v\n", err)
}

// checkDoc checks a CRD or bare schema document; a decode failure is
// returned as an InputError.
func (r *runner) checkDoc(ctx context.Context, d Document, bareAllowed bool) (*checkedCRD, error) {
	var c *checkedCRD
	var err error
	switch {
	case IsCRD(d.Object):
		c, err = r.codec.checkCRD(ctx, d, r.opts.noCEL)
	case bareAllowed:
		c, err = r.codec.checkSchema(ctx, d, r.opts.noCEL)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, &InputError{File: d.File, Line: d.Line, Document: d.Index, Err: err}
	}
	c.Errors = sortedErrors(c.Errors)
	return c, nil
}

type jsonError struct {
	Type   string `json:"type"`
	Field  string `json:"field"`
	Detail string `json:"detail"`
}

// jsonErrors converts errors to the contract's form. A Duplicate error,
// whose apiserver detail is empty, carries the duplicated value as the
// apiserver's message (and kubectl) prints it.
func jsonErrors(errs field.ErrorList) []jsonError {
	out := make([]jsonError, 0, len(errs))
	for _, e := range errs {
		detail := e.Detail
		if e.Type == field.ErrorTypeDuplicate && detail == "" && e.BadValue != (field.OmitValueType{}) {
			body := (&field.Error{Type: e.Type, BadValue: e.BadValue}).ErrorBody()
			detail = strings.TrimPrefix(body, field.ErrorTypeDuplicate.String()+": ")
		}
		out = append(out, jsonError{Type: string(e.Type), Field: e.Field, Detail: detail})
	}
	return out
}

type checkLine struct {
	File     string      `json:"file"`
	Document int         `json:"document"`
	Kind     string      `json:"kind"`
	Name     string      `json:"name"`
	Errors   []jsonError `json:"errors"`
	Warnings []string    `json:"warnings"`
	// Operation is UPDATE or CREATE for CRDs with --old, omitted
	// otherwise.
	Operation string `json:"operation,omitempty"`
}

type objectLine struct {
	File     string                 `json:"file"`
	Document int                    `json:"document"`
	Object   map[string]interface{} `json:"object"`
	Pruned   []string               `json:"pruned"`
	Errors   []jsonError            `json:"errors"`
	// Operation is CREATE or UPDATE with --old, omitted otherwise.
	Operation string `json:"operation,omitempty"`
}

func writeJSONLine(w io.Writer, v interface{}) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func (r *runner) check(ctx context.Context) int {
	docs, docErrs, err := ReadDocuments(r.env.Dir, r.opts.paths, r.env.Stdin)
	if err != nil {
		r.inputError(err)
		return ExitInput
	}
	status := ExitOK
	for _, e := range docErrs {
		r.inputError(e)
		status = ExitInput
	}
	var stored map[string]*apiextensions.CustomResourceDefinition
	if len(r.opts.olds) > 0 {
		var ok bool
		if stored, ok = r.loadStoredCRDs(ctx); !ok {
			status = ExitInput
		}
	}
	for _, d := range docs {
		c, crashed, err := r.safeCheckDoc(ctx, d, true)
		if crashed {
			continue
		}
		if err != nil {
			r.inputError(err)
			status = ExitInput
			continue
		}
		line := checkLine{File: d.File, Document: d.Index, Kind: c.Kind, Name: c.Name}
		if c.Kind == KindCRD && stored != nil {
			line.Operation = "CREATE"
		}
		if old := stored[c.Name]; c.Kind == KindCRD && old != nil {
			line.Operation = "UPDATE"
			if c.Errors, line.Warnings, err = r.checkUpdate(ctx, d, old); err != nil {
				r.inputError(err)
				status = ExitInput
				continue
			}
		} else {
			line.Warnings = r.codec.createWarnings(ctx, c.Internal, c.Errors)
		}
		if len(c.Errors) > 0 && status == ExitOK {
			status = ExitErrors
		}
		if r.opts.output == "json" {
			line.Errors = jsonErrors(c.Errors)
			if err := writeJSONLine(r.env.Stdout, line); err != nil {
				r.inputError(err)
				return ExitInput
			}
			continue
		}
		what := c.Kind
		if c.Name != "" {
			what += " " + c.Name
		}
		if line.Operation == "UPDATE" {
			what += " (update)"
		}
		if len(c.Errors) == 0 {
			fmt.Fprintf(r.env.Stdout, "%s: document %d: %s: OK\n", d.File, d.Index, what)
		} else {
			fmt.Fprintf(r.env.Stdout, "%s: document %d: %s: %d errors\n", d.File, d.Index, what, len(c.Errors))
		}
		for _, e := range c.Errors {
			fmt.Fprintf(r.env.Stdout, "  %s\n", errorWithoutValue(e))
		}
		for _, w := range line.Warnings {
			fmt.Fprintf(r.env.Stdout, "  warning: %s\n", w)
		}
	}
	return status
}

func (r *runner) objects(ctx context.Context, v objectVerb) int {
	status := ExitOK
	var router *router
	// CRDs whose checking panicked in the apiserver's code: the objects
	// that would have gone to them get no answer (see crash).
	crashedKinds := map[string]bool{}
	crashedAll := false
	if r.opts.schema != "" {
		docs, docErrs, err := ReadDocuments(r.env.Dir, []string{r.opts.schema}, r.env.Stdin)
		if err != nil {
			r.inputError(err)
			return ExitInput
		}
		if len(docErrs) > 0 {
			for _, e := range docErrs {
				r.inputError(e)
			}
			return ExitInput
		}
		if len(docs) != 1 || IsCRD(docs[0].Object) {
			r.inputError(fmt.Errorf("--schema %s: expected exactly one bare schema document", r.opts.schema))
			return ExitInput
		}
		c, crashed, err := r.safeCheckDoc(ctx, docs[0], true)
		if crashed {
			// Every object would have gone to this schema.
			crashedAll = true
			c = &checkedCRD{Kind: KindSchema}
			err = nil
		}
		if err != nil {
			r.inputError(err)
			return ExitInput
		}
		for _, e := range c.Errors {
			fmt.Fprintf(r.env.Stderr, "oracle: %s: the schema would be rejected: %s\n", r.opts.schema, errorWithoutValue(e))
		}
		router = newSchemaRouter(c)
	} else {
		docs, docErrs, err := ReadDocuments(r.env.Dir, r.opts.crds, r.env.Stdin)
		if err != nil {
			r.inputError(err)
			return ExitInput
		}
		for _, e := range docErrs {
			r.inputError(e)
			status = ExitInput
		}
		var crds []*checkedCRD
		for _, d := range docs {
			c, crashed, err := r.safeCheckDoc(ctx, d, false)
			if crashed {
				if gk, ok := rawGroupKind(d.Object); ok {
					crashedKinds[gk] = true
				} else {
					crashedAll = true
				}
				continue
			}
			if err != nil {
				r.inputError(err)
				status = ExitInput
				continue
			}
			if c == nil {
				fmt.Fprintf(r.env.Stderr, "oracle: %s:%d: document %d: not a CustomResourceDefinition, ignored\n", d.File, d.Line, d.Index)
				continue
			}
			crds = append(crds, c)
		}
		router = newRouter(crds)
		router.to = r.opts.to
	}

	var stored storedObjects
	if len(r.opts.olds) > 0 {
		oldDocs, oldErrs, err := ReadDocuments(r.env.Dir, r.opts.olds, r.env.Stdin)
		if err != nil {
			r.inputError(err)
			return ExitInput
		}
		if len(oldErrs) > 0 {
			for _, e := range oldErrs {
				r.inputError(e)
			}
			return ExitInput
		}
		stored = router.loadStored(oldDocs)
	}

	docs, docErrs, err := ReadDocuments(r.env.Dir, r.opts.paths, r.env.Stdin)
	if err != nil {
		r.inputError(err)
		return ExitInput
	}
	for _, e := range docErrs {
		r.inputError(e)
		status = ExitInput
	}
	first := true
	for _, d := range docs {
		if crashedAll || crashedKinds[objectGroupKind(d.Object)] {
			r.crash(d, "routed to a CustomResourceDefinition whose checking panicked")
			continue
		}
		res, crashed := r.safeProcess(ctx, router, v, d, stored)
		if crashed {
			continue
		}
		if len(res.Errors) > 0 && status == ExitOK {
			status = ExitErrors
		}
		if r.opts.output == "json" {
			if err := writeJSONLine(r.env.Stdout, objectLine{File: d.File, Document: d.Index, Object: res.Object, Pruned: sortedUnique(res.Pruned), Errors: jsonErrors(res.Errors), Operation: res.Operation}); err != nil {
				r.inputError(err)
				return ExitInput
			}
			continue
		}
		for _, p := range res.Pruned {
			fmt.Fprintf(r.env.Stderr, "%s: document %d: pruned %s\n", d.File, d.Index, p)
		}
		for _, e := range res.Errors {
			fmt.Fprintf(r.env.Stderr, "%s: document %d: %s\n", d.File, d.Index, errorWithoutValue(e))
		}
		if res.Object == nil {
			continue
		}
		b, err := yaml.Marshal(res.Object)
		if err != nil {
			r.inputError(err)
			return ExitInput
		}
		if !first {
			fmt.Fprintln(r.env.Stdout, "---")
		}
		first = false
		if _, err := r.env.Stdout.Write(b); err != nil {
			return ExitInput
		}
	}
	return status
}

// The apiserver's own code panics on some inputs (for example
// ValidateCustomResourceSelectableFields on a version without a structural
// schema). The real server would answer such a request with an internal
// error, which is no verdict on the semantics, so the oracle answers
// nothing for that document: it writes one line
//
//	oracle: crashed: FILE#DOCUMENT: panic: MESSAGE
//
// to standard error, leaves the document out of standard output and does
// not let it change the exit status. The comparator skips those documents
// (and only those) and counts them as not compared.

// CrashPrefix starts the standard-error line of a document the oracle could
// not answer because the apiserver's code panicked on it.
const CrashPrefix = "oracle: crashed: "

func (r *runner) crash(d Document, why any) {
	fmt.Fprintf(r.env.Stderr, "%s%s#%d: panic: %v\n", CrashPrefix, d.File, d.Index, why)
}

// safeCheckDoc is checkDoc, reporting a panic as a crashed document.
func (r *runner) safeCheckDoc(ctx context.Context, d Document, bareAllowed bool) (c *checkedCRD, crashed bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.crash(d, p)
			c, crashed, err = nil, true, nil
		}
	}()
	c, err = r.checkDoc(ctx, d, bareAllowed)
	return c, false, err
}

// safeProcess is router.process, reporting a panic as a crashed document.
func (r *runner) safeProcess(ctx context.Context, rt *router, v objectVerb, d Document, stored storedObjects) (res objectResult, crashed bool) {
	defer func() {
		if p := recover(); p != nil {
			r.crash(d, p)
			crashed = true
		}
	}()
	return rt.process(ctx, v, d, stored, r.opts.subresource == "status"), false
}

// rawGroupKind reads spec.group and spec.names.kind of a CRD document as
// written, as "group/kind".
func rawGroupKind(obj map[string]interface{}) (string, bool) {
	spec, _ := obj["spec"].(map[string]interface{})
	names, _ := spec["names"].(map[string]interface{})
	group, ok1 := spec["group"].(string)
	kind, ok2 := names["kind"].(string)
	return group + "/" + kind, ok1 && ok2
}

// objectGroupKind is the "group/kind" an object would be routed by.
func objectGroupKind(obj map[string]interface{}) string {
	kind, _ := obj["kind"].(string)
	apiVersion, _ := obj["apiVersion"].(string)
	group := ""
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		group = apiVersion[:i]
	}
	return group + "/" + kind
}
