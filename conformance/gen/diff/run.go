// Package diff runs random differential tests: it generates batches with
// package gen, runs both the crdschema command and the apiserver oracle on the
// same files, compares their JSON output by the rules of the conformance
// README, and shrinks each kind of mismatch to a minimal reproducible case.
package diff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/crdschema/crdschema/conformance/gen"
	"github.com/crdschema/crdschema/conformance/oracle"
)

// Options configure a run.
type Options struct {
	// Seed seeds the generator; the same seed gives the same cases.
	Seed int64
	// N is the number of cases (case files), split evenly among Verbs.
	N int
	// Verbs are the verbs to test (default: all).
	Verbs []string
	// Keep, when set, is the directory minimal reproducers are written to.
	Keep string
	// Crdschema and Oracle are the paths of the two binaries.
	Crdschema, Oracle string
	// Shrink bounds the command runs spent minimising each mismatch class
	// (0: no minimisation).
	Shrink int
	// Log receives the report (mismatch classes, reproducers, summary).
	Log io.Writer
}

// Mismatch is one class of mismatches found in a run.
type Mismatch struct {
	// Verb and Class describe the mismatch; Count is how many documents had it.
	Verb, Class string
	Count       int
	// Example is one precise instance; Dir its reproducer under Keep.
	Example Diff
	Dir     string
	// repro is the batch of the first instance, reduced to its document;
	// full is that whole batch.
	repro, full *gen.Batch
}

// Result summarises a run.
type Result struct {
	// Cases is the number of case files run; Mismatched the number of case
	// files (or batches, for exit-status-only differences) with a mismatch.
	Cases, Mismatched int
	// PerVerb counts mismatched cases by verb.
	PerVerb map[string]int
	// Classes are the mismatch classes, most frequent first.
	Classes []*Mismatch
	// OracleCrashes counts batches the oracle could not answer because the
	// apiserver code panicked (a bug there, not a verdict): they are
	// reported, not compared.
	OracleCrashes int
	// CrashedCases counts the case files of those batches.
	CrashedCases int
	// CELErrors counts the oracle's errors that come from CEL rules (on
	// the rules at check, from evaluating them at apply): how much the run
	// exercised CEL.
	CELErrors int
}

// celErrorCount counts the errors of an oracle output that come from CEL:
// errors on x-kubernetes-validations at check, rule failures and the
// skipped-rules error at apply.
func celErrorCount(out []byte) int {
	lines, _, err := parseLines(out)
	if err != nil {
		return 0
	}
	n := 0
	for _, l := range lines {
		for _, e := range l.Errors {
			if strings.Contains(e.Field, "x-kubernetes-validations") || strings.Contains(e.Detail, "rule") ||
				strings.Contains(e.Detail, "messageExpression") || strings.Contains(e.Detail, "CEL") {
				n++
			}
		}
	}
	return n
}

// withoutCrashedDocuments drops the differences of every case file with a
// document the oracle could not answer (its CrashPrefix lines on standard
// error), and, when there is any, the exit-status difference, which such a
// document makes meaningless. It returns the remaining differences and the
// skipped case files with the oracle's reason.
func withoutCrashedDocuments(ds []Diff, oracleStderr []byte) ([]Diff, map[string]string) {
	skipped := map[string]string{}
	for _, l := range strings.Split(string(oracleStderr), "\n") {
		rest, ok := strings.CutPrefix(l, oracle.CrashPrefix)
		if !ok {
			continue
		}
		key, why, _ := strings.Cut(rest, ": ")
		file, _, _ := strings.Cut(key, "#")
		if _, seen := skipped[file]; !seen {
			skipped[file] = why
		}
	}
	if len(skipped) == 0 {
		return ds, nil
	}
	kept := ds[:0:0]
	for _, d := range ds {
		file, _, _ := strings.Cut(d.Key, "#")
		if _, crashed := skipped[file]; crashed {
			continue
		}
		if d.Key == "*" && strings.Contains(d.Class, ": exit status ") {
			continue
		}
		kept = append(kept, d)
	}
	return kept, skipped
}

func isCase(b *gen.Batch, file string) bool {
	for _, c := range b.Cases {
		if c.Name == file {
			return true
		}
	}
	return false
}

// oracleCrashed reports whether the oracle died of a panic in the
// apiserver's code rather than answering.
func oracleCrashed(p pair) bool {
	return p.oracle.exit == 2 && bytes.Contains(p.oracle.stderr, []byte("panic: "))
}

// moduleRoot finds the conformance module's directory from the working
// directory upwards.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(data, []byte("module github.com/crdschema/crdschema/conformance\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("conformance module not found above the working directory")
		}
		dir = parent
	}
}

// Build builds the crdschema command (from the parent module) and the oracle
// command into dir and returns their paths.
func Build(dir string) (crdschema, oracle string, err error) {
	root, err := moduleRoot()
	if err != nil {
		return "", "", err
	}
	crdschema, oracle = filepath.Join(dir, "crdschema"), filepath.Join(dir, "oracle")
	for _, b := range []struct{ dir, out, pkg string }{
		{filepath.Dir(root), crdschema, "./cmd/crdschema"},
		{root, oracle, "./cmd/oracle"},
	} {
		cmd := exec.Command("go", "build", "-o", b.out, b.pkg)
		cmd.Dir = b.dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("go build %s: %v\n%s", b.pkg, err, out)
		}
	}
	return crdschema, oracle, nil
}

// outcome is what one command printed and returned.
type outcome struct {
	stdout, stderr []byte
	exit           int
}

// run runs bin with args in dir.
func run(bin, dir string, args []string) (outcome, error) {
	cmd := exec.CommandContext(context.Background(), bin, args...)
	cmd.Dir = dir
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	o := outcome{stdout: so.Bytes(), stderr: se.Bytes()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		o.exit = ee.ExitCode()
	case err != nil:
		return o, err
	}
	return o, nil
}

// pair is both commands' outcomes on one batch.
type pair struct {
	oracle, crdschema outcome
	args              []string
}

// runBoth writes b under dir and runs both commands on it.
func (o *Options) runBoth(b *gen.Batch, dir string) (pair, error) {
	args, err := b.Write(dir)
	if err != nil {
		return pair{}, err
	}
	p := pair{args: args}
	var wg sync.WaitGroup
	var e1, e2 error
	wg.Add(2)
	go func() { defer wg.Done(); p.oracle, e1 = run(o.Oracle, dir, args) }()
	go func() { defer wg.Done(); p.crdschema, e2 = run(o.Crdschema, dir, args) }()
	wg.Wait()
	if e1 != nil {
		return p, e1
	}
	return p, e2
}

// diffs compares a pair, adding an exit-status difference when the
// documents agree.
func diffs(verb string, p pair) ([]Diff, error) {
	if p.oracle.exit == 2 || p.crdschema.exit == 2 {
		// Unreadable input: standard output is not part of the contract.
		if p.oracle.exit == p.crdschema.exit {
			return nil, nil
		}
		return []Diff{{Key: "*", Class: fmt.Sprintf("%s: exit status %d (oracle) vs %d (crdschema)", verb, p.oracle.exit, p.crdschema.exit),
			Text: fmt.Sprintf("oracle stderr: %s\ncrdschema stderr: %s", p.oracle.stderr, p.crdschema.stderr)}}, nil
	}
	ds, err := compareOutputs(verb, p.oracle.stdout, p.crdschema.stdout)
	if err != nil {
		return nil, err
	}
	if len(ds) == 0 && p.oracle.exit != p.crdschema.exit {
		ds = append(ds, Diff{Key: "*", Class: fmt.Sprintf("%s: exit status %d (oracle) vs %d (crdschema)", verb, p.oracle.exit, p.crdschema.exit),
			Text: fmt.Sprintf("oracle stderr: %s\ncrdschema stderr: %s", p.oracle.stderr, p.crdschema.stderr)})
	}
	return ds, nil
}

// batchSize is the number of case files per invocation.
func batchSize(verb string) int {
	if IsCheckVerb(verb) {
		return 60
	}
	return 30
}

// Run generates and runs opts.N cases and reports mismatches.
func Run(opts Options) (*Result, error) {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if len(opts.Verbs) == 0 {
		opts.Verbs = gen.Verbs
	}
	tmp, err := os.MkdirTemp("", "difftest")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	// Generate every batch first, so that the cases depend only on the seed.
	type job struct {
		verb string
		b    *gen.Batch
		dir  string
	}
	g := gen.New(opts.Seed)
	var jobs []job
	for vi, verb := range opts.Verbs {
		n := opts.N / len(opts.Verbs)
		if vi < opts.N%len(opts.Verbs) {
			n++
		}
		for n > 0 {
			k := min(n, batchSize(verb))
			jobs = append(jobs, job{verb, g.Batch(verb, k), filepath.Join(tmp, fmt.Sprintf("%s-%03d", verb, len(jobs)))})
			n -= k
		}
	}

	res := &Result{PerVerb: map[string]int{}}
	classes := map[string]*Mismatch{}
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, max(1, runtime.NumCPU()/2))
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := os.MkdirAll(j.dir, 0o755); err != nil {
				mu.Lock()
				firstErr = err
				mu.Unlock()
				return
			}
			p, err := opts.runBoth(j.b, j.dir)
			var ds []Diff
			crashed := err == nil && oracleCrashed(p)
			var skipped map[string]string
			if err == nil && !crashed {
				ds, err = diffs(j.verb, p)
				ds, skipped = withoutCrashedDocuments(ds, p.oracle.stderr)
				// Only case files count as cases not compared (a CRD file
				// given with --crd has a crash line too, but no output).
				for f := range skipped {
					if !isCase(j.b, f) {
						delete(skipped, f)
					}
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if crashed {
				res.OracleCrashes++
				res.CrashedCases += len(j.b.Cases)
				fmt.Fprintf(opts.Log, "oracle crashed (not compared): %s: %s\n", j.verb, firstLine(string(p.oracle.stderr)))
				return
			}
			if err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("%s: %v", j.dir, err)
				}
				return
			}
			if len(skipped) > 0 {
				res.OracleCrashes++
				res.CrashedCases += len(skipped)
				for _, f := range slices.Sorted(maps.Keys(skipped)) {
					fmt.Fprintf(opts.Log, "oracle crashed on a document (case not compared): %s: %s: %s\n", j.verb, f, firstLine(skipped[f]))
				}
			}
			res.Cases += len(j.b.Cases) - len(skipped)
			res.CELErrors += celErrorCount(p.oracle.stdout)
			files := map[string]bool{}
			for _, d := range ds {
				file, _, _ := strings.Cut(d.Key, "#")
				if !files[file] {
					files[file] = true
					res.Mismatched++
					res.PerVerb[j.verb]++
				}
				m := classes[d.Class]
				if m == nil {
					m = &Mismatch{Verb: j.verb, Class: d.Class, Example: d, repro: reduce(j.b, d.Key), full: j.b}
					classes[d.Class] = m
				}
				m.Count++
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return res, firstErr
	}
	for _, m := range classes {
		res.Classes = append(res.Classes, m)
	}
	sort.Slice(res.Classes, func(i, j int) bool {
		a, b := res.Classes[i], res.Classes[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Class < b.Class
	})
	for i, m := range res.Classes {
		if opts.Keep != "" {
			m.Dir = filepath.Join(opts.Keep, fmt.Sprintf("%03d-%s", i, slug(m.Class)))
			if err := opts.minimize(m, tmp); err != nil {
				fmt.Fprintf(opts.Log, "minimising %q: %v\n", m.Class, err)
			}
		}
		fmt.Fprintf(opts.Log, "MISMATCH x%d  %s\n    e.g. %s: %s\n", m.Count, m.Class, m.Example.Key, firstLine(m.Example.Text))
		if m.Dir != "" {
			fmt.Fprintf(opts.Log, "    reproducer: %s\n", m.Dir)
		}
	}
	var per []string
	for _, v := range opts.Verbs {
		per = append(per, fmt.Sprintf("%s %d", v, res.PerVerb[v]))
	}
	fmt.Fprintf(opts.Log, "mismatched cases per verb: %s\n", strings.Join(per, ", "))
	if res.OracleCrashes > 0 {
		fmt.Fprintf(opts.Log, "oracle crashed on %d batches (%d cases not compared)\n", res.OracleCrashes, res.CrashedCases)
	}
	fmt.Fprintf(opts.Log, "CEL: %d of the oracle's errors come from x-kubernetes-validations rules\n", res.CELErrors)
	fmt.Fprintf(opts.Log, "%d cases, %d mismatches (seed %d)\n", res.Cases, res.Mismatched, opts.Seed)
	return res, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// slug turns a class into a short file name.
func slug(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			sb.WriteRune(r)
		default:
			if sb.Len() > 0 && !strings.HasSuffix(sb.String(), "-") {
				sb.WriteByte('-')
			}
		}
		if sb.Len() >= 80 {
			break
		}
	}
	return strings.Trim(sb.String(), "-")
}
