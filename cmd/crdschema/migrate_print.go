package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// migratePrinter writes one run of migrate in one output format: each
// object as it is migrated, each skipped document, and the end (per CRD
// the summary and the migration's steps, then the verdict).
type migratePrinter interface {
	object(l *migrateLine) error
	skipped(s skippedResult) error
	finish(run *migrateRun) error
}

func newMigratePrinter(format string, w io.Writer) migratePrinter {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return migrateJSON{enc}
	}
	return migrateText{w}
}

// migrateJSON writes a JSON line per object and per skipped document as
// they come, then one per CRD.
type migrateJSON struct{ enc *json.Encoder }

func (p migrateJSON) object(l *migrateLine) error { return p.enc.Encode(l) }

func (p migrateJSON) skipped(s skippedResult) error { return p.enc.Encode(s) }

func (p migrateJSON) finish(run *migrateRun) error {
	for _, m := range run.migrations {
		if err := p.enc.Encode(newMigrateCRDLine(m)); err != nil {
			return err
		}
	}
	return nil
}

// migrateCRDLine is the JSON line of one CRD, after the objects' lines.
type migrateCRDLine struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	Line     int    `json:"line"`
	Kind     string `json:"kind"`
	Name     string `json:"name"`
	// Old is where the old revision was read (--old).
	Old *position `json:"old,omitempty"`
	// Errors and Warnings are the apiserver's answer to the CRD (its
	// update of the old revision, or its create).
	Errors   []jsonError `json:"errors"`
	Warnings []string    `json:"warnings"`
	// StorageVersion is the version objects move to, Via the version the
	// rewrite reads and writes at, Conversion the strategy.
	StorageVersion string `json:"storageVersion"`
	Via            string `json:"via"`
	Conversion     string `json:"conversion"`
	// StoredVersions are the versions objects may be stored at before
	// the patch, as far as the inputs tell (the old revision's and the
	// CRD's status.storedVersions, the versions the objects given are
	// stored at, the storage version).
	StoredVersions []string `json:"storedVersions"`
	Summary        struct {
		migrateCounts
		// Stored counts the objects by the version they are stored at.
		Stored map[string]int `json:"stored"`
	} `json:"summary"`
	// Safe: the rewrite of every object given migrates it with nothing
	// lost. PatchReady: every object given is stored at the storage
	// version after the rewrite, so Patch leaves none behind.
	Safe       bool           `json:"safe"`
	PatchReady bool           `json:"patchReady"`
	Patch      map[string]any `json:"patch"`
	// Steps are the migration's steps as the text output words them.
	Steps []string `json:"steps"`
}

func newMigrateCRDLine(m *migration) migrateCRDLine {
	pos := m.crd.Position()
	l := migrateCRDLine{File: pos.File, Document: pos.Index, Line: pos.Line, Kind: "CustomResourceDefinition", Name: m.crd.Name(),
		Errors: toJSONErrors(m.errs), Warnings: m.warnings, StorageVersion: m.crd.StorageVersion(), Via: m.via,
		Conversion: m.crd.ConversionStrategy(), StoredVersions: m.storedVersions(), Safe: m.rewriteSafe(), PatchReady: m.patchReady(),
		Patch: map[string]any{"status": map[string]any{"storedVersions": []string{m.crd.StorageVersion()}}}, Steps: migrationSteps(m)}
	if l.Warnings == nil {
		l.Warnings = []string{}
	}
	if m.old != nil {
		op := m.old.Position()
		l.Old = &position{File: op.File, Document: op.Index, Line: op.Line}
	}
	l.Summary.migrateCounts, l.Summary.Stored = m.counts, m.stored
	return l
}

// storedVersions are the versions objects of m's CRD may be stored at
// before the patch, as far as the inputs tell: the old revision's
// status.storedVersions, the CRD's, the versions of the objects given
// (in the CRD's order), and last its storage version, which the
// apiserver appends when a revision makes it the storage version.
func (m *migration) storedVersions() []string {
	out := []string{}
	to := m.crd.StorageVersion()
	add := func(v string) {
		if v != "" && v != to && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	if m.old != nil {
		for _, v := range m.old.StoredVersions() {
			add(v)
		}
	}
	for _, v := range m.crd.StoredVersions() {
		add(v)
	}
	for _, v := range m.crd.Versions() {
		if m.stored[v] > 0 {
			add(v)
		}
	}
	for _, v := range slices.Sorted(maps.Keys(m.stored)) {
		add(v)
	}
	return append(out, to)
}

// migrationSteps are the steps of m's migration in the order of the
// Kubernetes guide "Versions in CustomResourceDefinitions" (upgrade
// existing objects to a new stored version), each with what the run
// found about it.
func migrationSteps(m *migration) []string {
	to, name := m.crd.StorageVersion(), m.crd.Name()
	stored := strings.Join(m.storedVersions(), ", ")
	var first string
	switch {
	case len(m.errs) > 0 && m.old != nil:
		return []string{fmt.Sprintf("1. apply the new revision of the CRD: REJECTED by the apiserver (%s above): nothing can be migrated", plural(len(m.errs), "error"))}
	case len(m.errs) > 0:
		return []string{fmt.Sprintf("1. apply the CRD: REJECTED by the apiserver (%s above): nothing can be migrated", plural(len(m.errs), "error"))}
	case m.old != nil:
		first = fmt.Sprintf("1. apply the new revision of the CRD (the apiserver accepts the update): new writes are stored at %s; status.storedVersions becomes [%s]", to, stored)
	default:
		first = fmt.Sprintf("1. apply the CRD with storage version %s, if the cluster does not have it yet: new writes are stored at %s; status.storedVersions holds [%s]", to, to, stored)
	}
	rewrite := fmt.Sprintf("2. rewrite every stored object unchanged, read and written at %s, the preferred version (kube-storage-version-migrator, or: kubectl get %s -A -o json | kubectl replace -f -): %s",
		m.via, name, rewriteFinding(m))
	patch := fmt.Sprintf(`kubectl patch customresourcedefinition %s --subresource=status --type=merge -p '{"status":{"storedVersions":["%s"]}}'`, name, to)
	var third string
	switch {
	case m.counts.Objects == 0:
		third = "3. no object of the CRD among the inputs: drop the old versions from status.storedVersions only if the cluster stores none: " + patch
	case !m.patchReady():
		third = fmt.Sprintf("3. NOT YET: drop the old versions from status.storedVersions only once every object is stored at %s; %s would not be after step 2, and a later revision could then remove the version it is stored at", to, plural(m.counts.Failing+m.counts.NotChecked+m.counts.NotMigrated, "object"))
	case m.counts.LosingData > 0:
		third = "3. after step 2, if its losses are intended: drop the old versions from status.storedVersions: " + patch
	default:
		third = "3. after step 2: drop the old versions from status.storedVersions: " + patch
	}
	return []string{first, rewrite, third,
		"4. only then can a later revision remove the old versions from spec.versions (the apiserver refuses to remove a version status.storedVersions lists)"}
}

// rewriteFinding is what the run found about step 2 of m.
func rewriteFinding(m *migration) string {
	c := m.counts
	if c.Objects == 0 {
		return "no object of the CRD among the inputs"
	}
	if m.rewriteSafe() {
		return fmt.Sprintf("%s given, every one migrates with nothing lost", plural(c.Objects, "object"))
	}
	var parts []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, "1 object "+one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d objects %s", n, many))
		}
	}
	add(c.LosingData, "loses data", "lose data")
	add(c.Failing, "fails (its update is rejected: it stays stored as it is)", "fail (their update is rejected: they stay stored as they are)")
	add(c.NotChecked, "is not checked (conversion webhook)", "are not checked (conversion webhook)")
	add(c.NotMigrated, "cannot be migrated", "cannot be migrated")
	return fmt.Sprintf("NOT SAFE: of %s given, %s (listed above)", plural(c.Objects, "object"), strings.Join(parts, ", "))
}

// migrateText writes "file:line: Kind/name: ..." lines per object, then
// the summary lines prefixed "crdschema: ".
type migrateText struct{ w io.Writer }

func (p migrateText) object(l *migrateLine) error {
	label := escapeControl(objectLabel(&replayLine{Kind: l.Kind, Name: l.Name, Document: l.Document}))
	var b strings.Builder
	line := func(text string) {
		fmt.Fprintf(&b, "%s:%d: %s: %s\n", escapeControl(l.File), l.Line, label, text)
	}
	move := escapeControl(l.StoredVersion + " -> " + l.StorageVersion)
	switch l.Result {
	case resultMigrated:
		if l.StoredVersion == l.StorageVersion {
			line("migrated: already stored at " + escapeControl(l.StorageVersion) + ", rewritten")
		} else {
			line("migrated " + move)
		}
	case resultLosingData:
		line("loses data, migrating " + move)
		for _, loss := range lossLines(l.Losses) {
			line(loss)
		}
		for _, e := range l.Update {
			line("read fails: " + jsonErrorText(e))
		}
	case resultFailing:
		line(fmt.Sprintf("fails, migrating %s: the rewrite is rejected, the object stays stored at %s", move, escapeControl(l.StoredVersion)))
		for _, e := range l.Update {
			line("update fails: " + jsonErrorText(e))
		}
	case resultNotChecked:
		line("not checked: " + escapeControl(l.NotChecked))
	default:
		for _, e := range l.Errors {
			line("cannot be migrated: " + jsonErrorText(e))
		}
	}
	_, err := io.WriteString(p.w, b.String())
	return err
}

// jsonErrorText is an error as the human formats print it.
func jsonErrorText(e jsonError) string {
	return indentDetail(escapeControl(e.Field + ": " + e.Detail))
}

func (migrateText) skipped(skippedResult) error { return nil }

func (p migrateText) finish(run *migrateRun) error {
	var b strings.Builder
	for _, s := range migrateSummary(run) {
		b.WriteString("crdschema: " + s + "\n")
	}
	_, err := io.WriteString(p.w, b.String())
	return err
}

// migrateSummary are the run's last lines: per CRD its findings, counts
// and steps, then the skipped documents and the verdict.
func migrateSummary(run *migrateRun) []string {
	var out []string
	for _, m := range run.migrations {
		label := "CustomResourceDefinition/" + escapeControl(m.crd.Name())
		for _, e := range m.errs {
			out = append(out, label+": rejected: "+indentDetail(errorText(e)))
		}
		for _, w := range m.warnings {
			out = append(out, label+": warning: "+escapeControl(w))
		}
		c := m.counts
		out = append(out, fmt.Sprintf("%s: %s: %d migrated, %d losing data, %d failing, %d not checked, %d not migrated; storage version %s (conversion %s)",
			label, plural(c.Objects, "object"), c.Migrated, c.LosingData, c.Failing, c.NotChecked, c.NotMigrated, escapeControl(m.crd.StorageVersion()), m.crd.ConversionStrategy()))
		for _, s := range migrationSteps(m) {
			out = append(out, label+": "+escapeControl(s))
		}
	}
	if n := sumValues(run.skipped); n > 0 {
		var parts []string
		for _, reason := range slices.Sorted(maps.Keys(run.skipped)) {
			parts = append(parts, fmt.Sprintf("%d: %s", run.skipped[reason], escapeControl(reason)))
		}
		out = append(out, fmt.Sprintf("skipped %s (%s)", plural(n, "document"), strings.Join(parts, "; ")))
	}
	return append(out, migrateVerdict(run))
}

// migrateVerdict is the run's last line: safe, or why not.
func migrateVerdict(run *migrateRun) string {
	var why []string
	var total migrateCounts
	rejected := 0
	for _, m := range run.migrations {
		rejected += b2i(len(m.errs) > 0)
		c := m.counts
		total.Objects += c.Objects
		total.LosingData += c.LosingData
		total.Failing += c.Failing
		total.NotChecked += c.NotChecked
		total.NotMigrated += c.NotMigrated
	}
	for _, p := range []struct {
		n    int
		what string
	}{
		{rejected, plural(rejected, "CRD") + " rejected by the apiserver"},
		{total.LosingData, plural(total.LosingData, "object") + " losing data"},
		{total.Failing, plural(total.Failing, "object") + " failing the rewrite"},
		{total.NotChecked, plural(total.NotChecked, "object") + " not checked (conversion webhook)"},
		{total.NotMigrated, plural(total.NotMigrated, "object") + " that cannot be migrated"},
	} {
		if p.n > 0 {
			why = append(why, p.what)
		}
	}
	switch {
	case len(why) == 0 && total.Objects == 0:
		return "nothing to migrate: no object of the CRDs given among the inputs"
	case len(why) == 0:
		return fmt.Sprintf("safe: %s migrate with nothing lost; patch status.storedVersions after the rewrite (step 3)", plural(total.Objects, "object"))
	}
	return "unsafe: " + strings.Join(why, "; ")
}
