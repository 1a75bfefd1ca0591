package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// options are the parsed flags and operands of a verb.
type options struct {
	output           string
	crds             []string
	schema           string
	schemaSet        bool
	strict           bool
	skipUnknownKinds bool
	skipNonCRDs      bool
	operands         []string
	// olds are the --old paths: the stored objects updates apply to
	// (apply), the stored CRDs (check).
	olds []string
	// subresource is --subresource's value ("status"), subresourceSet
	// whether it was given.
	subresource    string
	subresourceSet bool
	// maxInput is the size limit of one input (--max-input-bytes).
	maxInput int64
	// timeout is the run's time budget (--timeout); 0 means none.
	timeout time.Duration
	// excludes are the --exclude patterns of a directory walk.
	excludes []string
	// lintFail makes check's lint findings fail the run (--lint-fail).
	lintFail bool
}

// errHelp is returned by parseArgs for -h and --help.
var errHelp = errors.New("help requested")

// parseArgs parses the flags of verb, anywhere among the operands, with
// the verb's own flag set.
func parseArgs(verb string, args []string) (*options, error) {
	o := &options{maxInput: defaultMaxInput}
	var fs *flag.FlagSet
	if verb == "check" {
		fs = checkFlagSet(o)
	} else {
		fs = objectFlagSet(verb, o)
	}
	operands, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, err
	}
	o.operands = operands
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "schema":
			o.schemaSet = true
		case "subresource":
			o.subresourceSet = true
		}
	})
	return o, nil
}

// newFlagSet is the flag set of a verb, parsed with parseInterleaved. It
// prints nothing: the verb reports a parse error (its message and usage
// line on stderr, exit 2) and -h (errHelp: its help on stdout, exit 0).
func newFlagSet(verb string) *flag.FlagSet {
	fs := flag.NewFlagSet("crdschema "+verb, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// argsDone reports a verb's argument error as newFlagSet's doc says: -h
// (errHelp) prints the verb's help on stdout (status 0), any other error
// its message and usage line on stderr (status 2). done is false when err
// is nil: the verb runs.
func argsDone(verb string, err error, stdout, stderr io.Writer) (status int, done bool) {
	switch {
	case err == nil:
		return 0, false
	case err == errHelp:
		fmt.Fprint(stdout, verbHelp[verb])
		return 0, true
	}
	fmt.Fprintf(stderr, "crdschema %s: %v\n%s", verb, err, verbUsage(verb))
	return 2, true
}

// parseCommon parses args into fs, which binds o (commonFlags): it keeps
// the operands and defaults -o to text.
func parseCommon(fs *flag.FlagSet, o *options, args []string) error {
	operands, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	o.operands = operands
	if o.output == "" {
		o.output = "text"
	}
	return nil
}

// oneOf checks a flag's value against the values it takes.
func oneOf(flagName string, values []string, v string) error {
	if !slices.Contains(values, v) {
		return fmt.Errorf("%s must be one of %s, not %q", flagName, strings.Join(values, ", "), v)
	}
	return nil
}

// commonFlags adds the flags check and the object verbs share.
func commonFlags(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.output, "o", "", "output format")
	fs.StringVar(&o.output, "output", "", "output format")
	fs.Var(sizeValue{&o.maxInput}, "max-input-bytes", "size limit of one input")
	fs.Var(durationValue{&o.timeout}, "timeout", "time budget of the run")
	fs.Var(stringList{&o.excludes}, "exclude", "glob of what a directory walk leaves out (repeatable)")
}

// checkFlagSet is the flag set of check.
func checkFlagSet(o *options) *flag.FlagSet {
	fs := newFlagSet("check")
	commonFlags(fs, o)
	fs.BoolVar(&o.skipNonCRDs, "skip-non-crds", false, "skip what is not a CRD or a bare schema")
	fs.Var(stringList{&o.olds}, "old", "stored CRDs: a CRD of the same name is checked as an update (repeatable)")
	fs.BoolVar(&o.lintFail, "lint-fail", false, "exit 1 when a CRD has lint findings")
	return fs
}

// objectFlagSet is the flag set of prune, default and apply.
func objectFlagSet(verb string, o *options) *flag.FlagSet {
	fs := newFlagSet(verb)
	commonFlags(fs, o)
	fs.Var(stringList{&o.crds}, "crd", "CRDs to route objects to (repeatable)")
	fs.StringVar(&o.schema, "schema", "", "one bare schema for every object")
	fs.BoolVar(&o.skipUnknownKinds, "skip-unknown-kinds", false, "skip what no CRD given defines")
	if verb == "apply" {
		fs.BoolVar(&o.strict, "strict", false, "fieldValidation=Strict")
		fs.Var(stringList{&o.olds}, "old", "stored objects (repeatable)")
		fs.StringVar(&o.subresource, "subresource", "", "status: every update is a status update")
	}
	return fs
}

// parseInterleaved parses args with fs, flags anywhere among the operands
// (the standard library stops at the first operand): each flag and its
// value are handed to fs.Parse on their own. "--" ends the flags; "-" is an
// operand (standard input). It returns the operands in order.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(operands, args[i+1:]...), nil
		}
		if a == "-" || len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
		n, err := parseOneFlag(fs, args[i:])
		if err != nil {
			return nil, err
		}
		i += n - 1
	}
	return operands, nil
}

// parseOneFlag parses the flag args[0] (and its value, args[1], when it
// takes one and has no "=value") and returns how many arguments it used.
// The errors name the flag as it was written.
func parseOneFlag(fs *flag.FlagSet, args []string) (int, error) {
	written, val, hasVal := strings.Cut(args[0], "=")
	name := strings.TrimLeft(written, "-")
	f := fs.Lookup(name)
	switch {
	case f == nil && (name == "h" || name == "help") && len(written)-len(name) <= 2:
		return 0, errHelp
	case f == nil || len(written)-len(name) > 2:
		return 0, fmt.Errorf("unknown flag %s", written)
	}
	chunk := args[:1]
	if !hasVal && !isBoolFlag(f) {
		if len(args) < 2 {
			return 0, fmt.Errorf("flag %s needs a value", written)
		}
		chunk, val = args[:2], args[1]
	}
	if err := fs.Parse(chunk); err != nil {
		if isBoolFlag(f) {
			return 0, fmt.Errorf("flag %s takes true or false, not %q", written, val)
		}
		// The value's own message, without the flag package's prefix.
		return 0, fmt.Errorf("flag %s: %v", written, f.Value.Set(val))
	}
	return len(chunk), nil
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// stringList is a repeatable string flag.
type stringList struct{ p *[]string }

func (l stringList) String() string {
	if l.p == nil {
		return ""
	}
	return strings.Join(*l.p, ",")
}

func (l stringList) Set(s string) error {
	*l.p = append(*l.p, s)
	return nil
}

// sizeValue is --max-input-bytes: a size as parseSize reads it.
type sizeValue struct{ p *int64 }

func (v sizeValue) String() string {
	if v.p == nil {
		return ""
	}
	return formatSize(*v.p)
}

func (v sizeValue) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*v.p = n
	return nil
}

// durationValue is --timeout: a non-negative duration.
type durationValue struct{ p *time.Duration }

func (v durationValue) String() string {
	if v.p == nil {
		return ""
	}
	return v.p.String()
}

func (v durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("want a duration such as 30s or 2m, not %q", s)
	}
	*v.p = d
	return nil
}
