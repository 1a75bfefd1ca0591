package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/conversion"
	"github.com/crdschema/crdschema/revision"
)

// revisionFormats are the -o values of revision (text is the default).
var revisionFormats = []string{"text", "json", "markdown", "github"}

// revisionOptions are revision's own flags besides the common ones.
type revisionOptions struct {
	*options
	// converter is --converter's URL: the conversion webhook of the CRDs
	// with strategy Webhook ("" : none, their conversions not checked).
	converter string
	// failOn are the classes --fail-on adds to those that fail the run.
	failOn []string
}

// failingByDefault are the classes of change that fail the run (exit 1)
// without --fail-on; unchecked ones fail it too (never "safe").
var failingByDefault = []string{"rejected", "data-loss", "breaking"}

// optionalFailing are the classes --fail-on may add.
var optionalFailing = []string{"ratcheted", "default-changed"}

// revisionFlagSet is the flag set of revision.
func revisionFlagSet(o *revisionOptions) *flag.FlagSet {
	fs := newFlagSet("revision")
	commonFlags(fs, o.options)
	fs.Var(stringList{&o.olds}, "old", "the revision the cluster has: CRD files or directories (repeatable)")
	fs.Var(stringList{&o.crds}, "crd", "the new revision: CRD files or directories (repeatable)")
	fs.StringVar(&o.converter, "converter", "", "the URL of the conversion webhook of the CRDs with strategy Webhook (ConversionReview v1); without it, what needs the webhook is not checked")
	fs.Var(stringList{&o.failOn}, "fail-on", "a class of change that fails the run besides rejected, data-loss and breaking: ratcheted or default-changed (repeatable, or comma-separated)")
	return fs
}

// parseRevisionArgs parses and checks revision's arguments.
func parseRevisionArgs(args []string) (*revisionOptions, error) {
	o := &revisionOptions{options: &options{maxInput: defaultMaxInput}}
	if err := parseCommon(revisionFlagSet(o), o.options, args); err != nil {
		return nil, err
	}
	var failOn []string
	for _, v := range o.failOn {
		for _, class := range strings.Split(v, ",") {
			class = strings.TrimSpace(class)
			if err := oneOf("--fail-on", optionalFailing, class); err != nil {
				return nil, err
			}
			failOn = append(failOn, class)
		}
	}
	o.failOn = failOn
	switch {
	case len(o.olds) == 0:
		return nil, errors.New("--old is required: the revision the cluster has")
	case len(o.crds) == 0:
		return nil, errors.New("--crd is required: the new revision")
	}
	if err := oneOf("-o", revisionFormats, o.output); err != nil {
		return nil, err
	}
	return o, stdinOnce(o.olds, o.crds, o.operands)
}

// runRevision is the revision verb: what applying a new revision of CRDs
// does, to the CRDs and to every object stored under the old revision.
func runRevision(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseRevisionArgs(args)
	if status, done := argsDone("revision", err, stdout, stderr); done {
		return status
	}
	in := &inputs{stdin: stdin, max: o.maxInput}
	return withBudget(o.timeout, stdout, stderr, func(stdout, stderr io.Writer) int {
		return revisionInputs(o, in, stdout, stderr)
	})
}

// loadRevisionCRDs is loadCRDs keeping, for each CRD, the locator of its
// document (the line of a field path in it).
func loadRevisionCRDs(paths []string, in *inputs, stderr io.Writer) ([]*crdschema.CRD, map[*crdschema.CRD]func(string) (int, int), bool, error) {
	locate := map[*crdschema.CRD]func(string) (int, int){}
	out, ok, err := loadCRDsEach(paths, in, stderr, func(c *crdschema.CRD, d *crdschema.Document) { locate[c] = d.Locator() })
	if err != nil {
		return nil, nil, false, err
	}
	return out, locate, ok, nil
}

// withConverter attaches the --converter webhook to every CRD with
// strategy Webhook.
func withConverter(crds []*crdschema.CRD, url string) []*crdschema.CRD {
	if url == "" {
		return crds
	}
	conv := conversion.FromURL(url, nil, "v1")
	out := make([]*crdschema.CRD, len(crds))
	for i, c := range crds {
		out[i] = c
		if c.ConversionStrategy() == "Webhook" {
			out[i] = c.WithConverter(conv)
		}
	}
	return out
}

// revisionPair is one CRD name and its two revisions (either may be nil),
// with what the new revision does to it and the counts of its objects.
type revisionPair struct {
	name     string
	old, new *crdschema.CRD
	// locate gives the line of a field path in the new revision's
	// document (nil: the document's line).
	locate func(string) (int, int)
	// errs are the errors of the update (of the create without old);
	// warnings its warnings.
	errs     field.ErrorList
	warnings []string
	// oldErrs are the old revision's own errors: the apiserver would not
	// have stored it.
	oldErrs field.ErrorList
	changes []revision.Change
	// total and versions count the replayed objects, all and by the
	// version they are at.
	total    replayCounts
	versions map[string]*replayCounts
}

// operation is what applying the new revision does to the CRD.
func (p *revisionPair) operation() string {
	switch {
	case p.old == nil:
		return "CREATE"
	case p.new == nil:
		return "ABSENT"
	}
	return "UPDATE"
}

// unsafe reports whether the CRD's own findings fail the run: the update
// (or create) is rejected, or a change is of a failing class (fails).
func (p *revisionPair) unsafe(fails func(string) bool) bool {
	if len(p.errs) > 0 {
		return true
	}
	for _, c := range p.changes {
		if fails(c.Class) {
			return true
		}
	}
	return false
}

// failing is the set of classes that fail a run: failingByDefault and
// the --fail-on ones.
type failing []string

func (f failing) fails(class string) bool {
	return slices.Contains(failingByDefault, class) || slices.Contains(f, class)
}

// replayCounts count the objects of one CRD (or one of its versions).
type replayCounts struct {
	Version            string `json:"version,omitempty"`
	Objects            int    `json:"objects"`
	LosingData         int    `json:"losingData"`
	FailingUpdate      int    `json:"failingUpdate"`
	NewlyFailingUpdate int    `json:"newlyFailingUpdate"`
	FailingCreate      int    `json:"failingCreate"`
	NewlyFailingCreate int    `json:"newlyFailingCreate"`
	// Manifests are the objects created under the old revision first;
	// NotChecked those with a step that needs a conversion webhook.
	Manifests  int `json:"manifests"`
	NotChecked int `json:"notChecked"`
	// RefusedManifests are the manifests the old revision refuses,
	// replayed as stored.
	RefusedManifests int `json:"refusedManifests"`
}

func (c *replayCounts) add(r *replayLine) {
	c.Objects++
	c.LosingData += b2i(len(r.Losses) > 0)
	c.FailingUpdate += b2i(len(r.Update) > 0)
	c.NewlyFailingUpdate += b2i(r.NewUpdateFailure)
	c.FailingCreate += b2i(len(r.Create) > 0)
	c.NewlyFailingCreate += b2i(r.NewCreateFailure)
	c.Manifests += b2i(r.Manifest)
	c.RefusedManifests += b2i(r.RefusedManifest)
	c.NotChecked += b2i(len(r.NotChecked) > 0)
}

// unsafe reports whether the counted objects fail the run (an object not
// checked does: never "safe").
func (c *replayCounts) unsafe() bool {
	return c.LosingData+c.NewlyFailingUpdate+c.NewlyFailingCreate+c.NotChecked > 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// revisionRun is one run of the verb: the pairs by name and by the old
// revision's group and kind, the objects skipped, the printer.
type revisionRun struct {
	pairs  []*revisionPair
	byKind map[string]*revisionPair
	// newKinds are the group/kinds only the new revision defines.
	newKinds map[string]string
	skipped  map[string]int
	replayed int
	// notReplayed counts objects of a known kind that could not be
	// replayed (bad input: exit 2).
	notReplayed int
	// inputErr is set when an input could not be read (exit 2): the
	// verdict cannot be "safe".
	inputErr bool
	fail     failing
	p        revisionPrinter
}

// revisionInputs is revision with its arguments parsed.
func revisionInputs(o *revisionOptions, in *inputs, stdout, stderr io.Writer) int {
	p := newRevisionPrinter(o.output, stdout)
	if gp, ok := p.(*revisionGithub); ok {
		stderr = withInputErrors(githubPrinter{w: gp.w, verb: "revision"}, stderr, stdout, "revision")
	}
	olds, oldOK, err := storedCRDs(o.olds, in, stderr)
	var news []*crdschema.CRD
	var locate map[*crdschema.CRD]func(string) (int, int)
	newOK := true
	if err == nil {
		news, locate, newOK, err = loadRevisionCRDs(o.crds, in, stderr)
	}
	if err != nil {
		reportError(stderr, err)
		return 2
	}
	for name, c := range olds {
		olds[name] = withConverter([]*crdschema.CRD{c}, o.converter)[0]
	}
	run, err := pairRevisions(olds, news)
	if err != nil {
		fmt.Fprintf(stderr, "crdschema revision: %v\n", err)
		return 2
	}
	for _, pair := range run.pairs {
		if pair.new != nil {
			pair.locate = locate[pair.new]
			pair.new = withConverter([]*crdschema.CRD{pair.new}, o.converter)[0]
		}
	}
	run.p, run.fail = p, o.failOn
	if err := run.compare(); err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	rd, err := run.replayObjects(o.options, in, stderr)
	run.inputErr = !oldOK || !newOK || rd.inputErr
	if err == nil {
		err = p.finish(run)
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	if !oldOK || !newOK || rd.inputErr || run.notReplayed > 0 {
		return 2
	}
	if run.unsafe() {
		return 1
	}
	return 0
}

// pairRevisions pairs the old and new CRDs by metadata.name. One old and
// one new CRD whose names or groups differ are refused: they are not two
// revisions of one CRD.
func pairRevisions(olds map[string]*crdschema.CRD, news []*crdschema.CRD) (*revisionRun, error) {
	if len(olds) == 0 {
		return nil, errors.New("no CustomResourceDefinition among --old")
	}
	if len(news) == 0 {
		return nil, errors.New("no CustomResourceDefinition among --crd")
	}
	if len(olds) == 1 && len(news) == 1 {
		for _, old := range olds {
			if err := samePair(old, news[0]); err != nil {
				return nil, err
			}
		}
	}
	byName := map[string]*revisionPair{}
	run := &revisionRun{byKind: map[string]*revisionPair{}, newKinds: map[string]string{}, skipped: map[string]int{}}
	for _, c := range news {
		if byName[c.Name()] == nil {
			byName[c.Name()] = &revisionPair{name: c.Name(), new: c, old: olds[c.Name()]}
		}
	}
	for name, c := range olds {
		if byName[name] == nil {
			byName[name] = &revisionPair{name: name, old: c}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		p := byName[name]
		p.versions = map[string]*replayCounts{}
		run.pairs = append(run.pairs, p)
		if p.old != nil {
			run.byKind[groupKind(p.old)] = p
		} else {
			run.newKinds[groupKind(p.new)] = name
		}
	}
	return run, nil
}

// samePair refuses an old and a new CRD of different names or groups.
func samePair(old, c *crdschema.CRD) error {
	if old.Name() != c.Name() {
		return fmt.Errorf("the old CustomResourceDefinition %q (%s) and the new %q (%s) have different names: they are not two revisions of one CRD",
			old.Name(), positionOf(old), c.Name(), positionOf(c))
	}
	if og, ng := old.GroupKind().Group, c.GroupKind().Group; og != ng {
		return fmt.Errorf("the old CustomResourceDefinition %q (%s) is of group %q, the new one (%s) of group %q: they are not two revisions of one CRD",
			old.Name(), positionOf(old), og, positionOf(c), ng)
	}
	return nil
}

func positionOf(c *crdschema.CRD) string {
	p := c.Position()
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

func groupKind(c *crdschema.CRD) string {
	gk := c.GroupKind()
	return gk.Group + "/" + gk.Kind
}

// compare checks every new CRD as an update of its old revision (or a
// create) and lists the changes, then prints the CRDs' findings.
func (run *revisionRun) compare() error {
	for _, p := range run.pairs {
		switch {
		case p.new == nil:
		case p.old == nil:
			p.errs, p.warnings = p.new.Errors(), p.new.Warnings()
		default:
			p.errs, p.warnings = crdschema.CheckUpdate(p.old, p.new)
			p.changes = revision.Changes(p.old, p.new)
		}
		if p.old != nil {
			p.oldErrs = p.old.Errors()
		}
	}
	return run.p.crds(run)
}

// replayObjects streams the OBJECTS and replays each one of a CRD both
// revisions have.
func (run *revisionRun) replayObjects(o *options, in *inputs, stderr io.Writer) (*docReader, error) {
	rd := &docReader{in: in, p: textPrinter{w: io.Discard}, stderr: stderr}
	files, err := expandInputs(o.operands, o.excludes)
	if err != nil {
		// An OBJECTS path that cannot be read: the changes are still
		// said, the verdict incomplete (exit 2), never safe.
		reportError(stderr, err)
		rd.inputErr = true
		return rd, nil
	}
	err = rd.each(files, func(d crdschema.Document) error {
		return run.replayDocument(d)
	})
	return rd, err
}

// replayDocument replays one document, or skips it (and says why).
func (run *revisionRun) replayDocument(d crdschema.Document) error {
	kind, name := documentKindName(d.Object)
	apiVersion, _ := d.Object["apiVersion"].(string)
	group, version := "", apiVersion
	if g, v, ok := strings.Cut(apiVersion, "/"); ok {
		group, version = g, v
	}
	p := run.byKind[group+"/"+kind]
	reason := ""
	switch {
	case p == nil && run.newKinds[group+"/"+kind] != "":
		reason = fmt.Sprintf("only the new revision defines %s (CustomResourceDefinition %q is created): no object is stored yet", kind, run.newKinds[group+"/"+kind])
	case kind == "" || apiVersion == "":
		reason = "not a Kubernetes object: no kind or no apiVersion"
	case p == nil:
		reason = fmt.Sprintf("neither revision defines kind %q of group %q", kind, group)
	case p.new == nil:
		reason = fmt.Sprintf("CustomResourceDefinition %q is not in the new revision", p.name)
	}
	if reason != "" {
		run.skipped[reason]++
		return run.p.skipped(skippedResult{File: d.File, Document: d.Index, Line: d.Line, Kind: kind, Name: name, Skipped: reason})
	}
	r := revision.Replay(context.Background(), p.old, p.new, d.Object)
	line := newReplayLine(d, kind, name, p, version, r)
	if len(r.Errors) > 0 {
		run.notReplayed++
	} else {
		run.replayed++
		p.total.add(line)
		c := p.versions[version]
		if c == nil {
			c = &replayCounts{Version: version}
			p.versions[version] = c
		}
		c.add(line)
	}
	return run.p.object(line, r)
}

// unsafe reports whether the run found what fails it (exit 1): a CRD
// update rejected, a change of a failing class or not checked, objects
// losing data, newly failing or not checked.
func (run *revisionRun) unsafe() bool {
	for _, p := range run.pairs {
		if p.unsafe(run.fail.fails) || p.total.unsafe() || p.unchecked() > 0 {
			return true
		}
	}
	return false
}

// unchecked counts the CRD's changes classed unchecked.
func (p *revisionPair) unchecked() int {
	n := 0
	for _, c := range p.changes {
		n += b2i(c.Class == "unchecked")
	}
	return n
}

// replayLine is the JSON line of one replayed object.
type replayLine struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	Line     int    `json:"line"`
	Kind     string `json:"kind,omitempty"`
	Name     string `json:"name,omitempty"`
	// CRD is the metadata.name of the object's CRD.
	CRD string `json:"crd"`
	// Version is the version the object is at (its apiVersion);
	// StoredVersion the old revision's storage version it is stored at.
	Version       string      `json:"version"`
	StoredVersion string      `json:"storedVersion,omitempty"`
	Losses        []jsonLoss  `json:"losses"`
	Update        []jsonError `json:"update"`
	Create        []jsonError `json:"create"`
	OldUpdate     []jsonError `json:"oldUpdate"`
	OldCreate     []jsonError `json:"oldCreate"`
	// NewUpdateFailure and NewCreateFailure are set when the update (the
	// create) fails under the new revision and did not under the old.
	NewUpdateFailure bool `json:"newUpdateFailure"`
	NewCreateFailure bool `json:"newCreateFailure"`
	// Manifest is set for an object without server-set metadata, created
	// under the old revision first (revision.Effect.Manifest).
	Manifest bool `json:"manifest"`
	// RefusedManifest is set instead for a manifest the old revision
	// refuses to create (oldCreate says why), replayed as stored, as a
	// dump is (revision.Effect.RefusedManifest).
	RefusedManifest bool `json:"refusedManifest"`
	// NotChecked are the steps that need a conversion webhook the run
	// was not given (--converter).
	NotChecked []jsonError `json:"notChecked"`
	// Errors say why the object could not be replayed.
	Errors []jsonError `json:"errors"`
}

// jsonLoss is one field a read at a version of the new revision loses;
// Written is set when it is lost only once the next write stored the
// object as the new revision stores it.
type jsonLoss struct {
	Field   string `json:"field"`
	Version string `json:"version"`
	Changed bool   `json:"changed"`
	Written bool   `json:"written"`
}

func newReplayLine(d crdschema.Document, kind, name string, p *revisionPair, version string, r revision.Effect) *replayLine {
	l := &replayLine{File: d.File, Document: d.Index, Line: d.Line, Kind: kind, Name: name, CRD: p.name, Version: version,
		Losses: []jsonLoss{}, Update: toJSONErrors(r.Update), Create: toJSONErrors(r.Create),
		OldUpdate: toJSONErrors(r.OldUpdate), OldCreate: toJSONErrors(r.OldCreate), Errors: toJSONErrors(r.Errors),
		Manifest: r.Manifest, RefusedManifest: r.RefusedManifest, NotChecked: toJSONErrors(r.NotChecked)}
	if r.Stored != nil {
		l.StoredVersion = p.old.StorageVersion()
	}
	for _, loss := range r.Losses {
		v, written := strings.CutPrefix(loss.Step, "written back, read at ")
		if !written {
			v = strings.TrimPrefix(loss.Step, "read at ")
		}
		l.Losses = append(l.Losses, jsonLoss{Field: loss.Path, Version: v, Changed: loss.Changed, Written: written})
	}
	// Under an old revision the apiserver would reject, the old requests
	// fail for that alone: every failure under the new one counts as new.
	oldInvalid := len(p.oldErrs) > 0
	l.NewUpdateFailure = len(r.Update) > 0 && (len(r.OldUpdate) == 0 || oldInvalid)
	l.NewCreateFailure = len(r.Create) > 0 && (len(r.OldCreate) == 0 || oldInvalid)
	return l
}

// crdLine is the JSON line of one CRD, after the objects' lines.
type crdLine struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	Line     int    `json:"line"`
	Kind     string `json:"kind"`
	Name     string `json:"name"`
	// Operation is UPDATE, CREATE (no old revision) or ABSENT (not in
	// the new revision).
	Operation string `json:"operation"`
	// Old is where the old revision was read.
	Old *position `json:"old,omitempty"`
	// Errors and Warnings are the apiserver's answer to the update (the
	// create).
	Errors   []jsonError `json:"errors"`
	Warnings []string    `json:"warnings"`
	// OldErrors are the old revision's own errors.
	OldErrors []jsonError  `json:"oldErrors"`
	Changes   []jsonChange `json:"changes"`
	Summary   crdSummary   `json:"summary"`
}

type position struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	Line     int    `json:"line"`
}

// jsonChange is a revision.Change in the contract's form.
type jsonChange struct {
	Kind    string `json:"kind"`
	Version string `json:"version"`
	Field   string `json:"field"`
	Class   string `json:"class"`
	Detail  string `json:"detail"`
	Static  bool   `json:"static"`
}

// crdSummary counts a CRD's objects, all and by version.
type crdSummary struct {
	replayCounts
	Versions []replayCounts `json:"versions"`
}

func newCRDLine(p *revisionPair) crdLine {
	at := p.new
	if at == nil {
		at = p.old
	}
	pos := at.Position()
	l := crdLine{File: pos.File, Document: pos.Index, Line: pos.Line, Kind: "CustomResourceDefinition", Name: p.name, Operation: p.operation(),
		Errors: toJSONErrors(p.errs), Warnings: p.warnings, OldErrors: toJSONErrors(p.oldErrs), Changes: []jsonChange{}}
	if l.Warnings == nil {
		l.Warnings = []string{}
	}
	if p.old != nil && p.new != nil {
		op := p.old.Position()
		l.Old = &position{File: op.File, Document: op.Index, Line: op.Line}
	}
	for _, c := range p.changes {
		l.Changes = append(l.Changes, jsonChange{Kind: c.Kind, Version: c.Version, Field: c.Path, Class: c.Class, Detail: c.Detail, Static: c.Static})
	}
	l.Summary = crdSummary{replayCounts: p.total, Versions: p.versionCounts()}
	return l
}

// versionCounts are the counts by version: the versions the new
// revision serves by priority, then those only the old one serves by
// priority, then the others by name.
func (p *revisionPair) versionCounts() []replayCounts {
	rank := map[string]int{}
	var order []string
	if p.new != nil {
		order = append(order, p.new.ServedVersions()...)
	}
	if p.old != nil {
		order = append(order, p.old.ServedVersions()...)
	}
	for _, v := range order {
		if _, ok := rank[v]; !ok {
			rank[v] = len(rank)
		}
	}
	out := []replayCounts{}
	for _, c := range p.versions {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		ri, iok := rank[out[i].Version]
		rj, jok := rank[out[j].Version]
		if iok != jok {
			return iok
		}
		if iok {
			return ri < rj
		}
		return out[i].Version < out[j].Version
	})
	return out
}
