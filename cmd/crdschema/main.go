// Command crdschema does what the Kubernetes apiserver does with the OpenAPI
// v3 schemas of CustomResourceDefinitions, without an apiserver:
//
//	crdschema check [--skip-non-crds] [--old PATH]... [-o text|json|github|junit] PATH...
//	crdschema prune|default|apply [--crd PATH... | --schema PATH] [-o yaml|json|text|github|junit] OBJECTS...
//	crdschema apply [--strict] [--skip-unknown-kinds] OBJECTS...
//	crdschema apply --crd PATH... --old PATH... [--subresource status] OBJECTS...
//	crdschema explain --crd PATH... TYPE[.FIELD.PATH] [--api-version G/V] [--recursive] [-o plaintext|json]
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
	"fmt"
	"io"
	"os"
)

func main() {
	deferGC()
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
	case "convert":
		return runConvert(args[1:], stdin, stdout, stderr)
	case "openapi":
		return runOpenAPI(args[1:], stdin, stdout, stderr)
	case "columns":
		return runColumns(args[1:], stdin, stdout, stderr)
	case "scale":
		return runScale(args[1:], stdin, stdout, stderr)
	case "sample":
		return runSample(args[1:], stdin, stdout, stderr)
	case "jsonschema":
		return runJSONSchema(args[1:], stdin, stdout, stderr)
	case "explain":
		return runExplain(args[1:], stdin, stdout, stderr)
	case "revision":
		return runRevision(args[1:], stdin, stdout, stderr)
	case "migrate":
		return runMigrate(args[1:], stdin, stdout, stderr)
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
