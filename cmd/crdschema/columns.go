package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/serving"
)

// columnsLine is one line of `crdschema columns -o json`.
type columnsLine struct {
	File     string `json:"file"`
	Document int    `json:"document"`
	// Line is where the object starts (an addition to the contract's
	// third edition, as the errors' line and column).
	Line    int              `json:"line"`
	Columns []serving.Column `json:"columns"`
	Cells   []any            `json:"cells"`
	Errors  []jsonError      `json:"errors"`
}

func runColumns(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("columns")
	var crds []string
	fs.Var(stringList{&crds}, "crd", "a CRD file or directory (repeatable)")
	output := fs.String("o", "text", "output format: text, wide or json")
	nowFlag := fs.String("now", "", "the server's clock for ages (RFC 3339); default: the current time")
	operands, err := parseInterleaved(fs, args)
	if err == errHelp {
		fmt.Fprint(stdout, verbHelp["columns"])
		return 0
	}
	now := time.Now()
	if err == nil && *nowFlag != "" {
		if now, err = time.Parse(time.RFC3339, *nowFlag); err != nil {
			err = fmt.Errorf("--now wants an RFC 3339 time such as 2026-11-25T00:00:00Z, not %q", *nowFlag)
		}
	}
	if err == nil {
		err = storedOptions(*output, []string{"text", "wide", "json"}, crds, operands)
	}
	if err != nil {
		fmt.Fprintf(stderr, "crdschema columns: %v\n%s", err, verbUsage("columns"))
		return 2
	}
	out := &columnsOutput{format: *output, stdout: stdout, emit: lineWriter("json", stdout)}
	return storedRun(crds, operands, stdin, stderr, out, func(c *crdschema.CRD, d crdschema.Document, routeErr *field.Error) (any, int) {
		line := columnsLine{File: d.File, Document: d.Index, Line: d.Line}
		errs := field.ErrorList{}
		if routeErr != nil {
			errs = append(errs, routeErr)
		} else {
			var fe field.ErrorList
			line.Columns, line.Cells, fe = c.Columns(d.Object, now)
			errs = append(errs, fe...)
		}
		line.Errors = located(errs, d)
		return line, len(errs)
	})
}

// storedOptions checks the flags of the verbs reading stored objects.
func storedOptions(output string, formats, crds, operands []string) error {
	switch {
	case !slices.Contains(formats, output):
		return fmt.Errorf("-o must be one of %s, not %q", strings.Join(formats, ", "), output)
	case len(crds) == 0:
		return errors.New("no --crd given")
	case len(operands) == 0:
		return errors.New("no OBJECTS given")
	}
	return stdinOnce(crds, operands)
}

// storedRun reads the CRDs, then the stored objects one at a time, and
// prints the line that line makes of every object with the CRD it routes
// to, or its routing error, and its number of errors. The status is 2 for
// unreadable input, else 1 when some line has errors.
func storedRun(crdPaths, objectPaths []string, stdin io.Reader, stderr io.Writer, p printer, line func(*crdschema.CRD, crdschema.Document, *field.Error) (any, int)) int {
	in := &inputs{stdin: stdin, max: defaultMaxInput}
	crds, ok, err := loadCRDs(crdPaths, in, stderr)
	if err != nil {
		reportError(stderr, err)
		return 2
	}
	names, err := expandPaths(objectPaths)
	if err != nil {
		reportError(stderr, err)
		return 2
	}
	rd := &docReader{in: in, p: p, stderr: stderr, inputErr: !ok}
	found := false
	err = rd.each(namedFiles(names), func(d crdschema.Document) error {
		c, routeErr := routeStored(crds, d.Object)
		l, n := line(c, d, routeErr)
		rd.counts.checked(n)
		found = found || n > 0
		return p.print(outcome{}, l)
	})
	return servedStatus(rd, found, err)
}

// routeStored finds the CRD a stored object belongs to (columns, scale,
// convert): the first CRD the apiserver would accept that defines the
// object's group and kind. Unlike a request, a stored object may be at a
// version that is not served (the CRD's Read checks that it is defined).
// The other routing failures (no such kind, only rejected CRDs for it, a
// malformed kind or apiVersion) are Route's, as the error of the object.
func routeStored(crds []*crdschema.CRD, obj map[string]any) (*crdschema.CRD, *field.Error) {
	_, err := crdschema.Route(crds, obj)
	var ns *crdschema.NotServedError
	if err != nil && !errors.As(err, &ns) {
		return nil, routingError(err)
	}
	// Route checked that apiVersion and kind are strings.
	apiVersion, kind := obj["apiVersion"].(string), obj["kind"].(string)
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		group = ""
	}
	for _, c := range crds {
		if gk := c.GroupKind(); gk.Group == group && gk.Kind == kind && len(c.Errors()) == 0 {
			return c, nil
		}
	}
	// Not reached: Route finds an accepted CRD for the group and kind.
	return nil, routingError(&crdschema.UnknownKindError{APIVersion: apiVersion, Kind: kind})
}

// columnsOutput writes columns lines as JSON or as kubectl's table.
type columnsOutput struct {
	format string
	stdout io.Writer
	emit   func(any) error
	// table is the table being printed and header its column names; a
	// line with other columns starts a new table.
	table  *tabwriter.Writer
	header string
	errs   []string
	// summaryText is the summary line, written last.
	summaryText string
}

// print writes a line as JSON, or as a row of the table (its errors are
// printed after the table).
func (o *columnsOutput) print(_ outcome, l any) error {
	line := l.(columnsLine)
	if o.format == "json" {
		return o.emit(line)
	}
	for _, e := range line.Errors {
		// The error's line and column, as the other verbs' text has them.
		where := fmt.Sprintf("%s:%d", escapeControl(line.File), e.Line)
		if e.Column > 0 {
			where += fmt.Sprintf(":%d", e.Column)
		}
		o.errs = append(o.errs, fmt.Sprintf("%s: %s: %s", where, e.Field, e.Detail))
	}
	if line.Columns == nil {
		return nil
	}
	var names, cells []string
	for i, c := range line.Columns {
		if c.Priority > 0 && o.format != "wide" {
			continue
		}
		names = append(names, escapeControl(strings.ToUpper(c.Name)))
		cells = append(cells, escapeControl(cellText(line.Cells[i])))
	}
	header := strings.Join(names, "\t")
	if o.table == nil || header != o.header {
		if err := o.flushTable(); err != nil {
			return err
		}
		o.table = tabwriter.NewWriter(o.stdout, 10, 4, 3, ' ', 0)
		o.header = header
		fmt.Fprintln(o.table, header)
	}
	_, err := fmt.Fprintln(o.table, strings.Join(cells, "\t"))
	return err
}

// cellText is a cell as kubectl prints it: <none> for no value.
func cellText(v any) string {
	if v == nil {
		return "<none>"
	}
	return fmt.Sprint(v)
}

func (o *columnsOutput) flushTable() error {
	if o.table == nil {
		return nil
	}
	err := o.table.Flush()
	o.table = nil
	return err
}

// finish ends the last table and prints the errors, then the summary,
// after it.
func (o *columnsOutput) finish() error {
	if err := o.flushTable(); err != nil {
		return err
	}
	for _, e := range o.errs {
		if _, err := fmt.Fprintln(o.stdout, e); err != nil {
			return err
		}
	}
	_, err := io.WriteString(o.stdout, o.summaryText)
	return err
}

// summary is the table's last line, after the errors; -o json has none.
func (o *columnsOutput) summary(c *counts) error {
	if o.format != "json" {
		o.summaryText = summaryLine(c)
	}
	return nil
}
