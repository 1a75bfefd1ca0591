// Command oracle answers what a real kube-apiserver (k8s.io/apiextensions-apiserver
// v0.37.2) says or does for CustomResourceDefinitions and custom resources,
// following the crdschema command-line contract:
//
//	oracle check [-o text|json] PATH...
//	oracle prune|default|apply (--crd PATH... | --schema PATH) [--no-cel] [-o yaml|json] OBJECTS...
//
// It is the reference the crdschema library is tested against.
package main

import (
	"context"
	"os"

	"github.com/crdschema/crdschema/conformance/oracle"
)

func main() {
	os.Exit(oracle.Run(context.Background(), oracle.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, os.Args[1:]))
}
