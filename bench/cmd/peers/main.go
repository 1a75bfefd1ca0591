// Command peers measures the crdschema command against its peers over the
// corpus (issue 32) and writes the section cmd/report copies into
// BENCHMARKS.md: `crdschema apply` over every corpus example object, one
// invocation per project with that project's CRDs, beside
// kubectl-validate and kubeconform (with the JSON Schemas `crdschema
// jsonschema` exports) over the same files.
//
// Usage, from the bench directory:
//
//	go run ./cmd/peers [-rounds 5] [-out cmd/report/peers.md] [-corpus ../../shared/corpus]
//
// The peers are installed with `go install MODULE@VERSION` into a
// temporary GOBIN through the module proxy (removed at the end; nothing of
// theirs is kept); a peer that does not install is reported as such and
// the others are still measured. crdschema is built from this checkout.
// Each round runs every tool over every project (the tools' order turning
// from round to round); a tool's CPU time is the user + system time of
// its processes (getrusage of the children), its peak RSS the largest
// maxrss of one invocation. The report gives the medians over the rounds
// and the median of each round's ratio peer ÷ crdschema (paired runs).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// peer is a tool measured, as installed (bin empty when it could not be).
type peer struct {
	name    string // as the report names it
	module  string // go install MODULE@VERSION
	version string
	bin     string
	failed  string // why it could not be installed
	// args are the arguments of one invocation over a project.
	args func(project string) []string
}

// sample is one tool's cost over the whole corpus in one round.
type sample struct {
	cpu, wall time.Duration
	maxRSS    int64 // bytes, the largest of one invocation
	exits     map[int]int
	// failed are the projects the tool exited with a status above 1 on
	// (an error of its own, not a verdict).
	failed []string
}

func main() {
	rounds := flag.Int("rounds", 5, "rounds of paired runs (the median is reported)")
	out := flag.String("out", "cmd/report/peers.md", "the section to write")
	corpus := flag.String("corpus", filepath.Join("..", "..", "shared", "corpus"), "the corpus directory")
	flag.Parse()
	log.SetFlags(0)
	if *rounds < 1 {
		log.Fatalf("-rounds %d: at least one round is needed for a median", *rounds)
	}
	corpusDir, err := filepath.Abs(*corpus)
	if err != nil {
		log.Fatal(err)
	}
	projects := corpusProjects(corpusDir)
	if len(projects) == 0 {
		log.Fatalf("no corpus projects under %s", corpusDir)
	}
	tmp, err := os.MkdirTemp("", "crdschema-peers-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "bin")
	schemas := filepath.Join(tmp, "schemas")

	crdschema := &peer{name: "crdschema", bin: filepath.Join(bin, "crdschema"), args: func(p string) []string {
		return []string{"apply", "-o", "json", "--crd", filepath.Join(corpusDir, p, "crds"), filepath.Join(corpusDir, p, "examples")}
	}}
	if err := run(exec.Command("go", "-C", "..", "build", "-o", crdschema.bin, "./cmd/crdschema")); err != nil {
		log.Fatalf("building crdschema: %v", err)
	}
	tools := []*peer{crdschema,
		{name: "kubectl-validate", module: "sigs.k8s.io/kubectl-validate", version: "v0.0.4", args: func(p string) []string {
			return []string{filepath.Join(corpusDir, p, "examples"), "--local-crds", filepath.Join(corpusDir, p, "crds"), "--output", "json"}
		}},
		{name: "kubeconform", module: "github.com/yannh/kubeconform/cmd/kubeconform", version: "v0.8.0", args: func(p string) []string {
			loc := filepath.Join(schemas, p) + "/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}{{.StrictSuffix}}.json"
			return []string{"-output", "json", "-schema-location", loc, filepath.Join(corpusDir, p, "examples")}
		}},
	}
	for _, t := range tools[1:] {
		t.install(bin)
	}
	exportSchemas(crdschema.bin, corpusDir, projects, schemas)

	loadStart := loadAverage()
	samples := map[string][]sample{}
	for r := range *rounds {
		order := slices.Clone(tools)
		k := r % len(order)
		order = append(order[k:], order[:k]...)
		for _, t := range order {
			if t.bin == "" {
				continue
			}
			s := t.measure(projects)
			samples[t.name] = append(samples[t.name], s)
			log.Printf("round %d: %-16s cpu %v wall %v rss %d MiB exits %v", r+1, t.name, s.cpu.Round(time.Millisecond), s.wall.Round(time.Millisecond), s.maxRSS>>20, s.exits)
		}
	}
	load := fmt.Sprintf("%s at the start, %s at the end (1-minute load average) on %d CPUs", loadStart, loadAverage(), runtime.NumCPU())
	md := render(tools, samples, projects, *rounds, load)
	if err := os.WriteFile(*out, md, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %s", *out)
}

// install runs go install for the peer into dir, through the module proxy.
func (t *peer) install(dir string) {
	cmd := exec.Command("go", "install", t.module+"@"+t.version)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	if err := run(cmd); err != nil {
		t.failed = firstLine(err.Error())
		log.Printf("%s %s: not installed: %v", t.name, t.version, err)
		return
	}
	t.bin = filepath.Join(dir, filepath.Base(t.module))
}

// run runs cmd, its output in the error when it fails.
func run(cmd *exec.Cmd) error {
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %w\n%s", cmd.Args, err, bytes.TrimSpace(out))
	}
	return nil
}

// measure runs the tool once over every project, its output discarded.
func (t *peer) measure(projects []string) sample {
	s := sample{exits: map[int]int{}}
	for _, p := range projects {
		cmd := exec.Command(t.bin, t.args(p)...)
		start := time.Now()
		err := cmd.Run()
		s.wall += time.Since(start)
		if cmd.ProcessState == nil {
			log.Fatalf("%s: %v", t.name, err)
		}
		code := cmd.ProcessState.ExitCode()
		s.exits[code]++
		if code > 1 {
			s.failed = append(s.failed, p)
		}
		cpu, rss := usage(cmd.ProcessState)
		s.cpu += cpu
		s.maxRSS = max(s.maxRSS, rss)
	}
	return s
}

// exportSchemas writes the JSON Schemas of every project's CRDs with
// `crdschema jsonschema`, one CRD at a time (a CRD the apiserver would
// reject writes none and exits 1), for kubeconform.
func exportSchemas(crdschema, corpus string, projects []string, dir string) {
	for _, p := range projects {
		crds, _ := filepath.Glob(filepath.Join(corpus, p, "crds", "*"))
		for _, c := range crds {
			cmd := exec.Command(crdschema, "jsonschema", "--crd", c, "--out", filepath.Join(dir, p))
			if err := cmd.Run(); err != nil && (cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1) {
				log.Fatalf("crdschema jsonschema %s: %v", c, err)
			}
		}
	}
}

// corpusProjects are the corpus directories with CRDs and examples.
func corpusProjects(corpus string) []string {
	var out []string
	entries, _ := os.ReadDir(corpus)
	for _, e := range entries {
		crds, _ := filepath.Glob(filepath.Join(corpus, e.Name(), "crds", "*"))
		examples, _ := filepath.Glob(filepath.Join(corpus, e.Name(), "examples", "*"))
		if e.IsDir() && len(crds) > 0 && len(examples) > 0 {
			out = append(out, e.Name())
		}
	}
	return out
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}
