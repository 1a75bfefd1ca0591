package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	crdschema "github.com/crdschema/crdschema"
)

// jsonError is an error in the contract's JSON form.
type jsonError struct {
	Type   string `json:"type"`
	Field  string `json:"field"`
	Detail string `json:"detail"`
	// Line and Column are where the field is in the file (its parent's
	// key when it is missing, the document's start as a last resort);
	// additions to the contract's first edition.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// UserField is the path of Field as the file writes it, when the
	// apiserver names it by another (spec.validation... of a v1 CRD).
	UserField string `json:"userField,omitempty"`
	// Hint is crdschema's own help for the error, beside the apiserver's
	// words (which Detail keeps as they are): the declared field an
	// unknown one is probably a misspelling of, or what a v1beta1 CRD's
	// conversion to v1 did. Absent when there is none.
	Hint string `json:"hint,omitempty"`
}

// withHints sets the Hint of each error of out (toJSONErrors of errs,
// in the same order) that hints has one for.
func withHints(out []jsonError, errs field.ErrorList, hints map[*field.Error]string) []jsonError {
	if len(hints) == 0 {
		return out
	}
	for i, e := range errs {
		if i < len(out) {
			out[i].Hint = hints[e]
		}
	}
	return out
}

// toJSONErrors sorts errs and converts them to the contract's form. A
// Duplicate error's detail is the duplicated value as kubectl prints it
// (what follows "Duplicate value: " in the apiserver's message), since the
// apiserver's own detail for it is empty.
func toJSONErrors(errs field.ErrorList) []jsonError {
	crdschema.SortErrors(errs)
	out := make([]jsonError, 0, len(errs))
	for _, e := range errs {
		detail := e.Detail
		if e.Type == field.ErrorTypeDuplicate && detail == "" {
			detail = duplicateValue(e.BadValue)
		}
		out = append(out, jsonError{Type: string(e.Type), Field: e.Field, Detail: detail})
	}
	return out
}

// duplicateValue renders a duplicated value exactly as field.Error does in
// the apiserver's message (and so in kubectl's output): strings quoted,
// numbers and booleans plain, anything else as JSON.
func duplicateValue(v any) string {
	if v == (field.OmitValueType{}) {
		return ""
	}
	body := (&field.Error{Type: field.ErrorTypeDuplicate, BadValue: v}).ErrorBody()
	return strings.TrimPrefix(body, field.ErrorTypeDuplicate.String()+": ")
}

// outcome is what the command found for one document, whatever the verb and
// the output format.
type outcome struct {
	file     string
	document int
	line     int
	kind     string // as read from the document ("Schema" for a bare schema)
	name     string // metadata.name as read
	object   any    // the resulting object (object verbs), nil when none
	pruned   []string
	errs     field.ErrorList // sorted
	skipped  string          // why the document was skipped; "" when it was not
	// skipClass is the summary's class of a skipped document.
	skipClass string
	// duplicates are the fields the request holds twice (apply without
	// --strict): warnings, as under the apiserver's default.
	duplicates []string
	// errAt and warnAt are where each error and each warning is, when
	// known (see place).
	errAt, warnAt []placed
	// notes are the apiserver's warnings for a CRD or schema (check);
	// they name no field.
	notes []string
	// update marks a CRD checked as an update of a stored one (check --old).
	update bool
	// deprecation is the warning of a request to a deprecated version.
	deprecation string
	// lint are check's lint findings, apart from the apiserver's errors
	// and warnings; lintFails marks them as failing the run (--lint-fail).
	lint      []lintFinding
	lintFails bool
	// lintAt is where each lint finding is (see place).
	lintAt []placed
	// hints are crdschema's help for some of errs (see jsonError.Hint).
	hints map[*field.Error]string
	// parseErr is why a document of a walked file does not parse (a
	// lint's error; line is then the error's line).
	parseErr string
	// suggest maps pruned fields to the declared fields they are probably
	// misspellings of ("did you mean", in the warnings).
	suggest map[string]string
	// crd is the file:line of the CRD that checked the object;
	// crdConflicts is set when other copies of it differ, and the human
	// formats then name it after each error.
	crd          string
	crdConflicts bool
	// source is the file a rendered object came from (helm template's
	// "# Source:" comment, kustomize's origin annotation), "" when unknown.
	source string
}

// parseText is a document that does not parse as the human formats print
// it: "file:line: document N does not parse: yaml: ...".
func (o outcome) parseText() string {
	return fmt.Sprintf("%s: document %d does not parse: %s", o.where(), o.document, escapeControl(o.parseErr))
}

// unparsableResult is the JSON line of a document of a walked file that
// does not parse: one error of type "Unparsable".
type unparsableResult struct {
	File     string      `json:"file"`
	Document int         `json:"document"`
	Line     int         `json:"line"`
	Errors   []jsonError `json:"errors"`
}

func unparsableLine(o outcome) unparsableResult {
	return unparsableResult{File: o.file, Document: o.document, Line: o.line, Errors: []jsonError{{Type: "Unparsable", Detail: o.parseErr, Line: o.line}}}
}

// errWhere is "file:line:column" of error i for the human formats.
func (o outcome) errWhere(i int) string {
	return o.at(o.errAt, i)
}

// warnWhere is "file:line:column" of warning i.
func (o outcome) warnWhere(i int) string {
	return o.at(o.warnAt, i)
}

func (o outcome) at(ps []placed, i int) string {
	if i >= len(ps) || ps[i].line == 0 {
		return o.where()
	}
	s := escapeControl(o.file) + ":" + strconv.Itoa(ps[i].line)
	if ps[i].column > 0 {
		s += ":" + strconv.Itoa(ps[i].column)
	}
	return s
}

// errLine is the line of error i (the document's when unknown).
func (o outcome) errLine(i int) int {
	if i < len(o.errAt) && o.errAt[i].line > 0 {
		return o.errAt[i].line
	}
	return o.line
}

// errText is error i as the human formats print it: with the path the
// user wrote beside the apiserver's when they differ.
func (o outcome) errText(i int) string {
	e := o.errs[i]
	if i < len(o.errAt) && o.errAt[i].userField != "" {
		c := *e
		c.Field = o.errAt[i].userField + " (apiserver: " + e.Field + ")"
		e = &c
	}
	text := errorText(e)
	if h := o.hints[o.errs[i]]; h != "" {
		text += "; " + h
	}
	if o.crdConflicts {
		text += " (checked against " + escapeControl(o.crd) + ")"
	}
	return text
}

// lintText is the lint findings one per line, as the text output writes
// them.
func (o outcome) lintText() string {
	var b strings.Builder
	for i, f := range o.lint {
		fmt.Fprintf(&b, "%s: %s: lint: %s\n", o.at(o.lintAt, i), o.label(), f.text())
	}
	return b.String()
}

// lintLine is the line of the first lint finding (the document's when
// unknown).
func (o outcome) lintLine() int {
	if len(o.lintAt) > 0 && o.lintAt[0].line > 0 {
		return o.lintAt[0].line
	}
	return o.line
}

// label is "Kind/name", "Kind" or "document N" for the human formats,
// followed by " (update)" for a CRD checked as an update.
func (o outcome) label() string {
	if o.update {
		o.update = false
		return o.label() + " (update)"
	}
	if o.source != "" {
		src := o.source
		o.source = ""
		return o.label() + " (from " + escapeControl(src) + ")"
	}
	switch {
	case o.kind != "" && o.name != "":
		return escapeControl(o.kind + "/" + o.name)
	case o.kind != "":
		return escapeControl(o.kind)
	case o.name != "":
		return "object/" + escapeControl(o.name)
	}
	return "document " + strconv.Itoa(o.document)
}

// warning is one warning the apiserver would send: the field it names
// ("" when none) and its text.
type warning struct{ path, text string }

// warnings are what the apiserver would warn about, in its order (as
// Result.Warnings orders them): for a CRD or schema its notes; for an
// object the deprecation warning of a request to a deprecated version,
// then, for an object it stores (fieldValidation=Warn, its default), the
// fields the request holds twice, then the pruned fields. (Under --strict
// the same fields reject the object and are errors instead.)
func (o outcome) warnings() []warning {
	var out []warning
	for _, n := range o.notes {
		out = append(out, warning{"", n})
	}
	if o.deprecation != "" {
		out = append(out, warning{"", o.deprecation})
	}
	if o.object == nil {
		// No object stored: none of its fields is warned about.
		return out
	}
	for _, p := range o.duplicates {
		out = append(out, warning{p, "duplicate field " + strconv.Quote(p)})
	}
	for _, p := range o.pruned {
		text := warningText(p)
		if s := o.suggest[p]; s != "" {
			text += "; " + didYouMean(s)
		}
		out = append(out, warning{p, text})
	}
	return out
}

// where is "file:line" for the human formats.
func (o outcome) where() string {
	return escapeControl(o.file) + ":" + strconv.Itoa(o.line)
}

// errorText is one error in the human formats, as kubectl prints it
// ("spec.tags[2]: Duplicate value: \"a\""), without the leading ": " of an
// error at the root.
//
// Control characters in the field (a key "a\nb") are escaped as Go
// escapes them (properties[a\nb]), so that every error stays one line and
// no terminal escape sequence is printed raw; the message is kept as the
// apiserver words it.
func errorText(e *field.Error) string {
	if f := escapeControl(e.Field); f != e.Field {
		c := *e
		c.Field = f
		e = &c
	}
	if e.Field == "" {
		return e.ErrorBody()
	}
	return e.Error()
}

// indentDetail keeps a multi-line message (a CEL compile error shows
// the expression and a caret under it) one error per line in the human
// formats: every line after the first is an indented continuation line.
func indentDetail(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

// warningText is one pruned field as the apiserver's warning words it,
// and the detail of --strict's error for it.
func warningText(path string) string {
	return "unknown field " + strconv.Quote(path)
}

// printer writes the outcomes of one command run in one output format.
type printer interface {
	// print writes one document's outcome; line is its contract JSON line.
	print(o outcome, line any) error
	// finish writes what comes after the last document.
	finish() error
}

// outputFormats lists the -o values every verb takes besides its own
// default (text for check, yaml for the object verbs).
var outputFormats = []string{"json", "text", "github", "junit"}

func newPrinter(format, verb string, stdout, stderr io.Writer) printer {
	switch format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		return jsonPrinter{enc}
	case "github":
		return githubPrinter{w: stdout, verb: verb}
	case "junit":
		return &junitPrinter{w: stdout, verb: verb}
	case "yaml":
		return &yamlPrinter{stdout: stdout, stderr: stderr, first: true}
	}
	return textPrinter{w: stdout}
}

// jsonPrinter writes the contract's JSON Lines.
type jsonPrinter struct{ enc *json.Encoder }

func (p jsonPrinter) print(_ outcome, line any) error { return p.enc.Encode(line) }
func (jsonPrinter) finish() error                     { return nil }

// textPrinter writes one line per error and per pruned field:
// "file:line: Kind/name: field: message". Clean and skipped documents print
// nothing.
type textPrinter struct{ w io.Writer }

func (p textPrinter) print(o outcome, _ any) error {
	if o.parseErr != "" {
		_, err := io.WriteString(p.w, o.parseText()+"\n")
		return err
	}
	var b strings.Builder
	for i := range o.errs {
		fmt.Fprintf(&b, "%s: %s: %s\n", o.errWhere(i), o.label(), indentDetail(o.errText(i)))
	}
	for i, w := range o.warnings() {
		fmt.Fprintf(&b, "%s: %s: warning: %s\n", o.warnWhere(i), o.label(), escapeControl(w.text))
	}
	b.WriteString(o.lintText())
	if o.update && len(o.errs) == 0 {
		fmt.Fprintf(&b, "%s: %s: OK\n", o.where(), o.label())
	}
	_, err := io.WriteString(p.w, b.String())
	return err
}

func (textPrinter) finish() error { return nil }

// githubPrinter writes GitHub Actions workflow commands: an ::error
// annotation per error and a ::warning per pruned field, at the document's
// file and first line.
type githubPrinter struct {
	w    io.Writer
	verb string
}

func (p githubPrinter) print(o outcome, _ any) error {
	if o.parseErr != "" {
		_, err := fmt.Fprintf(p.w, "::error file=%s,line=%d,title=crdschema %s::%s\n", ghProperty(o.file), o.line, p.verb, ghData(fmt.Sprintf("document %d does not parse: %s", o.document, o.parseErr)))
		return err
	}
	var b strings.Builder
	for i := range o.errs {
		fmt.Fprintf(&b, "::error %s::%s\n", p.props(o, o.errAt, i), ghData(o.label()+": "+o.errText(i)))
	}
	for i, w := range o.warnings() {
		fmt.Fprintf(&b, "::warning %s::%s\n", p.props(o, o.warnAt, i), ghData(o.label()+": "+w.text))
	}
	for i, f := range o.lint {
		level := "warning"
		if o.lintFails {
			level = "error"
		}
		fmt.Fprintf(&b, "::%s %s::%s\n", level, p.props(o, o.lintAt, i), ghData(o.label()+": lint: "+f.text()))
	}
	_, err := io.WriteString(p.w, b.String())
	return err
}

func (githubPrinter) finish() error { return nil }

// props are the annotation's file, line, column and title.
func (p githubPrinter) props(o outcome, at []placed, i int) string {
	if o.source != "" && o.file == "-" {
		// Rendered input: the annotation goes to the template the object
		// came from; its line there is not known.
		return "file=" + ghProperty(o.source) + ",title=" + ghProperty("crdschema "+p.verb)
	}
	line, col := o.line, 0
	if i < len(at) && at[i].line > 0 {
		line, col = at[i].line, at[i].column
	}
	s := "file=" + ghProperty(o.file) + ",line=" + strconv.Itoa(line)
	if col > 0 {
		s += ",col=" + strconv.Itoa(col)
	}
	return s + ",title=" + ghProperty("crdschema "+p.verb)
}

// ghData escapes a workflow command's message as the GitHub runner expects.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// junitPrinter collects the outcomes and writes one JUnit XML report: a
// testsuite per input file, a testcase per document, a failure per
// document with errors (every error in its text), skipped documents as
// skipped testcases.
type junitPrinter struct {
	w      io.Writer
	verb   string
	suites []*junitSuite
	// summaryText is the run's summary, a property of the report.
	summaryText string
}

type junitReport struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Skipped  int      `xml:"skipped,attr"`
	// Properties hold the run's summary.
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Suites     []*junitSuite   `xml:"testsuite"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr"`
	Line      int           `xml:"line,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// suite returns the testsuite of a file, added in the order files first
// appear.
func (p *junitPrinter) suite(file string) *junitSuite {
	for _, s := range p.suites {
		if s.Name == file {
			return s
		}
	}
	s := &junitSuite{Name: file}
	p.suites = append(p.suites, s)
	return s
}

// inputError records an input that could not be read as a failed testcase
// of its file (of a suite named "crdschema" when no file is known).
func (p *junitPrinter) inputError(file string, line int, msg string) {
	name := file
	if name == "" {
		name = "crdschema"
	}
	s := p.suite(name)
	s.Tests++
	s.Failures++
	s.Cases = append(s.Cases, junitCase{
		Name:      fmt.Sprintf("%s:%d unreadable input", name, line),
		Classname: "crdschema " + p.verb,
		File:      file,
		Line:      line,
		Failure:   &junitFailure{Message: msg, Type: "InputError", Text: msg + "\n"},
	})
}

func (p *junitPrinter) print(o outcome, _ any) error {
	s := p.suite(o.file)
	c := junitCase{
		Name:      fmt.Sprintf("%s#%d %s", o.file, o.document, o.label()),
		Classname: "crdschema " + p.verb,
		File:      o.file,
		Line:      o.line,
	}
	if len(o.errs) > 0 {
		c.Line = o.errLine(0)
	}
	s.Tests++
	switch {
	case o.parseErr != "":
		s.Failures++
		c.Failure = &junitFailure{Message: "document does not parse: " + o.parseErr, Type: "Unparsable", Text: o.parseText() + "\n"}
	case o.skipped != "":
		s.Skipped++
		c.Skipped = &junitSkipped{Message: o.skipped}
	case len(o.errs) > 0:
		s.Failures++
		var text strings.Builder
		for i := range o.errs {
			fmt.Fprintf(&text, "%s: %s: %s\n", o.errWhere(i), o.label(), indentDetail(o.errText(i)))
		}
		c.Failure = &junitFailure{
			Message: fmt.Sprintf("%d error(s), first: %s", len(o.errs), o.errText(0)),
			Type:    string(o.errs[0].Type),
			Text:    text.String(),
		}
	}
	if o.lintFails && len(o.lint) > 0 && c.Failure == nil && c.Skipped == nil {
		s.Failures++
		c.Line = o.lintLine()
		c.Failure = &junitFailure{Message: lintSummary(o.lint), Type: "Lint", Text: o.lintText()}
	}
	var out strings.Builder
	for _, w := range o.warnings() {
		fmt.Fprintf(&out, "warning: %s\n", w.text)
	}
	if c.Failure == nil || c.Failure.Type != "Lint" {
		// Lint that fails the run is in the failure's text already.
		out.WriteString(o.lintText())
	}
	c.SystemOut = out.String()
	s.Cases = append(s.Cases, c)
	return nil
}

func (p *junitPrinter) finish() error {
	r := junitReport{Name: "crdschema " + p.verb, Suites: p.suites}
	if p.summaryText != "" {
		r.Properties = []junitProperty{{Name: "summary", Value: p.summaryText}}
	}
	for _, s := range p.suites {
		r.Tests += s.Tests
		r.Failures += s.Failures
		r.Skipped += s.Skipped
	}
	b, err := xml.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(p.w, "%s%s\n", xml.Header, b)
	return err
}

// yamlPrinter is the object verbs' default: the resulting objects the
// cluster would store as a YAML stream on stdout (a rejected object is
// left out); pruned fields, errors and skipped documents on stderr, one
// line each ("file:line: Kind/name: ...").
type yamlPrinter struct {
	stdout, stderr io.Writer
	first          bool
}

func (p *yamlPrinter) print(o outcome, _ any) error {
	if o.skipped != "" {
		fmt.Fprintf(p.stderr, "%s: %s: skipped: %s\n", o.where(), o.label(), o.skipped)
		return nil
	}
	if err := (textPrinter{p.stderr}).print(o, nil); err != nil {
		return err
	}
	if o.object == nil || len(o.errs) > 0 || o.parseErr != "" {
		// A rejected object is left out: the stream holds only what the
		// cluster would store; the errors are on stderr.
		return nil
	}
	b, err := yaml.Marshal(o.object)
	if err != nil {
		return err
	}
	if !p.first {
		if _, err := io.WriteString(p.stdout, "---\n"); err != nil {
			return err
		}
	}
	p.first = false
	_, err = p.stdout.Write(b)
	return err
}

func (*yamlPrinter) finish() error { return nil }

// documentKindName returns a document's kind and metadata.name as read,
// "" for what is absent or not a string.
func documentKindName(obj map[string]any) (kind, name string) {
	kind, _ = obj["kind"].(string)
	if meta, ok := obj["metadata"].(map[string]any); ok {
		name, _ = meta["name"].(string)
	}
	return kind, name
}

// escapeControl writes the control characters of s (newlines, tabs,
// escape, the C1 controls, the Unicode line and paragraph separators) as
// Go escapes them in strings ("\n", "\x1b", "\u2028"), leaving the rest as
// it is.
func escapeControl(s string) string {
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029
}

// errorTee returns the standard error of a run whose output format also
// reports input errors (github, junit): every line written to it still goes
// to stderr, and each error line of the command ("crdschema: file:line:
// message", "crdschema: message"), an input that could not be read, is
// also handed to report, with its file and line when the line names them.
func errorTee(stderr io.Writer, report func(file string, line int, msg string)) io.Writer {
	return &teeWriter{stderr: stderr, report: report}
}

type teeWriter struct {
	stderr  io.Writer
	report  func(file string, line int, msg string)
	partial []byte
}

var errorLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^crdschema: (.+?):(\d+): (.*)$`) })

func (w *teeWriter) Write(p []byte) (int, error) {
	n, err := w.stderr.Write(p)
	w.partial = append(w.partial, p[:n]...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		line := string(w.partial[:i])
		w.partial = w.partial[i+1:]
		msg, ok := strings.CutPrefix(line, "crdschema: ")
		if !ok {
			continue
		}
		if m := errorLineRE().FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			w.report(m[1], n, m[3])
			continue
		}
		w.report("", 0, msg)
	}
	return n, err
}

// withInputErrors routes the input errors written to stderr into p when
// its format reports them: ::error annotations for github, failed
// testcases for junit.
func withInputErrors(p printer, stderr, stdout io.Writer, verb string) io.Writer {
	switch p := p.(type) {
	case githubPrinter:
		return errorTee(stderr, func(file string, line int, msg string) {
			props := "title=" + ghProperty("crdschema "+verb)
			if file != "" {
				props = "file=" + ghProperty(file) + ",line=" + strconv.Itoa(line) + "," + props
			}
			fmt.Fprintf(stdout, "::error %s::%s\n", props, ghData(msg))
		})
	case *junitPrinter:
		return errorTee(stderr, p.inputError)
	}
	return stderr
}

// linePrinter writes the lines of the verbs whose output is one JSON line
// or YAML document per result (openapi, scale), as they come. The summary
// goes to stderr, beside the input errors, with -o yaml; -o json's output
// is its lines only, as the object verbs' is.
type linePrinter struct {
	emit func(any) error
	// stderr is where the summary goes; nil for none.
	stderr io.Writer
}

func newLinePrinter(format string, stdout, stderr io.Writer) linePrinter {
	p := linePrinter{emit: lineWriter(format, stdout)}
	if format == "yaml" {
		p.stderr = stderr
	}
	return p
}

func (p linePrinter) print(_ outcome, line any) error { return p.emit(line) }
func (linePrinter) finish() error                     { return nil }

func (p linePrinter) summary(c *counts) error {
	if p.stderr == nil {
		return nil
	}
	_, err := io.WriteString(p.stderr, summaryLine(c))
	return err
}

// summaryLine is the summary as the human formats end with it.
func summaryLine(c *counts) string { return "crdschema: " + c.String() + "\n" }

func (p textPrinter) summary(c *counts) error {
	_, err := io.WriteString(p.w, summaryLine(c))
	return err
}

// summary goes to stderr, beside the errors: stdout is a YAML stream.
func (p *yamlPrinter) summary(c *counts) error {
	_, err := io.WriteString(p.stderr, summaryLine(c))
	return err
}

// summary is a ::notice annotation, shown on the run's summary page.
func (p githubPrinter) summary(c *counts) error {
	_, err := fmt.Fprintf(p.w, "::notice title=%s::%s\n", ghProperty("crdschema "+p.verb), ghData(c.String()))
	return err
}

// summary is a property of the report, written by finish.
func (p *junitPrinter) summary(c *counts) error {
	p.summaryText = c.String()
	return nil
}
