// Command difftest is a random differential tester: it generates random CRDs,
// bare schemas and objects (package gen), runs both the crdschema command and
// the apiserver oracle on them, and reports every difference by the rules of
// the conformance README, with a minimal reproducer per kind of difference.
//
//	go run ./cmd/difftest -seed S -n N [-verbs check,prune,default,apply,update,warnings,crd-update,convert,review,openapi,columns,scale] [-keep DIR]
//
// A seed of 0 picks one from the clock (and prints it). The binaries are built
// from the checkout unless -crdschema and -oracle name prebuilt ones. The last
// line is "N cases, M mismatches (seed S)"; the exit status is 1 when there
// are mismatches, 2 on a setup error.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/crdschema/crdschema/conformance/gen/diff"
)

func main() {
	seed := flag.Int64("seed", 0, "generator seed (0: from the clock)")
	n := flag.Int("n", 200, "number of cases")
	verbs := flag.String("verbs", "check,prune,default,apply,update,convert,review,warnings,crd-update", "comma-separated verbs to test (update: apply --old; convert: convert --to; review: convert --review; warnings: check with formats and sets; crd-update: check --old; also openapi, columns, scale)")
	keep := flag.String("keep", "", "directory for minimal reproducers of each mismatch class")
	crdschema := flag.String("crdschema", "", "prebuilt crdschema binary (default: build ../cmd/crdschema)")
	oracle := flag.String("oracle", "", "prebuilt oracle binary (default: build ./cmd/oracle)")
	shrink := flag.Int("shrink", 150, "command runs spent minimising each mismatch class (with -keep)")
	flag.Parse()
	if *seed == 0 {
		*seed = time.Now().UnixNano() % 1_000_000_000
		fmt.Printf("seed %d\n", *seed)
	}
	opts := diff.Options{Seed: *seed, N: *n, Keep: *keep, Crdschema: *crdschema, Oracle: *oracle, Shrink: *shrink, Log: os.Stdout}
	for _, v := range strings.Split(*verbs, ",") {
		if v = strings.TrimSpace(v); v != "" {
			opts.Verbs = append(opts.Verbs, v)
		}
	}
	if opts.Crdschema == "" || opts.Oracle == "" {
		dir, err := os.MkdirTemp("", "difftest-bin")
		if err != nil {
			fmt.Fprintln(os.Stderr, "difftest:", err)
			os.Exit(2)
		}
		defer os.RemoveAll(dir)
		c, o, err := diff.Build(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "difftest:", err)
			os.RemoveAll(dir)
			os.Exit(2)
		}
		if opts.Crdschema == "" {
			opts.Crdschema = c
		}
		if opts.Oracle == "" {
			opts.Oracle = o
		}
	}
	res, err := diff.Run(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "difftest:", err)
		os.Exit(2)
	}
	if res.Mismatched > 0 {
		os.Exit(1)
	}
}
