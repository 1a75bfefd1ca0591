// Command report runs the side-by-side benchmarks of this module and writes
// BENCHMARKS.md at the repository root: for every operation crdschema's and
// the reference's ns/op, B/op and allocs/op, the speed ratio
// reference/crdschema, the cost of each operation as a multiple of a bare
// walk of the same objects, ns per byte for generated objects of growing
// size, and the targets with their measured values.
//
// Usage, from the bench directory:
//
//	go run ./cmd/report [-benchtime 300ms] [-count 1] [-bench .] [-out ../BENCHMARKS.md] [-in results.txt]
//
// With -in it formats a saved `go test -bench` output instead of running
// the benchmarks.
package main

import (
	"bufio"
	"bytes"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	benchtime := flag.String("benchtime", "300ms", "go test -benchtime")
	count := flag.Int("count", 1, "go test -count (the median of the runs is reported)")
	bench := flag.String("bench", ".", "go test -bench")
	out := flag.String("out", "../BENCHMARKS.md", "the report to write")
	in := flag.String("in", "", "format this saved benchmark output instead of running")
	load := flag.String("load", "", "with -in: the machine's load during the saved run, as text for the report")
	flag.Parse()
	log.SetFlags(0)

	var raw []byte
	var err error
	start := time.Now()
	if *in != "" {
		raw, err = os.ReadFile(*in)
	} else {
		args := []string{"test", "-run", "^$", "-bench", *bench, "-benchmem", "-count", strconv.Itoa(*count), "-benchtime", *benchtime, "-timeout", "60m", "."}
		log.Printf("go %s", strings.Join(args, " "))
		cmd := exec.Command("go", args...)
		var buf bytes.Buffer
		cmd.Stdout = io.MultiWriter(&buf, os.Stderr)
		cmd.Stderr = os.Stderr
		before := loadAverage()
		err = cmd.Run()
		if err == nil {
			err = crdfakeBench(&buf)
		}
		raw = buf.Bytes()
		*load = fmt.Sprintf("%s at the start, %s at the end (1-minute load average)", before, loadAverage())
	}
	if err != nil {
		log.Fatal(err)
	}
	res := parse(raw)
	if len(res) == 0 && len(metrics(raw, "BenchmarkReplay/")) == 0 {
		log.Fatal("no benchmark results (is ../shared/corpus beside the checkout?)")
	}
	took := time.Since(start)
	if *in != "" {
		took = 0 // the saved run's duration is not known
	}
	md := render(res, raw, *benchtime, *count, took, *load)
	if err := os.WriteFile(*out, md, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %s", *out)
}

// crdfakeBench appends to out crdfake's BenchmarkOneKindOfSet (its own
// module, beside this one), for issue 32's crdfake target: allocations,
// which are exact, so a few iterations do.
func crdfakeBench(out *bytes.Buffer) error {
	args := []string{"test", "-run", "^$", "-bench", "^BenchmarkOneKindOfSet$/^(alone|set)$", "-benchmem", "-benchtime", "5x", "."}
	log.Printf("(cd ../crdfake && go %s)", strings.Join(args, " "))
	cmd := exec.Command("go", args...)
	cmd.Dir = "../crdfake"
	cmd.Stdout = io.MultiWriter(out, os.Stderr)
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

// result is the median of one benchmark's runs (by ns/op).
type result struct {
	ns, mbps, bytes, allocs float64
	// cpu is the process's CPU time per op (cpu-ns/op), 0 when the
	// benchmark does not report it.
	cpu float64
	// reads is BenchmarkRead's number of reads per op (reads/op).
	reads float64
}

// line is a benchmark result line: its name, iterations, then value-unit
// pairs (ns/op first; MB/s, custom metrics, B/op and allocs/op may follow).
var line = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+ ns/op(?:\s+[\d.]+ \S+)*)\s*$`)

func parse(raw []byte) map[string]result {
	runs := map[string][]result{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		var res result
		fields := strings.Fields(m[2])
		for i := 0; i+1 < len(fields); i += 2 {
			v, _ := strconv.ParseFloat(fields[i], 64)
			switch fields[i+1] {
			case "ns/op":
				res.ns = v
			case "MB/s":
				res.mbps = v
			case "B/op":
				res.bytes = v
			case "allocs/op":
				res.allocs = v
			case "cpu-ns/op":
				res.cpu = v
			case "reads/op":
				res.reads = v
			}
		}
		runs[m[1]] = append(runs[m[1]], res)
	}
	out := map[string]result{}
	for name, rs := range runs {
		sort.Slice(rs, func(i, j int) bool { return rs[i].ns < rs[j].ns })
		out[name] = rs[len(rs)/2]
	}
	return out
}

// report accumulates the Markdown.
type report struct {
	bytes.Buffer
	res map[string]result
}

func (r *report) p(format string, args ...any) { fmt.Fprintf(&r.Buffer, format+"\n", args...) }

func (r *report) get(name string) (result, bool) { v, ok := r.res["Benchmark"+name]; return v, ok }

// ratio is a/b of ns/op, or "" when either is missing.
func (r *report) ratio(a, b string) (float64, bool) {
	x, ok1 := r.get(a)
	y, ok2 := r.get(b)
	if !ok1 || !ok2 || y.ns == 0 {
		return 0, false
	}
	return x.ns / y.ns, true
}

func fmtNs(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func fmtBytes(b float64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}

func fmtX(x float64, ok bool) string {
	if !ok {
		return "–"
	}
	return fmt.Sprintf("%.2f×", x)
}

// cells is "ns/op | B/op | allocs/op" of a benchmark.
func (r *report) cells(name string) string {
	v, ok := r.get(name)
	if !ok {
		return "– | – | –"
	}
	return fmt.Sprintf("%s | %s | %.0f", fmtNs(v.ns), fmtBytes(v.bytes), v.allocs)
}

func nsPerByte(v result) float64 {
	if v.mbps == 0 {
		return 0
	}
	return 1e3 / v.mbps
}

var crdNames = []string{"workflows.argoproj.io", "clusterpolicies.kyverno.io", "workloads.kueue.x-k8s.io", "applicationsets.argoproj.io", "prometheuses.monitoring.coreos.com", "all"}

var sizes = []string{"10KB", "100KB", "1MB", "10MB"}

func render(res map[string]result, raw []byte, benchtime string, count int, took time.Duration, load string) []byte {
	r := &report{res: res}
	r.p("# Benchmarks: crdschema vs k8s.io/apiextensions-apiserver v0.37.2")
	r.p("")
	r.p("Generated by `cd bench && go run ./cmd/report` (issue 7) on %s; do not edit by hand (the kubeconform section, which this command does not measure, is copied in from `bench/cmd/report/kubeconform.md`; the peers section is generated by `go run ./cmd/peers` into `bench/cmd/report/peers.md` and copied in).", time.Now().UTC().Format("2006-01-02 15:04 MST"))
	r.p("")
	r.p("- Machine: %s, %d logical CPUs (%s), %s/%s", cpuModel(), runtime.NumCPU(), cpuCores(), runtime.GOOS, runtime.GOARCH)
	r.p("- Go: %s", goVersion())
	if load == "" {
		load = "not recorded"
	}
	r.p("- Load: %s, on %d CPUs. The machine may be shared: ratios compare both sides in one process, but a loaded machine inflates and scatters the absolute times", load, runtime.NumCPU())
	duration := ""
	if took > 0 {
		duration = fmt.Sprintf(", %s in all", took.Round(time.Second))
	}
	r.p("- Run: `go test -run '^$' -bench . -benchmem -count %d -benchtime %s` in `bench/` (median of the runs)%s", count, benchtime, duration)
	r.p("- Reproduce: `cd bench && go run ./cmd/report` (flags: `-benchtime`, `-count`, `-bench REGEXP`; `-in FILE` formats a saved run). Needs `../shared/corpus` beside the checkout (or `CRDSCHEMA_CORPUS`).")
	r.p("")
	r.p("Both sides run in one process on the same inputs; every benchmark is `Benchmark<Op>/<input>/{crdschema,reference}`. Ratios are reference ns/op ÷ crdschema ns/op (higher is better for crdschema); \"× walk\" is an operation's time ÷ the time of a bare recursive walk visiting every value of the same objects (`BenchmarkWalk`, the floor).")
	r.p("")
	r.p("**Method for in-place operations** (prune, drop nulls + default): each iteration works on fresh deep copies, made in chunks of up to 16 MB of objects with the timer stopped once per chunk and a garbage collection after each chunk, so neither the copies' time, their allocations nor the collection work they cause are counted. On the `clean` inputs (the objects after the whole create pipeline: nothing to prune, no null, nothing to default) nothing changes, so no copies are made. Value validation does not change objects.")
	r.p("")

	r.targets()
	r.schemaSide()
	r.heap(raw)
	r.objectSide()
	r.served()
	r.updates()
	r.hostile()
	r.reads()
	r.replay(raw)
	r.size()
	r.p("%s", strings.TrimSpace(kubeconform))
	r.p("")
	r.p("%s", strings.TrimSpace(peers))
	r.p("")
	r.raw(raw)
	return r.Bytes()
}

// schemaSide writes the CRD decode + check + build rows.
func (r *report) schemaSide() {
	r.p("## Schema side: decode + check + build")
	r.p("")
	r.p("crdschema: from YAML `model.ReadDocuments` → `model.DecodeCRDDocument` (the value already read, as the command and `LoadCRD` do), from JSON `model.DecodeCRD` → `check.CRD` → the structural model per version (packages under `internal/`). Reference: `yaml.YAMLToJSON` (YAML only) → `UniversalDecoder` (v1 → defaults → internal) → `validation.ValidateCustomResourceDefinition` (which compiles CEL rules) → `NewStructural` + `ValidateStructural` per version. `reference-nocel` is the reference on the same CRD with every `x-kubernetes-validations` removed (both sides compile every CEL rule: crdschema's `internal/check` with `internal/cel`).")
	r.p("")
	for _, from := range []string{"CRDFromYAML", "CRDFromJSON"} {
		r.p("### %s", from)
		r.p("")
		r.p("| CRD | crdschema ns/op | B/op | allocs/op | reference ns/op | B/op | allocs/op | ratio | reference-nocel ns/op | ratio nocel |")
		r.p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
		for _, n := range crdNames {
			base := from + "/" + n + "/"
			if _, ok := r.get(base + "crdschema"); !ok {
				continue
			}
			nc, _ := r.get(base + "reference-nocel")
			x, ok := r.ratio(base+"reference", base+"crdschema")
			y, ok2 := r.ratio(base+"reference-nocel", base+"crdschema")
			r.p("| %s | %s | %s | %s | %s | %s |", n, r.cells(base+"crdschema"), r.cells(base+"reference"), fmtX(x, ok), fmtNs(nc.ns), fmtX(y, ok2))
		}
		r.p("")
	}
	r.deepChain()
}

// deepChain writes the rows of BenchmarkCRDDeepChain: a generated CRD whose
// schema is a chain of nested objects, each with the same CEL rule.
func (r *report) deepChain() {
	depths := []string{"depth50", "depth200"}
	if _, ok := r.get("CRDDeepChain/" + depths[0] + "/crdschema"); !ok {
		return
	}
	r.p("### A deep chain of CEL rules")
	r.p("")
	r.p("`BenchmarkCRDDeepChain`: a generated CRD whose schema is a chain of 50 or 200 nested objects, each with the same rule (`true`), decoded from JSON, checked and built as in CRDFromJSON: both sides compile and cost-check every rule, and both accept the CRD (the benchmark fails otherwise). crdschema's compile cache compares a node's schema with those of the nodes compiled before with the same rules (once cubic in the depth: 6.1 s at depth 400); the reference compiles every rule again.")
	r.p("")
	r.depthRows("CRDDeepChain", depths)
}

// depthRows writes the table of a benchmark's sub-benchmarks by depth
// (op/depthN/{crdschema,reference}), one row for each depth measured.
func (r *report) depthRows(op string, depths []string) {
	r.p("| depth | crdschema ns/op | B/op | allocs/op | reference ns/op | B/op | allocs/op | ratio |")
	r.p("|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, d := range depths {
		base := op + "/" + d + "/"
		if _, ok := r.get(base + "crdschema"); !ok {
			continue
		}
		x, ok := r.ratio(base+"reference", base+"crdschema")
		r.p("| %s | %s | %s | %s |", strings.TrimPrefix(d, "depth"), r.cells(base+"crdschema"), r.cells(base+"reference"), fmtX(x, ok))
	}
	r.p("")
}

// heap writes what stays live while every corpus CRD is held
// (BenchmarkCRDHeap).
func (r *report) heap(raw []byte) {
	m := metrics(raw, "BenchmarkCRDHeap/")
	if len(m) == 0 {
		return
	}
	r.p("### Live heap of the loaded corpus CRDs")
	r.p("")
	// The bound is the benchmark's (errorsHeapSlack), reported with it.
	r.p("All corpus CRDs loaded through the public API and held: the live heap after a collection, less the heap before loading (`heap-MB`), and the allocations of the whole load. `load`: `LoadCRDs` only; `errors`: `CRD.Errors` only (what a command's check, `crdfake` and a webhook leave of the many CRDs they do not touch; the benchmark, and `TestErrorsKeepNothing` on the CRDs with CEL rules, fail when it is more than %g%% above `load`: `Errors` keeps nothing the check built); `errors+versions`: then `CRD.Version` of every served version; `versions`: `Version` first.", m["BenchmarkCRDHeap/errors"]["slack-%"])
	r.p("")
	r.p("| held after | live heap MB | allocs/op |")
	r.p("|---|---:|---:|")
	for _, n := range []string{"load", "errors", "errors+versions", "versions"} {
		if v, ok := m["BenchmarkCRDHeap/"+n]; ok {
			r.p("| %s | %.1f | %.0f |", n, v["heap-MB"], v["allocs/op"])
		}
	}
	r.p("")
}

// objectSide writes the rows of the operations on the corpus examples.
func (r *report) objectSide() {
	r.p("## Object side: the corpus examples")
	r.p("")
	if w, ok := r.get("Walk/corpus"); ok {
		r.p("Every routable corpus example (routed to its CRD version; CRDs with `preserveUnknownFields: true` or without schema left out), one iteration = all of them, %s of JSON. Bare walk: %s (corpus), %s (clean).", fmtBytes(w.ns*w.mbps/1e3), fmtNs(w.ns), fmtNs(r.res["BenchmarkWalk/clean"].ns))
	}
	r.p("")
	r.p("| op | input | crdschema ns/op | B/op | allocs/op | reference ns/op | B/op | allocs/op | ratio | crdschema × walk | reference × walk |")
	r.p("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, op := range []string{"Prune", "PrunePaths", "Default", "Validate", "CEL", "Pipeline"} {
		for _, in := range []string{"corpus", "clean"} {
			base := op + "/" + in + "/"
			if _, ok := r.get(base + "crdschema"); !ok {
				continue
			}
			x, ok := r.ratio(base+"reference", base+"crdschema")
			cw, ok1 := r.ratio(base+"crdschema", "Walk/"+in)
			rw, ok2 := r.ratio(base+"reference", "Walk/"+in)
			if op == "CEL" {
				// A subset of the objects: no walk of the same objects.
				ok1, ok2 = false, false
			}
			r.p("| %s | %s | %s | %s | %s | %s | %s |", op, in, r.cells(base+"crdschema"), r.cells(base+"reference"), fmtX(x, ok), fmtX(cw, ok1), fmtX(rw, ok2))
		}
	}
	r.p("")
	r.p("Prune: `prune.Prune` vs `pruning.PruneWithOptions` (full schema, resource root); PrunePaths: the same returning unknown-field paths. Default: `defaulting.DropNullsAndDefault` (one walk) vs `PruneNonNullableNullsWithoutDefaults` + `Default` (served schema, defaults pruned). Validate: `validation.Validator.Validate` vs `NewSchemaValidator` + `ValidateCustomResource` + `listtype.ValidateListSetsAndMaps`. Pipeline: per object from its JSON bytes, `Schema.ApplyJSON` vs `util/json.Unmarshal` + ObjectMeta round trip + prune with paths + drop nulls + embedded ObjectMeta coercion + default + create validation (ObjectMeta, values, embedded metadata, list types, CEL rules after the blocking-error check). CEL: the examples whose CRD version has `x-kubernetes-validations` rules, `internal/cel.Validator.Validate` vs apiextensions-apiserver's `schema/cel.Validator.Validate` (both compiled once per version, runtime budget 10M).")
	r.p("")
}

// updates writes the rows of update validation (issue 12).
func (r *report) updates() {
	r.p("## Updates: value validation with ratcheting")
	r.p("")
	r.p("`BenchmarkUpdateValidate` (issue 12): every corpus example after the create pipeline as the stored object, updated by an equal copy (`unchanged`) or by a copy with one leaf under spec changed (`changed`); `valid-*` are the examples whose create validation finds nothing without allocating. `validation.Validator.ValidateUpdate` vs `common.NewCorrelatedObject` + `ValidateCustomResourceUpdate` with `WithRatcheting` + the list-type checks of the old and the new object, as the strategy's `ValidateUpdate` runs them.")
	r.p("")
	r.p("| input | crdschema ns/op | B/op | allocs/op | reference ns/op | B/op | allocs/op | ratio |")
	r.p("|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, in := range []string{"unchanged", "changed", "valid-unchanged", "valid-changed"} {
		base := "UpdateValidate/" + in + "/"
		if _, ok := r.get(base + "crdschema"); !ok {
			continue
		}
		x, ok := r.ratio(base+"reference", base+"crdschema")
		r.p("| %s | %s | %s | %s |", in, r.cells(base+"crdschema"), r.cells(base+"reference"), fmtX(x, ok))
	}
	r.p("")
	r.p("`BenchmarkUpdate`: the whole update request on crdschema's side (`Schema.ApplyUpdate`: copies of both objects, the stored object's read path, the request's decoding, preparation, validation, CEL rules with ratcheting) against only the reference strategy's `ValidateUpdate` on the already decoded objects (ObjectMeta update rules, OpenAPI validation with ratcheting, embedded metadata, list types, CEL rules with ratcheting).")
	r.p("")
	r.p("| input | crdschema ns/op | B/op | allocs/op | reference ns/op | B/op | allocs/op | ratio |")
	r.p("|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, in := range []string{"unchanged", "changed"} {
		base := "Update/" + in + "/"
		if _, ok := r.get(base + "crdschema"); !ok {
			continue
		}
		x, ok := r.ratio(base+"reference", base+"crdschema")
		r.p("| %s | %s | %s | %s |", in, r.cells(base+"crdschema"), r.cells(base+"reference"), fmtX(x, ok))
	}
	r.p("")
}

// hostile writes the rows of the deep and wide object.
func (r *report) hostile() {
	r.p("## Hostile: pruning a deep object with many unknown fields")
	r.p("")
	r.p("`BenchmarkPruneDeepWide`: an object 500 or 2,000 levels deep with 10 unknown fields at every level, pruned with paths (5,000 or 20,000 removed fields, their paths on average 250 or 1,000 keys long; see `../shared/findings/hostile/02-*`). Ratio: reference ns/op ÷ crdschema ns/op.")
	r.p("")
	r.depthRows("PruneDeepWide", []string{"depth500", "depth2000"})
}

// size writes the rows of the generated objects of growing size.
func (r *report) size() {
	r.p("## Size: one generated object of 10 KB … 10 MB")
	r.p("")
	r.p("A synthetic schema (a map-keyed list of items with patterns, bounds, enums, defaults, maps, nested lists and objects, int-or-string, nullable); the object's items have unknown fields, nulls and missing defaults. ns/byte of JSON; linear cost means a flat row.")
	r.p("")
	r.p("| op | side | %s | 10MB ÷ 10KB | × walk at 10MB |", strings.Join(sizes, " ns/B | ")+" ns/B")
	r.p("|---|---|%s---:|---:|", strings.Repeat("---:|", len(sizes)))
	for _, op := range []string{"Walk", "Prune", "PrunePaths", "Default", "Validate", "Pipeline"} {
		sides := []string{"/crdschema", "/reference"}
		if op == "Walk" {
			sides = []string{""}
		}
		for _, side := range sides {
			var cols []string
			var first, last float64
			for i, sz := range sizes {
				v, ok := r.get("Size/" + op + "/" + sz + side)
				if !ok {
					cols = append(cols, "–")
					continue
				}
				nb := nsPerByte(v)
				if i == 0 {
					first = nb
				}
				last = nb
				cols = append(cols, fmt.Sprintf("%.2f", nb))
			}
			w, ok := r.ratio("Size/"+op+"/10MB"+side, "Size/Walk/10MB")
			name := strings.TrimPrefix(side, "/")
			if name == "" {
				name = "floor"
			}
			r.p("| %s | %s | %s | %s | %s |", op, name, strings.Join(cols, " | "), fmtX(last/first, first > 0 && last > 0), fmtX(w, ok))
		}
	}
	r.p("")
	r.p("Speed ratio reference/crdschema by size:")
	r.p("")
	r.p("| op | %s |", strings.Join(sizes, " | "))
	r.p("|---|%s", strings.Repeat("---:|", len(sizes)))
	for _, op := range []string{"Prune", "PrunePaths", "Default", "Validate", "Pipeline"} {
		var cols []string
		for _, sz := range sizes {
			x, ok := r.ratio("Size/"+op+"/"+sz+"/reference", "Size/"+op+"/"+sz+"/crdschema")
			cols = append(cols, fmtX(x, ok))
		}
		r.p("| %s | %s |", op, strings.Join(cols, " | "))
	}
	r.p("")
}

// raw writes the raw benchmark output, folded.
func (r *report) raw(raw []byte) {
	r.p("<details><summary>Raw <code>go test -bench</code> output</summary>")
	r.p("")
	r.p("```")
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "Benchmark") || strings.HasPrefix(sc.Text(), "cpu:") {
			r.p("%s", sc.Text())
		}
	}
	r.p("```")
	r.p("")
	r.p("</details>")
}

// targets writes the targets with the measured values.
func (r *report) targets() {
	r.p("## Targets (issues 7, 12, 21)")
	r.p("")
	r.p("| target | measured | met |")
	r.p("|---|---:|:---:|")
	row := func(what string, x float64, ok bool, met func(float64) bool, unit string) {
		if !ok {
			r.p("| %s | – | – |", what)
			return
		}
		mark := "no"
		if met(x) {
			mark = "yes"
		}
		r.p("| %s | %.2f%s | %s |", what, x, unit, mark)
	}
	le := func(t float64) func(float64) bool { return func(x float64) bool { return x <= t } }
	ge := func(t float64) func(float64) bool { return func(x float64) bool { return x >= t } }
	x, ok := r.ratio("Prune/corpus/crdschema", "Walk/corpus")
	row("pruning ≤ 1.5× the bare walk (corpus)", x, ok, le(1.5), "×")
	x, ok = r.ratio("Size/Prune/10MB/crdschema", "Size/Walk/10MB")
	row("pruning ≤ 1.5× the bare walk (generated 10 MB)", x, ok, le(1.5), "×")
	x, ok = r.ratio("Default/corpus/crdschema", "Walk/corpus")
	row("drop nulls + defaulting ≤ 1.5× the bare walk (corpus)", x, ok, le(1.5), "×")
	x, ok = r.ratio("Size/Default/10MB/crdschema", "Size/Walk/10MB")
	row("drop nulls + defaulting ≤ 1.5× the bare walk (generated 10 MB)", x, ok, le(1.5), "×")
	for _, n := range []string{"Prune/clean/crdschema", "Default/clean/crdschema"} {
		v, ok := r.get(n)
		row("0 allocs/op with nothing to do: "+strings.Split(n, "/")[0]+" (all clean corpus objects)", v.allocs, ok, le(0), " allocs")
	}
	x, ok = r.ratio("Validate/clean/reference", "Validate/clean/crdschema")
	row("value validation ≥ 10× faster than the reference (corpus)", x, ok, ge(10), "×")
	x, ok = r.ratio("Pipeline/corpus/reference", "Pipeline/corpus/crdschema")
	row("whole pipeline from JSON bytes, CEL rules included, ≥ 5× faster (corpus)", x, ok, ge(5), "×")
	x, ok = r.ratio("CEL/clean/reference", "CEL/clean/crdschema")
	row("CEL rule evaluation ≥ 5× faster than the apiserver's CEL validator (corpus examples with rules)", x, ok, ge(5), "×")
	for _, in := range []string{"unchanged", "changed"} {
		x, ok = r.ratio("UpdateValidate/"+in+"/reference", "UpdateValidate/"+in+"/crdschema")
		row("update validation with ratcheting ≥ 5× faster (corpus, "+in+"; issue 12)", x, ok, ge(5), "×")
	}
	upd, ok := r.get("UpdateValidate/valid-unchanged/crdschema")
	row("0 allocs/op: update validation of unchanged valid corpus objects (issue 12)", upd.allocs, ok, le(0), " allocs")
	x, ok = r.ratio("CRDFromYAML/all/reference", "CRDFromYAML/all/crdschema")
	row("all corpus CRDs decode + build + check with CEL ≥ 3× faster (from YAML, both compile CEL)", x, ok, ge(3), "×")
	x, ok = r.ratio("CRDFromYAML/workflows.argoproj.io/reference", "CRDFromYAML/workflows.argoproj.io/crdschema")
	row("Workflow CRD decode + build + check ≥ 3× faster (from YAML, reference compiles CEL)", x, ok, ge(3), "×")
	x, ok = r.ratio("CRDFromYAML/workflows.argoproj.io/reference-nocel", "CRDFromYAML/workflows.argoproj.io/crdschema")
	row("Workflow CRD decode + build + check ≥ 3× faster (from YAML, CEL removed)", x, ok, ge(3), "×")
	x, ok = r.ratio("CRDFromJSON/workflows.argoproj.io/reference", "CRDFromJSON/workflows.argoproj.io/crdschema")
	row("Workflow CRD decode + build + check ≥ 3× faster (from JSON)", x, ok, ge(3), "×")
	x, ok = r.ratio("Read/corpus/reference", "Read/corpus/crdschema")
	row("reads at another version from stored JSON ≥ 10× faster than the reference's storage codec (corpus; issue 21)", x, ok, ge(10), "×")
	alone, ok1 := r.get("OneKindOfSet/alone")
	set, ok2 := r.get("OneKindOfSet/set")
	row("crdfake: a test touching one kind of argo-workflows' 8 CRDs, from reading the set to the first Create, ≤ 2× the allocations with that kind's CRD alone (issue 32)", set.allocs/alone.allocs, ok1 && ok2 && alone.allocs > 0, le(2), "×")
	for _, op := range []string{"Prune", "Default", "Validate", "Pipeline"} {
		a, ok1 := r.get("Size/" + op + "/10KB/crdschema")
		b, ok2 := r.get("Size/" + op + "/10MB/crdschema")
		x := nsPerByte(b) / nsPerByte(a)
		row("linear cost 10 KB → 10 MB: "+op+" (ns/B at 10 MB ÷ at 10 KB, ≤ 1.5)", x, ok1 && ok2 && nsPerByte(a) > 0, le(1.5), "×")
	}
	r.p("")
}

// kubeconform is the section on the JSON Schema export checked through
// kubeconform (issue 22). It is not measured by this command (it needs the
// kubeconform binary and upstream's Python converter, run by hand), so it
// is kept in kubeconform.md and copied in, marked as such.
//
//go:embed kubeconform.md
var kubeconform string

// peers is the section comparing the command with kubectl-validate and
// kubeconform over the corpus (issue 32): whole processes, measured by
// `go run ./cmd/peers`, which writes peers.md; copied in as it is.
//
//go:embed peers.md
var peers string

// reads writes the rows of BenchmarkRead (issue 21): stored objects read
// at another served version, from their JSON bytes.
func (r *report) reads() {
	if _, ok := r.get("Read/corpus/crdschema"); !ok {
		return
	}
	r.p("## Reads at another version (issue 21)")
	r.p("")
	w, _ := r.get("Read/corpus/crdschema")
	r.p("`BenchmarkRead`: every corpus example of a multi-version CRD with strategy `None`, as stored at its version, read at each other served version of its CRD (%.0f reads, %s of stored JSON per op; `TestReadAgrees` checks that both sides serve the same objects). crdschema: `CRD.ReadJSON` on the stored bytes (`jsonfast` decode, then the storage read path: metadata coercion, pruning, embedded-resource coercion and generation repair with the stored version's schema, its defaults, conversion, pruning and coercion with the requested version's schema, its pruning left out when the two versions' schemas are the same). Reference: the apiserver's storage codec, `versioning.NewCodec` with the schema-coercing decoder of the stored version, the structural defaulter of the stored version and the CRD's converter (`conversion.NewCRConverterFactory`, strategy `None`) followed by pruning and coercion at the requested version. `decode` is each side's JSON decode alone (`jsonfast.Decode` vs `unstructured.UnstructuredJSONScheme.Decode`), the floor under each side's read. cpu-ns/op is the process's CPU time per op (all threads, garbage collection included): on a shared machine it varies less than the wall-clock time.", w.reads, fmtBytes(w.ns*w.mbps/1e3))
	r.p("")
	r.p("| benchmark | crdschema ns/op | B/op | allocs/op | cpu-ns/op | reference ns/op | B/op | allocs/op | cpu-ns/op | ratio | ratio (CPU) |")
	r.p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, in := range []string{"corpus", "decode"} {
		base := "Read/" + in + "/"
		c, _ := r.get(base + "crdschema")
		ref, _ := r.get(base + "reference")
		x, ok := r.ratio(base+"reference", base+"crdschema")
		r.p("| Read/%s | %s | %s | %s | %s | %s | %s |", in, r.cells(base+"crdschema"), fmtCPU(c.cpu), r.cells(base+"reference"), fmtCPU(ref.cpu), fmtX(x, ok), fmtX(ref.cpu/c.cpu, c.cpu > 0 && ref.cpu > 0))
	}
	r.p("")
}

// fmtCPU is a cpu-ns/op value, "–" when not measured.
func fmtCPU(ns float64) string {
	if ns == 0 {
		return "–"
	}
	return fmtNs(ns)
}

// loadAverage is the 1-minute load average, "unknown" where /proc has none.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

func cpuModel() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func cpuCores() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "cpu cores" {
			return strings.TrimSpace(v) + " cores per socket"
		}
	}
	return "cores unknown"
}

func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}

// served writes the rows of what the apiserver serves (issue 22): the
// published OpenAPI and the table rows.
func (r *report) served() {
	if _, ok := r.get("OpenAPI/corpus/crdschema"); !ok {
		if _, ok := r.get("Columns/corpus/crdschema"); !ok {
			return
		}
	}
	r.p("## What the apiserver serves: OpenAPI, table columns")
	r.p("")
	r.p("OpenAPI: the v3 and v2 definitions of every served version of every accepted corpus CRD (411 versions), `CRD.OpenAPI` (the kind and its List) vs `builder.BuildOpenAPIV3` + `BuildOpenAPIV2` + `handler.PruneDefaults`, as the OpenAPI controllers run them (they also build the REST paths, which crdschema does not publish). Columns: the row of every routable corpus example with its version's table built once, `serving.Table.Row` vs `tableconvertor` `ConvertToTable`. `TestOpenAPIAgrees` and `TestColumnsAgree` check that both sides give the same answers.")
	r.p("")
	r.p("| op | input | crdschema ns/op | B/op | allocs/op | reference ns/op | B/op | allocs/op | ratio |")
	r.p("|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, op := range []string{"OpenAPI", "Columns"} {
		base := op + "/corpus/"
		if _, ok := r.get(base + "crdschema"); !ok {
			continue
		}
		x, ok := r.ratio(base+"reference", base+"crdschema")
		r.p("| %s | corpus | %s | %s | %s |", op, r.cells(base+"crdschema"), r.cells(base+"reference"), fmtX(x, ok))
	}
	r.p("")
}

// metrics reads the value of every unit of each benchmark line of raw
// (custom metrics included), the median of each unit over the runs.
func metrics(raw []byte, prefix string) map[string]map[string]float64 {
	runs := map[string]map[string][]float64{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], prefix) {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		if runs[name] == nil {
			runs[name] = map[string][]float64{}
		}
		for i := 2; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				runs[name][f[i+1]] = append(runs[name][f[i+1]], v)
			}
		}
	}
	out := map[string]map[string]float64{}
	for name, units := range runs {
		out[name] = map[string]float64{}
		for u, vs := range units {
			sort.Float64s(vs)
			out[name][u] = vs[len(vs)/2]
		}
	}
	return out
}

// replay writes the section of BenchmarkReplay (issue 24): every corpus
// example replayed under a new revision of its CRD.
func (r *report) replay(raw []byte) {
	m := metrics(raw, "BenchmarkReplay/")
	if len(m) == 0 {
		return
	}
	r.p("## Revisions: every corpus example replayed under a new revision of its CRD (issue 24)")
	r.p("")
	r.p("`BenchmarkReplay`: `CRD.Replay` of every corpus example of a CRD the apiserver accepts: stored under the old revision, read at every served version under both revisions, written back unchanged and created afresh under both. Revisions: `reapply` is the CRD itself; `maxlength` gives every string field without maxLength, enum, format, pattern or default (root apiVersion and kind aside) `maxLength: 8`. crdschema only: the apiserver has no such operation to compare with.")
	r.p("")
	r.p("| revision | objects | objects/s | ns/op (all objects) | B/op | allocs/op | losing data | newly failing update | newly failing create |")
	r.p("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, name := range []string{"reapply", "maxlength"} {
		v, ok := m["BenchmarkReplay/"+name+"/crdschema"]
		if !ok {
			continue
		}
		objects := v["objects/s"] * v["ns/op"] / 1e9
		r.p("| %s | %.0f | %.0f | %s | %s | %.0f | %.0f | %.0f | %.0f |", name, objects, v["objects/s"], fmtNs(v["ns/op"]), fmtBytes(v["B/op"]), v["allocs/op"], v["lossy"], v["new-update-fails"], v["new-create-fails"])
	}
	r.p("")
}
