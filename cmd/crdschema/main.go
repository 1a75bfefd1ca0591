// Command crdschema does what the Kubernetes apiserver does with the OpenAPI
// v3 schemas of CustomResourceDefinitions, without an apiserver:
//
//	crdschema check [-o text|json] PATH...
//	crdschema prune|default|apply (--crd PATH... | --schema PATH) [-o yaml|json] OBJECTS...
//
// check reports the errors `kubectl create` of each CRD (or bare schema)
// would get; prune, default and apply show what the apiserver makes of each
// custom resource. The -o json output is a stable contract (JSON Lines).
// Exit status: 0 clean, 1 errors found, 2 unreadable input or bad arguments.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage:
  crdschema check [-o text|json] PATH...
  crdschema prune|default|apply (--crd PATH... | --schema PATH) [-o yaml|json] OBJECTS...

PATH is a file, a directory (walked for *.yaml, *.yml, *.json) or - for stdin.
`

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
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "crdschema: unknown command %q\n%s", args[0], usage)
	return 2
}

// options are the parsed flags and operands of a verb.
type options struct {
	output    string
	crds      []string
	schema    string
	schemaSet bool
	operands  []string
}

// parseArgs parses flags anywhere among the operands. allowed lists the
// flags the verb takes besides -o.
func parseArgs(args []string, objectVerb bool) (*options, error) {
	o := &options{}
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
		var err error
		switch name {
		case "-o", "--output":
			o.output, err = takeVal()
		case "--crd", "-crd":
			if !objectVerb {
				return nil, fmt.Errorf("unknown flag %s", name)
			}
			var v string
			v, err = takeVal()
			o.crds = append(o.crds, v)
		case "--schema", "-schema":
			if !objectVerb {
				return nil, fmt.Errorf("unknown flag %s", name)
			}
			o.schema, err = takeVal()
			o.schemaSet = true
		default:
			return nil, fmt.Errorf("unknown flag %s", name)
		}
		if err != nil {
			return nil, err
		}
	}
	return o, nil
}
