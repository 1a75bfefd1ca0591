package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/revision"
)

// migrateFormats are the -o values of migrate (text is the default).
var migrateFormats = []string{"text", "json"}

// migrateFlagSet is the flag set of migrate.
func migrateFlagSet(o *options) *flag.FlagSet {
	fs := newFlagSet("migrate")
	commonFlags(fs, o)
	fs.Var(stringList{&o.crds}, "crd", "the CRDs with the new storage version: files or directories (repeatable)")
	fs.Var(stringList{&o.olds}, "old", "the revisions the cluster has before them, when the storage switch comes with an upgrade (repeatable)")
	return fs
}

// parseMigrateArgs parses and checks migrate's arguments.
func parseMigrateArgs(args []string) (*options, error) {
	o := &options{maxInput: defaultMaxInput}
	if err := parseCommon(migrateFlagSet(o), o, args); err != nil {
		return nil, err
	}
	switch {
	case len(o.crds) == 0:
		return nil, errors.New("--crd is required: the CRD whose storage version the objects move to")
	case len(o.operands) == 0:
		return nil, errors.New("no OBJECTS given: the objects the cluster stores (kubectl get PLURAL.GROUP -A -o yaml)")
	}
	if err := oneOf("-o", migrateFormats, o.output); err != nil {
		return nil, err
	}
	return o, stdinOnce(o.olds, o.crds, o.operands)
}

// runMigrate is the migrate verb: the storage-version migration of every
// stored object given, per CRD, and the storedVersions patch it allows.
func runMigrate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseMigrateArgs(args)
	if status, done := argsDone("migrate", err, stdout, stderr); done {
		return status
	}
	in := &inputs{stdin: stdin, max: o.maxInput}
	return withBudget(o.timeout, stdout, stderr, func(stdout, stderr io.Writer) int {
		return migrateInputs(o, in, stdout, stderr)
	})
}

// migration is one CRD's storage-version migration: the CRD (the
// revision with the new storage version), the revision the cluster had
// before it (nil without --old), why nothing can be migrated under it,
// and the counts of its objects.
type migration struct {
	crd, old *crdschema.CRD
	// errs are the apiserver's errors for the CRD (its update of old, or
	// its create): the migration cannot happen; warnings its warnings.
	errs     field.ErrorList
	warnings []string
	// via is the version the rewrite reads and writes at (the preferred
	// version); "" when the CRD serves none.
	via    string
	counts migrateCounts
	// stored counts the objects by the version they are stored at.
	stored map[string]int
}

// migrateCounts count the objects of one CRD by the migration's result.
type migrateCounts struct {
	Objects     int `json:"objects"`
	Migrated    int `json:"migrated"`
	LosingData  int `json:"losingData"`
	Failing     int `json:"failing"`
	NotChecked  int `json:"notChecked"`
	NotMigrated int `json:"notMigrated"`
}

// The results of one object's migration.
const (
	resultMigrated    = "migrated"
	resultLosingData  = "losing-data"
	resultFailing     = "failing"
	resultNotChecked  = "not-checked"
	resultNotMigrated = "not-migrated"
)

func (c *migrateCounts) add(result string) {
	c.Objects++
	switch result {
	case resultMigrated:
		c.Migrated++
	case resultLosingData:
		c.LosingData++
	case resultFailing:
		c.Failing++
	case resultNotChecked:
		c.NotChecked++
	case resultNotMigrated:
		c.NotMigrated++
	}
}

// rewriteSafe reports whether step 2 (the rewrite of every object given)
// is safe: the CRD is accepted and every object migrates with nothing
// lost.
func (m *migration) rewriteSafe() bool {
	return len(m.errs) == 0 && m.counts.Migrated == m.counts.Objects
}

// patchReady reports whether every object given is stored at the storage
// version after the rewrite (losing data or not), so that the
// storedVersions patch leaves no object at a version it drops.
func (m *migration) patchReady() bool {
	c := m.counts
	return len(m.errs) == 0 && c.Failing+c.NotChecked+c.NotMigrated == 0
}

// migrateRun is one run of the verb: the migrations by CRD name and by
// group/kind, the documents skipped, the printer.
type migrateRun struct {
	migrations []*migration
	byKind     map[string]*migration
	skipped    map[string]int
	p          migratePrinter
}

// migrateInputs is migrate with its arguments parsed.
func migrateInputs(o *options, in *inputs, stdout, stderr io.Writer) int {
	var olds map[string]*crdschema.CRD
	oldOK := true
	var err error
	if len(o.olds) > 0 {
		olds, oldOK, err = storedCRDs(o.olds, in, stderr)
	}
	var news []*crdschema.CRD
	newOK := true
	if err == nil {
		news, newOK, err = loadCRDs(o.crds, in, stderr)
	}
	if err != nil {
		reportError(stderr, err)
		return 2
	}
	run, err := newMigrateRun(olds, news, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "crdschema migrate: %v\n", err)
		return 2
	}
	run.p = newMigratePrinter(o.output, stdout)
	rd, err := run.migrateObjects(o, in, stderr)
	if err == nil {
		err = run.p.finish(run)
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema: %v\n", err)
		return 2
	}
	return run.status(rd, oldOK && newOK)
}

// status is the run's exit status: 2 for unreadable input, no document,
// or objects that could not be migrated or checked; 1 when a CRD cannot
// be migrated under, or an object loses data or fails; 0 otherwise.
func (run *migrateRun) status(rd *docReader, crdsOK bool) int {
	switch {
	case !crdsOK || rd.inputErr:
		return 2
	case rd.counts.documents == 0:
		return noObjects("migrate", rd.stderr)
	}
	unsafe := false
	for _, m := range run.migrations {
		if m.counts.NotChecked+m.counts.NotMigrated > 0 {
			return 2
		}
		unsafe = unsafe || !m.rewriteSafe()
	}
	if unsafe {
		return 1
	}
	return 0
}

// newMigrateRun pairs each CRD with its old revision (by metadata.name,
// the first of a name winning) and checks it as the apiserver would
// (the update of the old revision, or the CRD on its own). One old and
// one new CRD whose names or groups differ are refused; an old CRD
// without a new one is noted and left out.
func newMigrateRun(olds map[string]*crdschema.CRD, news []*crdschema.CRD, stderr io.Writer) (*migrateRun, error) {
	if len(news) == 0 {
		return nil, errors.New("no CustomResourceDefinition among --crd")
	}
	if len(olds) > 0 && len(news) == 1 && len(olds) == 1 {
		for _, old := range olds {
			if err := samePair(old, news[0]); err != nil {
				return nil, err
			}
		}
	}
	run := &migrateRun{byKind: map[string]*migration{}, skipped: map[string]int{}}
	byName := map[string]*migration{}
	for _, c := range news {
		if byName[c.Name()] != nil {
			continue
		}
		byName[c.Name()] = newMigration(c, olds[c.Name()])
	}
	for _, name := range slices.Sorted(maps.Keys(olds)) {
		if byName[name] == nil {
			fmt.Fprintf(stderr, "crdschema: note: --old: CustomResourceDefinition %q is not among --crd, left out\n", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		m := byName[name]
		run.migrations = append(run.migrations, m)
		run.byKind[groupKind(m.crd)] = m
	}
	return run, nil
}

// newMigration is the migration of crd's objects, with the apiserver's
// answer to crd: the update of old (nil: none), or crd on its own.
func newMigration(crd, old *crdschema.CRD) *migration {
	m := &migration{crd: crd, old: old, stored: map[string]int{}}
	if served := crd.ServedVersions(); len(served) > 0 {
		m.via = served[0]
	}
	if old != nil {
		m.errs, m.warnings = crdschema.CheckUpdate(old, crd)
	} else {
		m.errs, m.warnings = crd.Errors(), crd.Warnings()
	}
	return m
}

// migrateObjects streams the OBJECTS and migrates each one of a CRD
// given.
func (run *migrateRun) migrateObjects(o *options, in *inputs, stderr io.Writer) (*docReader, error) {
	rd := &docReader{in: in, p: textPrinter{w: io.Discard}, stderr: stderr}
	files, err := expandInputs(o.operands, o.excludes)
	if err != nil {
		rd.inputErr = true
		reportError(stderr, err)
		return rd, nil
	}
	err = rd.each(files, run.migrateDocument)
	return rd, err
}

// migrateDocument migrates one document, or skips it (and says why).
func (run *migrateRun) migrateDocument(d crdschema.Document) error {
	kind, name := documentKindName(d.Object)
	apiVersion, _ := d.Object["apiVersion"].(string)
	group, version := "", apiVersion
	if g, v, ok := strings.Cut(apiVersion, "/"); ok {
		group, version = g, v
	}
	m := run.byKind[group+"/"+kind]
	reason := ""
	switch {
	case m == nil:
		reason = fmt.Sprintf("no CustomResourceDefinition given defines kind %q of group %q", kind, group)
	case len(m.errs) > 0 && m.old != nil:
		reason = fmt.Sprintf("the update of CustomResourceDefinition %q is rejected: nothing is migrated", m.crd.Name())
	case len(m.errs) > 0:
		reason = fmt.Sprintf("CustomResourceDefinition %q is rejected: it stores nothing", m.crd.Name())
	}
	if reason != "" {
		run.skipped[reason]++
		return run.p.skipped(skippedResult{File: d.File, Document: d.Index, Line: d.Line, Kind: kind, Name: name, Skipped: reason})
	}
	l := &migrateLine{File: d.File, Document: d.Index, Line: d.Line, Kind: kind, Name: name, CRD: m.crd.Name(), Version: version,
		Via: m.via, StorageVersion: m.crd.StorageVersion(), Losses: []migrateLoss{}, Update: []jsonError{}, Errors: []jsonError{}}
	if why := m.needsConverter(version); why != "" {
		l.StoredVersion, l.Result, l.NotChecked = m.storedAt(version), resultNotChecked, why
	} else {
		m.migrate(l, revision.Migrate(context.Background(), m.old, m.crd, d.Object))
	}
	m.counts.add(l.Result)
	if l.StoredVersion != "" {
		m.stored[l.StoredVersion]++
	}
	return run.p.object(l)
}

// storedAt is the version an object at version is stored at: the old
// revision's storage version with --old, its own otherwise.
func (m *migration) storedAt(version string) string {
	if m.old != nil {
		return m.old.StorageVersion()
	}
	return version
}

// needsConverter says which conversion an object at version needs a
// conversion webhook for (strategy Webhook: the command has no
// converter), "" when none: storing it under the old revision, the
// rewrite's read at the preferred version, its write at the storage
// version.
func (m *migration) needsConverter(version string) string {
	group := m.crd.GroupKind().Group
	need := func(c *crdschema.CRD, from, to, why string) string {
		if c.ConversionStrategy() != "Webhook" || from == to {
			return ""
		}
		return fmt.Sprintf("%s: converting %s/%s to %s/%s needs the conversion webhook of CustomResourceDefinition %q, which the command does not call", why, group, from, group, to, c.Name())
	}
	from := version
	if m.old != nil {
		if why := need(m.old, version, m.old.StorageVersion(), "storing it under the old revision"); why != "" {
			return why
		}
		from = m.old.StorageVersion()
	}
	if m.via == "" {
		return ""
	}
	if why := need(m.crd, from, m.via, "the rewrite's read"); why != "" {
		return why
	}
	return need(m.crd, m.via, m.crd.StorageVersion(), "the rewrite's write")
}

// migrate fills l with r, the object's migration.
func (m *migration) migrate(l *migrateLine, r revision.Migration) {
	l.Update, l.Errors = toJSONErrors(r.Update), toJSONErrors(r.Errors)
	for _, loss := range r.Losses {
		l.Losses = append(l.Losses, migrateLoss{Field: loss.Path, Version: strings.TrimPrefix(loss.Step, "read at "), Changed: loss.Changed})
	}
	if r.Stored != nil {
		_, _, l.StoredVersion = splitTypeMeta(r.Stored)
	}
	switch {
	case len(r.Errors) > 0:
		l.Result = resultNotMigrated
	case r.Migrated == nil:
		l.Result = resultFailing
	case len(r.Losses) > 0 || len(r.Update) > 0:
		// A read after the rewrite that fails is a loss of the whole
		// object for the clients of that version.
		l.Result, l.Object = resultLosingData, r.Migrated
	default:
		l.Result, l.Object = resultMigrated, r.Migrated
	}
}

// splitTypeMeta is obj's kind and its apiVersion's group and version.
func splitTypeMeta(obj map[string]any) (kind, group, version string) {
	kind, _ = obj["kind"].(string)
	apiVersion, _ := obj["apiVersion"].(string)
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		return kind, "", apiVersion
	}
	return kind, group, version
}

// migrateLine is the JSON line of one object.
type migrateLine struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	Line     int    `json:"line"`
	Kind     string `json:"kind,omitempty"`
	Name     string `json:"name,omitempty"`
	// CRD is the metadata.name of the object's CRD.
	CRD string `json:"crd"`
	// Version is the version the object's apiVersion names;
	// StoredVersion the version it is stored at before the migration
	// (with --old, the old storage version); Via the version the rewrite
	// reads and writes it at; StorageVersion the version it is stored at
	// after.
	Version        string `json:"version"`
	StoredVersion  string `json:"storedVersion,omitempty"`
	Via            string `json:"via"`
	StorageVersion string `json:"storageVersion"`
	// Result is migrated, losing-data, failing, not-checked or
	// not-migrated.
	Result string        `json:"result"`
	Losses []migrateLoss `json:"losses"`
	Update []jsonError   `json:"update"`
	Errors []jsonError   `json:"errors"`
	// NotChecked says which conversion needs the CRD's webhook.
	NotChecked string `json:"notChecked,omitempty"`
	// Object is the object as stored after the rewrite; null when it is
	// not rewritten.
	Object map[string]any `json:"object"`
}

// migrateLoss is one field a read after the rewrite loses (or changes),
// against the same read of the object as stored before it; Version is
// the read's version.
type migrateLoss struct {
	Field   string `json:"field"`
	Version string `json:"version"`
	Changed bool   `json:"changed"`
}

// lossLines words a migration's losses as revision words its losses on
// read.
func lossLines(losses []migrateLoss) []string {
	out := make([]jsonLoss, len(losses))
	for i, l := range losses {
		out[i] = jsonLoss{Field: l.Field, Version: l.Version, Changed: l.Changed}
	}
	return groupLosses(out)
}
