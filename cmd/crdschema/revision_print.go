package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/revision"
	"github.com/crdschema/crdschema/structural"
)

// revisionPrinter writes one run of revision in one output format: the
// CRDs' findings (before the objects), each replayed object, each skipped
// document, and the end (the summary).
type revisionPrinter interface {
	crds(run *revisionRun) error
	object(l *replayLine, r revision.Effect) error
	skipped(s skippedResult) error
	finish(run *revisionRun) error
}

func newRevisionPrinter(format string, w io.Writer) revisionPrinter {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return revisionJSON{enc}
	case "markdown":
		return &revisionMarkdown{w: w}
	case "github":
		return &revisionGithub{w: w}
	}
	return revisionText{w}
}

// revisionJSON writes a JSON line per object and per skipped document as
// they come, then one per CRD.
type revisionJSON struct{ enc *json.Encoder }

func (revisionJSON) crds(*revisionRun) error { return nil }

func (p revisionJSON) object(l *replayLine, _ revision.Effect) error { return p.enc.Encode(l) }

func (p revisionJSON) skipped(s skippedResult) error { return p.enc.Encode(s) }

func (p revisionJSON) finish(run *revisionRun) error {
	for _, pair := range run.pairs {
		if err := p.enc.Encode(newCRDLine(pair)); err != nil {
			return err
		}
	}
	return nil
}

// finding is one line of the human formats: where (file, line), whose
// (label), how bad (level: error, warning or notice) and what.
type finding struct {
	file  string
	line  int
	label string
	level string
	text  string
}

// crdFindings are the findings of one CRD, in the order the human formats
// print them.
func crdFindings(p *revisionPair, fails func(string) bool) []finding {
	at, label := p.new, "CustomResourceDefinition/"+p.name
	if at == nil {
		at = p.old
	}
	pos := at.Position()
	add := func(out []finding, level, text string) []finding {
		return append(out, finding{pos.File, pos.Line, escapeControl(label), level, text})
	}
	var out []finding
	switch p.operation() {
	case "ABSENT":
		return add(out, "notice", "not in the new revision: its objects are not replayed (applying the new revision leaves it as it is; deleting it deletes its objects)")
	case "CREATE":
		out = add(out, "notice", "no old revision: a create, nothing stored to replay")
	case "UPDATE":
		label += " (update)"
		if len(p.errs) == 0 {
			out = add(out, "notice", "the apiserver accepts the update")
		}
	}
	for _, e := range p.errs {
		out = add(out, "error", "rejected: "+indentDetail(errorText(e)))
	}
	for _, w := range p.warnings {
		out = add(out, "warning", "warning: "+escapeControl(w))
	}
	if len(p.oldErrs) > 0 && p.new != nil {
		op := p.old.Position()
		out = append(out, finding{op.File, op.Line, escapeControl("CustomResourceDefinition/" + p.name + " (old)"), "warning",
			fmt.Sprintf("the old revision is invalid (%s, first: %s): the apiserver stores only valid CRDs, so the cluster cannot have it as it is; comparing what can be compared",
				plural(len(p.oldErrs), "error"), indentDetail(errorText(p.oldErrs[0])))})
	}
	for _, c := range p.changes {
		f := finding{pos.File, pos.Line, escapeControl(label), changeLevel(c.Class, fails), changeText(c)}
		if line := p.changeLine(c); line > 0 {
			f.line = line
		}
		out = append(out, f)
	}
	return out
}

// changeLevel is the level of a change of class: an error when it fails
// the run (or is not checked), a notice when safe, else a warning.
func changeLevel(class string, fails func(string) bool) string {
	switch {
	case fails(class) || class == "unchecked":
		return "error"
	case class == "safe":
		return "notice"
	}
	return "warning"
}

// changeLine is the line of the new revision's document a change is at:
// its field in the version's schema (the version itself for a change of
// the version, its printer columns or scale subresource); 0 when unknown.
func (p *revisionPair) changeLine(c revision.Change) int {
	if p.locate == nil || p.new == nil || c.Version == "" {
		return 0
	}
	i := slices.Index(p.new.Versions(), c.Version)
	if i < 0 {
		return 0
	}
	at := fmt.Sprintf("spec.versions[%d]", i)
	switch c.Kind {
	case "printer-columns-changed":
		at += ".additionalPrinterColumns"
	case "scale-changed":
		at += ".subresources.scale"
	}
	if c.Path != "" {
		s, _ := p.new.Version(c.Version)
		if s != nil {
			at += ".schema.openAPIV3Schema" + schemaFieldPath(s.Structural(), c.Path)
		}
	}
	line, _ := p.locate(at)
	return line
}

// changePathSteps splits a Change.Path (spec.tags[*].name) into its
// property names, "*" for [*].
func changePathSteps(path string) []string {
	var out []string
	for _, part := range strings.Split(path, ".") {
		name, stars, _ := strings.Cut(part, "[")
		if name != "" {
			out = append(out, name)
		}
		for n := strings.Count("["+stars, "[*]"); n > 0; n-- {
			out = append(out, "*")
		}
	}
	return out
}

// schemaFieldPath is the path, below a version's openAPIV3Schema, of the
// schema node of an object field path (spec.tags[*].name):
// .properties[spec].properties[tags].items.properties[name] ([*] is items
// of a list, additionalProperties of a map); it stops where the schema
// does.
func schemaFieldPath(s *structural.Schema, path string) string {
	var b strings.Builder
	for _, name := range changePathSteps(path) {
		if s == nil {
			break
		}
		switch {
		case name == "*" && s.Items != nil:
			b.WriteString(".items")
			s = s.Items
		case name == "*" && s.AdditionalProperties != nil:
			b.WriteString(".additionalProperties")
			s = s.AdditionalProperties.Schema
		case s.Properties[name] != nil:
			b.WriteString(".properties[" + name + "]")
			s = s.Properties[name]
		default:
			return b.String()
		}
	}
	return b.String()
}

// changeText is a change as the human formats print it.
func changeText(c revision.Change) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", c.Class, c.Kind)
	if c.Version != "" {
		b.WriteString(" in " + c.Version)
	}
	if c.Path != "" {
		b.WriteString(" at " + escapeControl(c.Path))
	}
	if c.Detail != "" {
		b.WriteString(": " + escapeControl(c.Detail))
	}
	if c.Static {
		b.WriteString(" (static: inferred from the schemas)")
	}
	return b.String()
}

// objectFindings are the findings of one replayed object.
func objectFindings(l *replayLine, r revision.Effect) []finding {
	label := escapeControl(objectLabel(l))
	var out []finding
	add := func(level, text string) {
		out = append(out, finding{l.File, l.Line, label, level, text})
	}
	for _, e := range r.Errors {
		add("error", "cannot replay: "+indentDetail(errorText(e)))
	}
	for _, e := range r.NotChecked {
		add("error", "not checked (no conversion webhook: --converter URL): "+indentDetail(errorText(e)))
	}
	if r.RefusedManifest {
		why := ""
		if len(r.OldCreate) > 0 {
			// The root's "some validation rules were not checked"
			// sorts first but says nothing of the object: name a
			// field's error when there is one.
			first := r.OldCreate[0]
			if i := slices.IndexFunc(r.OldCreate, func(e *field.Error) bool { return !isRulesNotRun(e) }); i >= 0 {
				first = r.OldCreate[i]
			}
			why = fmt.Sprintf(" (%s, first: %s)", plural(len(r.OldCreate), "error"), indentDetail(errorText(first)))
		}
		add("notice", "manifest the old revision refuses"+why+": replayed as stored, as a dump is")
	}
	for _, loss := range groupLosses(l.Losses) {
		add("error", loss)
	}
	failures := func(what string, errs field.ErrorList, isNew bool) {
		level, note := "error", "newly fails"
		if !isNew {
			level, note = "warning", "fails, as under the old revision"
		}
		for _, e := range errs {
			add(level, fmt.Sprintf("%s %s: %s", what, note, indentDetail(errorText(e))))
		}
	}
	failures("update", r.Update, l.NewUpdateFailure)
	failures("create", r.Create, l.NewCreateFailure)
	return out
}

// objectLabel is "Kind/name" of an object line.
func objectLabel(l *replayLine) string {
	oc := outcome{kind: l.Kind, name: l.Name, document: l.Document}
	return oc.label()
}

// groupLosses words the losses of an object, one sentence per field with
// every version whose read loses (or changes) it.
func groupLosses(losses []jsonLoss) []string {
	var out []string
	var versions []string
	for i, l := range losses {
		versions = append(versions, l.Version)
		if i+1 < len(losses) && losses[i+1].Field == l.Field && losses[i+1].Changed == l.Changed && losses[i+1].Written == l.Written {
			continue
		}
		what := "lost"
		if l.Changed {
			what = "changed"
		}
		when := "on read"
		if l.Written {
			when = "once the next write stores the object, on read"
		}
		out = append(out, fmt.Sprintf("data loss: %s %s %s at %s", escapeControl(l.Field), what, when, strings.Join(versions, ", ")))
		versions = nil
	}
	return out
}

// summaryLines are the run's summary, one line per CRD and per version,
// then the skipped documents and the verdict.
func summaryLines(run *revisionRun) []string {
	var out []string
	for _, p := range run.pairs {
		if p.old == nil || p.new == nil {
			continue
		}
		out = append(out, fmt.Sprintf("CustomResourceDefinition/%s: %s", escapeControl(p.name), countsText(&p.total)))
		for _, c := range p.versionCounts() {
			out = append(out, fmt.Sprintf("CustomResourceDefinition/%s %s: %s", escapeControl(p.name), escapeControl(c.Version), countsText(&c)))
		}
	}
	if n := sumValues(run.skipped); n > 0 {
		var parts []string
		for _, reason := range slices.Sorted(maps.Keys(run.skipped)) {
			parts = append(parts, fmt.Sprintf("%d: %s", run.skipped[reason], escapeControl(reason)))
		}
		out = append(out, fmt.Sprintf("skipped %s (%s)", plural(n, "document"), strings.Join(parts, "; ")))
	}
	if run.notReplayed > 0 {
		out = append(out, fmt.Sprintf("%s could not be replayed", plural(run.notReplayed, "object")))
	}
	return append(out, revisionVerdict(run))
}

func countsText(c *replayCounts) string {
	s := fmt.Sprintf("%s replayed: %d losing data, %d failing update (%d new), %d failing create (%d new)",
		plural(c.Objects, "object"), c.LosingData, c.FailingUpdate, c.NewlyFailingUpdate, c.FailingCreate, c.NewlyFailingCreate)
	if c.NotChecked > 0 {
		s += fmt.Sprintf(", %d not checked (needing the conversion webhook)", c.NotChecked)
	}
	if c.Manifests > 0 {
		s += fmt.Sprintf("; %s without server-set metadata created under the old revision first", plural(c.Manifests, "manifest"))
	}
	if c.RefusedManifests > 0 {
		s += fmt.Sprintf("; %s the old revision refuses, replayed as stored", plural(c.RefusedManifests, "manifest"))
	}
	return s
}

func sumValues(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// revisionVerdict is the run's last line: safe, passes (nothing fails
// the run, but changes of the classes --fail-on may add were found), or
// why not; incomplete when an input could not be read.
func revisionVerdict(run *revisionRun) string {
	var why, notes []string
	rejected, failing, unchecked, objects := 0, 0, 0, 0
	classes := map[string]int{}
	for _, p := range run.pairs {
		rejected += b2i(len(p.errs) > 0)
		for _, c := range p.changes {
			failing += b2i(run.fail.fails(c.Class))
			classes[c.Class]++
		}
		unchecked += p.unchecked()
		objects += b2i(p.total.unsafe())
	}
	if rejected > 0 {
		why = append(why, fmt.Sprintf("%s rejected by the apiserver", plural(rejected, "CRD")))
	}
	if failing > 0 {
		why = append(why, fmt.Sprintf("%s classed %s", plural(failing, "change"), orList(append(slices.Clone(failingByDefault), run.fail...))))
	}
	if unchecked > 0 {
		why = append(why, fmt.Sprintf("%s not checked (needing the conversion webhook: --converter URL)", plural(unchecked, "change")))
	}
	if objects > 0 {
		why = append(why, fmt.Sprintf("objects of %s lose data, newly fail or are not checked", plural(objects, "CRD")))
	}
	for _, class := range optionalFailing {
		if n := classes[class]; n > 0 && !run.fail.fails(class) {
			notes = append(notes, fmt.Sprintf("%d %s (--fail-on %s fails them)", n, class, class))
		}
	}
	verdict := "safe: " + plural(run.replayed, "object") + " replayed"
	switch {
	case len(why) > 0:
		verdict = "unsafe: " + strings.Join(why, "; ")
	case len(notes) > 0:
		verdict = "passes: " + plural(run.replayed, "object") + " replayed; changes " + strings.Join(notes, ", ")
	}
	if run.inputErr || run.notReplayed > 0 {
		return "incomplete: some input could not be read or replayed (see the errors); of the rest, " + verdict
	}
	return verdict
}

// revisionText writes "file:line: Label: text" lines, then the summary
// lines prefixed "crdschema: ".
type revisionText struct{ w io.Writer }

func (p revisionText) write(fs []finding) error {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s:%s: %s: %s\n", escapeControl(f.file), strconv.Itoa(f.line), f.label, f.text)
	}
	_, err := io.WriteString(p.w, b.String())
	return err
}

func (p revisionText) crds(run *revisionRun) error { return writeCRDFindings(run, p.write) }

// writeCRDFindings writes the findings of every CRD of run with write.
func writeCRDFindings(run *revisionRun, write func([]finding) error) error {
	for _, pair := range run.pairs {
		if err := write(crdFindings(pair, run.fail.fails)); err != nil {
			return err
		}
	}
	return nil
}

func (p revisionText) object(l *replayLine, r revision.Effect) error {
	return p.write(objectFindings(l, r))
}

func (revisionText) skipped(skippedResult) error { return nil }

func (p revisionText) finish(run *revisionRun) error {
	var b strings.Builder
	for _, s := range summaryLines(run) {
		b.WriteString("crdschema: " + s + "\n")
	}
	_, err := io.WriteString(p.w, b.String())
	return err
}

// revisionGithub writes workflow commands: an annotation per finding at
// its file and line, the summary as notices.
type revisionGithub struct{ w io.Writer }

func (p *revisionGithub) write(fs []finding) error {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "::%s file=%s,line=%d,title=%s::%s\n", f.level, ghProperty(f.file), f.line, ghProperty("crdschema revision"), ghData(f.label+": "+f.text))
	}
	_, err := io.WriteString(p.w, b.String())
	return err
}

func (p *revisionGithub) crds(run *revisionRun) error { return writeCRDFindings(run, p.write) }

func (p *revisionGithub) object(l *replayLine, r revision.Effect) error {
	return p.write(objectFindings(l, r))
}

func (*revisionGithub) skipped(skippedResult) error { return nil }

func (p *revisionGithub) finish(run *revisionRun) error {
	var b strings.Builder
	for _, s := range summaryLines(run) {
		fmt.Fprintf(&b, "::notice title=%s::%s\n", ghProperty("crdschema revision"), ghData(s))
	}
	_, err := io.WriteString(p.w, b.String())
	return err
}

// markdownObjectLimit bounds the object findings a PR comment lists.
const markdownObjectLimit = 50

// revisionMarkdown writes one PR comment at the end: the verdict, a
// summary table, the CRDs' findings and the objects' (at most
// markdownObjectLimit of them).
type revisionMarkdown struct {
	w       io.Writer
	crdText strings.Builder
	objects []finding
	more    int
}

func (p *revisionMarkdown) crds(run *revisionRun) error {
	for _, pair := range run.pairs {
		fs := mergeVersions(crdFindings(&revisionPair{name: pair.name, old: pair.old, new: pair.new, errs: pair.errs,
			warnings: pair.warnings, oldErrs: pair.oldErrs, changes: nil}, run.fail.fails), pair, run.fail.fails)
		if len(fs) == 0 {
			continue
		}
		fmt.Fprintf(&p.crdText, "\n#### `%s`\n\n", mdCode(pair.name))
		for _, f := range fs {
			fmt.Fprintf(&p.crdText, "- %s%s (`%s:%d`)\n", mdLevel(f.level), mdText(f.text), mdCode(f.file), f.line)
		}
	}
	return nil
}

func (p *revisionMarkdown) object(l *replayLine, r revision.Effect) error {
	for _, f := range objectFindings(l, r) {
		if f.level == "notice" {
			continue // a comment lists what needs a look; -o text has the rest
		}
		if len(p.objects) >= markdownObjectLimit {
			p.more++
			continue
		}
		p.objects = append(p.objects, f)
	}
	return nil
}

func (*revisionMarkdown) skipped(skippedResult) error { return nil }

func (p *revisionMarkdown) finish(run *revisionRun) error {
	var b strings.Builder
	v := revisionVerdict(run)
	head, rest, _ := strings.Cut(v, ": ")
	fmt.Fprintf(&b, "### crdschema revision: **%s**\n\n%s\n\n", head, mdText(rest))
	b.WriteString("| CRD | version | objects | losing data | failing update (new) | failing create (new) |\n|---|---|---:|---:|---:|---:|\n")
	for _, pair := range run.pairs {
		if pair.old == nil || pair.new == nil {
			fmt.Fprintf(&b, "| `%s` | %s | | | | |\n", mdCode(pair.name), strings.ToLower(pair.operation()))
			continue
		}
		mdRow(&b, pair.name, "all", &pair.total)
		for _, c := range pair.versionCounts() {
			mdRow(&b, pair.name, c.Version, &c)
		}
	}
	b.WriteString(p.crdText.String())
	if len(p.objects) > 0 {
		b.WriteString("\n#### Objects\n\n")
		for _, f := range p.objects {
			fmt.Fprintf(&b, "- %s`%s:%d` %s: %s\n", mdLevel(f.level), mdCode(f.file), f.line, mdText(f.label), mdText(f.text))
		}
		if p.more > 0 {
			fmt.Fprintf(&b, "- … and %d more (see `-o json`)\n", p.more)
		}
	}
	if n := sumValues(run.skipped); n > 0 {
		fmt.Fprintf(&b, "\n%s skipped (no CRD of their kind in both revisions).\n", plural(n, "document"))
	}
	_, err := io.WriteString(p.w, b.String())
	return err
}

func mdRow(b *strings.Builder, name, version string, c *replayCounts) {
	fmt.Fprintf(b, "| `%s` | %s | %d | %d | %d (%d) | %d (%d) |\n", mdCode(name), mdText(version), c.Objects, c.LosingData, c.FailingUpdate, c.NewlyFailingUpdate, c.FailingCreate, c.NewlyFailingCreate)
}

// mdLevel marks a finding's level in words (emoji render unevenly).
func mdLevel(level string) string {
	switch level {
	case "error":
		return "**error**: "
	case "warning":
		return "*warning*: "
	}
	return ""
}

// mdText escapes what Markdown would read as markup in a table or a list
// item, and keeps the text on one line.
func mdText(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;", "\n", " ").Replace(s)
}

// mdCode is s inside a code span: backquotes and newlines replaced.
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "\n", " ", "|", `\|`).Replace(s)
}

// mergeVersions is fs (a CRD's findings without its changes) followed by
// its changes, one line for a change found the same in several versions
// (the same kind, path, class and detail but for the version's name).
func mergeVersions(fs []finding, p *revisionPair, fails func(string) bool) []finding {
	type group struct {
		c        revision.Change
		versions []string
		line     int
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, c := range p.changes {
		key := c.Kind + "\x00" + c.Path + "\x00" + c.Class + "\x00" + strings.ReplaceAll(c.Detail, c.Version, "\x01")
		if g := byKey[key]; g != nil && c.Version != "" {
			g.versions = append(g.versions, c.Version)
			continue
		}
		g := &group{c: c, versions: []string{c.Version}, line: p.changeLine(c)}
		byKey[key] = g
		groups = append(groups, g)
	}
	if len(groups) == 0 {
		// No change to list: also a CRD the new revision does not
		// have, whose findings crdFindings placed at the old one.
		return fs
	}
	label := "CustomResourceDefinition/" + p.name + " (update)"
	pos := p.new.Position()
	for _, g := range groups {
		c := g.c
		if len(g.versions) > 1 {
			c.Version = strings.Join(g.versions, ", ")
		}
		f := finding{pos.File, pos.Line, escapeControl(label), changeLevel(c.Class, fails), changeText(c)}
		if g.line > 0 {
			f.line = g.line
		}
		fs = append(fs, f)
	}
	return fs
}

// orList is "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
