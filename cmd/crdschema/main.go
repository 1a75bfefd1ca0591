// Command crdschema does what the Kubernetes apiserver does with the OpenAPI
// v3 schemas of CustomResourceDefinitions, without an apiserver:
//
//	crdschema check [--skip-non-crds] [-o text|json|github|junit] PATH...
//	crdschema prune|default|apply [--crd PATH... | --schema PATH] [-o yaml|json|text|github|junit] OBJECTS...
//	crdschema apply [--strict] [--skip-unknown-kinds] OBJECTS...
//	crdschema apply --crd PATH... --old PATH... [--subresource status] OBJECTS...
//	crdschema help [VERB]
//	crdschema version
//
// check reports the errors `kubectl create` of each CRD (or bare schema)
// would get; prune, default and apply show what the apiserver makes of each
// custom resource. The -o json output is a stable contract (JSON Lines),
// described in docs/cli.md of the module.
// Exit status: 0 clean, 1 errors found, 2 unreadable input or bad arguments.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "check":
		return runCheck(args[1:], stdin, stdout, stderr)
	case "prune", "default", "apply":
		return runObjects(args[0], args[1:], stdin, stdout, stderr)
	case "openapi":
		return runOpenAPI(args[1:], stdin, stdout, stderr)
	case "columns":
		return runColumns(args[1:], stdin, stdout, stderr)
	case "scale":
		return runScale(args[1:], stdin, stdout, stderr)
	case "jsonschema":
		return runJSONSchema(args[1:], stdin, stdout, stderr)
	case "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return 0
	case "help":
		return runHelp(args[1:], stdout, stderr)
	case "version", "--version", "-version":
		return runVersion(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "crdschema: unknown command %q\n%s", args[0], usage)
	return 2
}

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
	// olds are the --old paths (apply): the stored objects updates apply to.
	olds []string
	// subresource is --subresource's value ("status"), subresourceSet
	// whether it was given.
	subresource    string
	subresourceSet bool
	// maxInput is the size limit of one input (--max-input-bytes).
	maxInput int64
	// timeout is the run's time budget (--timeout); 0 means none.
	timeout time.Duration
}

// errHelp is returned by parseArgs for -h and --help.
var errHelp = errors.New("help requested")

// parseArgs parses the flags of verb, anywhere among the operands.
func parseArgs(verb string, args []string) (*options, error) {
	objectVerb := verb != "check"
	o := &options{maxInput: defaultMaxInput}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" || len(a) < 2 || a[0] != '-' {
			o.operands = append(o.operands, a)
			continue
		}
		if a == "--" {
			o.operands = append(o.operands, args[i+1:]...)
			break
		}
		name, val, hasVal := a, "", false
		for j := 0; j < len(a); j++ {
			if a[j] == '=' {
				name, val, hasVal = a[:j], a[j+1:], true
				break
			}
		}
		takeVal := func() (string, error) {
			if hasVal {
				return val, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("flag %s needs a value", name)
			}
			i++
			return args[i], nil
		}
		// A boolean flag takes no value, or an explicit =true / =false.
		boolVal := func() (bool, error) {
			if !hasVal {
				return true, nil
			}
			b, err := strconv.ParseBool(val)
			if err != nil {
				return false, fmt.Errorf("flag %s takes true or false, not %q", name, val)
			}
			return b, nil
		}
		var err error
		switch {
		case name == "-h" || name == "--help" || name == "-help":
			return nil, errHelp
		case name == "-o" || name == "--output":
			o.output, err = takeVal()
		case objectVerb && (name == "--crd" || name == "-crd"):
			var v string
			v, err = takeVal()
			o.crds = append(o.crds, v)
		case objectVerb && (name == "--schema" || name == "-schema"):
			o.schema, err = takeVal()
			o.schemaSet = true
		case verb == "apply" && (name == "--strict" || name == "-strict"):
			o.strict, err = boolVal()
		case objectVerb && (name == "--skip-unknown-kinds" || name == "-skip-unknown-kinds"):
			o.skipUnknownKinds, err = boolVal()
		case !objectVerb && (name == "--skip-non-crds" || name == "-skip-non-crds"):
			o.skipNonCRDs, err = boolVal()
		case verb == "apply" && (name == "--old" || name == "-old"):
			var v string
			v, err = takeVal()
			o.olds = append(o.olds, v)
		case verb == "apply" && (name == "--subresource" || name == "-subresource"):
			o.subresource, err = takeVal()
			o.subresourceSet = true
		case name == "--max-input-bytes" || name == "-max-input-bytes":
			var v string
			if v, err = takeVal(); err == nil {
				if o.maxInput, err = parseSize(v); err != nil {
					err = fmt.Errorf("flag %s: %v", name, err)
				}
			}
		case name == "--timeout" || name == "-timeout":
			var v string
			if v, err = takeVal(); err == nil {
				if o.timeout, err = time.ParseDuration(v); err != nil || o.timeout < 0 {
					err = fmt.Errorf("flag %s: want a duration such as 30s or 2m, not %q", name, v)
				}
			}
		default:
			return nil, fmt.Errorf("unknown flag %s", name)
		}
		if err != nil {
			return nil, err
		}
	}
	return o, nil
}
