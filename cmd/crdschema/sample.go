package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"sigs.k8s.io/yaml"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/revision"
)

// sampleOptions are the parsed arguments of sample.
type sampleOptions struct {
	crd       string
	version   string
	n         int
	seed      uint64
	output    string
	roundTrip bool
	maxInput  int64
}

// parseSampleArgs parses sample's flags (no operands).
func parseSampleArgs(args []string) (*sampleOptions, error) {
	o := &sampleOptions{maxInput: defaultMaxInput}
	fs := newFlagSet("sample")
	fs.StringVar(&o.crd, "crd", "", "the CRD (a file holding one CRD)")
	fs.StringVar(&o.version, "version", "", "the served version (default: the preferred one)")
	fs.IntVar(&o.n, "n", 1, "objects per version")
	seed := fs.String("seed", "1", "the seed (an unsigned integer)")
	fs.StringVar(&o.output, "o", "yaml", "output format: yaml or json")
	fs.StringVar(&o.output, "output", "yaml", "output format (same as -o)")
	fs.BoolVar(&o.roundTrip, "round-trip", false, "round-trip the objects between every pair of served versions")
	fs.Var(sizeValue{&o.maxInput}, "max-input-bytes", "size limit of the CRD file")
	operands, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, err
	}
	switch {
	case len(operands) > 0:
		return nil, fmt.Errorf("unexpected operand %q", operands[0])
	case o.crd == "":
		return nil, errors.New("--crd is required")
	case o.n < 1:
		return nil, fmt.Errorf("-n must be at least 1, not %d", o.n)
	case o.output != "yaml" && o.output != "json":
		return nil, fmt.Errorf("-o must be yaml or json, not %q", o.output)
	case o.roundTrip && o.version != "":
		return nil, errors.New("--round-trip covers every served version: no --version")
	}
	if o.seed, err = strconv.ParseUint(*seed, 10, 64); err != nil {
		return nil, fmt.Errorf("--seed: %q is not an unsigned integer", *seed)
	}
	return o, nil
}

// runSample prints valid example objects of a CRD version, or with
// --round-trip what a round trip between its versions loses.
func runSample(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseSampleArgs(args)
	if status, done := argsDone("sample", err, stdout, stderr); done {
		return status
	}
	// The summary of the --crd input goes to stderr, after the objects;
	// -o json's output is its lines only.
	p := linePrinter{}
	if o.output != "json" {
		p.stderr = stderr
	}
	rd := &docReader{in: &inputs{stdin: stdin, max: o.maxInput}, p: p, stderr: stderr}
	crd, err := loadOneCRD(o, rd)
	status := 2
	switch {
	case err != nil:
		reportError(stderr, err)
	case o.roundTrip:
		status = printRoundTrips(crd, o, stdout, stderr)
	default:
		status = printSamples(crd, o, stdout, stderr)
	}
	if err := rd.finish(); err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	return status
}

// loadOneCRD reads --crd, which must hold exactly one CRD the apiserver
// accepts.
func loadOneCRD(o *sampleOptions, rd *docReader) (*crdschema.CRD, error) {
	names, err := expandPaths([]string{o.crd})
	if err != nil {
		return nil, err
	}
	crds, err := rd.crds(namedFiles(names))
	switch {
	case err != nil:
		return nil, err
	case rd.inputErr:
		return nil, fmt.Errorf("%s: unreadable", o.crd)
	case len(crds) != 1:
		return nil, fmt.Errorf("%s: %d CRDs, want exactly one", o.crd, len(crds))
	case len(crds[0].Errors()) > 0:
		return nil, fmt.Errorf("%s:%d: the apiserver rejects CRD %s: %v", o.crd, crds[0].Position().Line, crds[0].Name(), crds[0].Errors().ToAggregate())
	}
	return crds[0], nil
}

// printSamples prints -n objects of --version (default the preferred
// version): a YAML stream, or one JSON line each. Exit 1 when fewer
// valid objects could be generated.
func printSamples(crd *crdschema.CRD, o *sampleOptions, stdout, stderr io.Writer) int {
	version := o.version
	if version == "" && len(crd.ServedVersions()) > 0 {
		version = crd.ServedVersions()[0]
	}
	s, err := crd.Version(version)
	if err != nil {
		reportError(stderr, err)
		return 2
	}
	objs := s.Samples(o.seed, o.n)
	for i, obj := range objs {
		if err := writeObject(stdout, o.output, obj, i == 0); err != nil {
			fmt.Fprintf(stderr, "crdschema: %v\n", err)
			return 2
		}
	}
	if len(objs) < o.n {
		fmt.Fprintf(stderr, "crdschema sample: %s %s: only %d of %d objects pass validation\n", crd.Name(), version, len(objs), o.n)
		return 1
	}
	return 0
}

// writeObject writes one object as a YAML document or a JSON line.
func writeObject(w io.Writer, format string, obj any, first bool) error {
	if format == "json" {
		return json.NewEncoder(w).Encode(obj)
	}
	b, err := yaml.Marshal(obj)
	if err != nil {
		return err
	}
	if !first {
		b = append([]byte("---\n"), b...)
	}
	_, err = w.Write(b)
	return err
}

// tripLine is the JSON line of one round trip.
type tripLine struct {
	CRD    string      `json:"crd"`
	From   string      `json:"from"`
	To     string      `json:"to"`
	Name   string      `json:"name"`
	Losses []lossLine  `json:"losses"`
	Errors []jsonError `json:"errors"`
}

// lossLine is one lost or changed field of a round trip.
type lossLine struct {
	Path    string `json:"path"`
	Step    string `json:"step"`
	Changed bool   `json:"changed"`
}

// printRoundTrips round-trips -n objects of every served version to every
// other: text lines for the fields lost or changed and the steps that
// fail, or one JSON line per trip. Exit 1 when anything is lost, changed
// or rejected.
func printRoundTrips(crd *crdschema.CRD, o *sampleOptions, stdout, stderr io.Writer) int {
	trips, err := revision.RoundTrips(context.Background(), crd, o.seed, o.n)
	if err != nil {
		reportError(stderr, err)
		return 2
	}
	status, enc := 0, json.NewEncoder(stdout)
	for _, t := range trips {
		name, _ := documentName(t.Object)
		if len(t.Losses) > 0 || len(t.Errors) > 0 {
			status = 1
		}
		if o.output == "json" {
			line := tripLine{CRD: crd.Name(), From: t.From, To: t.To, Name: name, Losses: []lossLine{}, Errors: toJSONErrors(t.Errors)}
			for _, l := range t.Losses {
				line.Losses = append(line.Losses, lossLine(l))
			}
			if err := enc.Encode(line); err != nil {
				return 2
			}
			continue
		}
		for _, l := range t.Losses {
			what := "lost"
			if l.Changed {
				what = "changed"
			}
			fmt.Fprintf(stdout, "%s %s->%s %s: %s: %s (%s)\n", crd.Name(), t.From, t.To, name, l.Path, what, l.Step)
		}
		for _, e := range t.Errors {
			fmt.Fprintf(stdout, "%s %s->%s %s: rejected: %s\n", crd.Name(), t.From, t.To, name, errorText(e))
		}
	}
	if o.output != "json" {
		fmt.Fprintf(stderr, "%s: %d round trips, %d objects per version, seed %d\n", crd.Name(), len(trips), o.n, o.seed)
	}
	return status
}

// documentName is an object's metadata.name.
func documentName(obj map[string]any) (string, bool) {
	md, _ := obj["metadata"].(map[string]any)
	name, ok := md["name"].(string)
	return name, ok
}
