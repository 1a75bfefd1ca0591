package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/layout"
	"github.com/crdschema/crdschema/schema"
)

// docReader reads the input files of one run document by document: it
// reports the documents that cannot be read, skips (and counts) what a
// lint skips, and hands every other document to a verb.
type docReader struct {
	in     *inputs
	lint   bool // --skip-unknown-kinds, --skip-non-crds: skip what is not Kubernetes
	p      printer
	stderr io.Writer
	counts counts
	// inputErr is set when an input or a document could not be read.
	inputErr bool
	// broken is set when a walked file's document does not parse (and is
	// no template): an error of the repository, reported as one.
	broken bool
	// layouts says what the walked files are (lint only).
	layouts *layouts
	// place is what the layout says of the file being read.
	place layout.Place
}

// outputError is a failure to write the output: it ends the run.
type outputError struct{ err error }

func (e outputError) Error() string { return e.err.Error() }

// each reads files in order and calls fn with each document that is not
// skipped and its text. It returns only an error writing the output (fn's
// or the printer's); input errors are reported and recorded.
func (rd *docReader) each(files []inputFile, fn func(d crdschema.Document) error) error {
	for i, f := range files {
		rd.counts.files++
		rd.place = layout.Place{}
		if rd.lint {
			rd.place = rd.layouts.place(f)
		}
		visit := func(d crdschema.Document, derr *schema.InputError) error {
			return rd.event(f, d, derr, fn)
		}
		var err error
		if f.first != nil {
			err = f.first.replay(visit)
			files[i].first = nil // read once
		} else {
			err = rd.in.read(f.name, visit)
		}
		var oe outputError
		if errors.As(err, &oe) {
			return oe.err
		}
		if err != nil {
			reportError(rd.stderr, err)
			rd.inputErr = true
		}
	}
	return nil
}

// event handles one document of file f (or derr, the error of one that
// cannot be read): counted, reported or skipped, or handed to fn.
func (rd *docReader) event(f inputFile, d crdschema.Document, derr *schema.InputError, fn func(crdschema.Document) error) error {
	rd.counts.documents++
	if derr != nil {
		return rd.unreadable(f, d, derr, fn)
	}
	if rd.lint {
		if class, reason := roleSkip(rd.place); class != "" {
			rd.counts.skip(class, f.name)
			return rd.skipped(skippedOutcome(d.File, d.Index, d.Line, d.Object, reason))
		}
		if reason := notObjectReason(d.Object); reason != "" {
			rd.counts.skip(skipNotObject, f.name)
			return rd.skipped(skippedOutcome(d.File, d.Index, d.Line, d.Object, reason))
		}
	}
	if err := fn(d); err != nil {
		return outputError{err}
	}
	return nil
}

// unreadable handles a document of file f that cannot be read (derr, d
// its position). A lint skips what is no Kubernetes object (a JSON array)
// and, in a walked file, what is clearly no broken manifest (a template, a
// Go test's input: unparsableSkip); a walked file's other documents that
// do not parse are errors of the repository, reported with the others (exit
// 1). Anything else is an unreadable input (stderr, exit 2).
func (rd *docReader) unreadable(f inputFile, d crdschema.Document, derr *schema.InputError, fn func(crdschema.Document) error) error {
	if rd.lint {
		if reason := notMappingReason(derr); reason != "" {
			rd.counts.skip(skipNotObject, f.name)
			return rd.skipped(skippedOutcome(f.name, d.Index, d.Line, nil, reason))
		}
		if f.walked {
			if r, rerr, read := rendered(d, derr); read && rerr == nil {
				rd.counts.documents-- // counted again as rendered
				return rd.event(f, r, nil, fn)
			} else if read {
				d, derr = r, rerr // what is wrong with the YAML the docs show
			}
			if class, reason := unparsableSkip(f.name, rd.place, d.Text); class != "" {
				rd.counts.skip(class, f.name)
				return rd.skipped(skippedOutcome(f.name, d.Index, d.Line, nil, reason))
			}
			rd.broken = true
			rd.counts.unparsable++
			msg := strings.TrimPrefix(derr.Err.Error(), fmt.Sprintf("document %d: ", d.Index))
			oc := outcome{file: f.name, document: d.Index, line: derr.Line, parseErr: msg}
			if oc.line == 0 {
				oc.line = d.Line
			}
			if err := rd.p.print(oc, unparsableLine(oc)); err != nil {
				return outputError{err}
			}
			return nil
		}
	}
	reportError(rd.stderr, derr)
	rd.inputErr = true
	return nil
}

// rendered reads d, a document that does not parse, again as Jinja
// renders it (renderedJinja: a snippet of a documentation site
// wrapped in {% raw %} tags), with d's position: the rendered document,
// or why it does not parse either (rerr). read is false when d holds
// other Jinja markup or none, and when the rendered text is more than one
// document. Rendered to nothing (the tags stood alone between two "---"),
// the document is an empty mapping, which the lint skips as no
// Kubernetes object.
func rendered(d crdschema.Document, derr *schema.InputError) (r crdschema.Document, rerr *schema.InputError, read bool) {
	text, ok := renderedJinja(d.Text)
	if !ok {
		return d, nil, false
	}
	// The document starts on the line its parse error's line within it
	// (go-yaml's "line N") is counted from: blank lines before its text
	// make every line the reader and the Locator give a line of the file.
	start := d.Line
	if m := yamlLine.FindStringSubmatch(derr.Err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		start = max(d.Line-n+1, 1)
	}
	d.Line = start
	src := append(bytes.Repeat([]byte("\n"), start-1), text...)
	n := 0
	for doc, err := range crdschema.Documents(d.File, bytes.NewReader(src)) {
		if n++; n > 1 {
			return crdschema.Document{}, nil, false
		}
		r = doc
		if err != nil {
			line, msg := d.Line, err.Error()
			var ie *schema.InputError
			if errors.As(err, &ie) {
				line, msg = max(ie.Line, d.Line), strings.TrimPrefix(ie.Err.Error(), "document 0: ")
			}
			rerr = &schema.InputError{File: d.File, Line: line, Err: fmt.Errorf("document %d: %s (as Jinja renders it)", d.Index, msg)}
		}
	}
	if n == 0 {
		r.Object = map[string]any{}
	}
	r.Position = d.Position
	r.Text = text
	return r, rerr, true
}

// yamlLine is go-yaml's place of a parse error in a document.
var yamlLine = regexp.MustCompile(`line (\d+)`)

// skipped prints the outcome of a skipped document.
func (rd *docReader) skipped(oc outcome) error {
	if err := rd.p.print(oc, skippedLine(oc)); err != nil {
		return outputError{err}
	}
	return nil
}

// finish ends the output: the printer's last part and the summary.
func (rd *docReader) finish() error {
	nothing := rd.counts.documents == 0 && len(rd.counts.skipped) == 0
	if s, ok := rd.p.(summarizer); ok && !nothing {
		if err := s.summary(&rd.counts); err != nil {
			return err
		}
	}
	return rd.p.finish()
}

// status is the exit status of a run: 2 when an input could not be read,
// or when there was nothing to read; 1 when found is; 0 otherwise.
func (rd *docReader) status(verb string, found bool) int {
	switch {
	case rd.inputErr:
		return 2
	case rd.counts.documents == 0 && len(rd.counts.skipped) == 0:
		return noObjects(verb, rd.stderr)
	case found || rd.broken:
		return 1
	}
	return 0
}

// crdsAmongFiles reads the CRDs among the documents of files (a first
// pass over them, before the objects are processed), decoding only the
// documents that may be CRDs. A CRD that cannot be decoded is reported on
// stderr (ok false); the documents that cannot be read are left to the
// second pass. A file of CRDs only is read whole and kept in files for
// the second pass to replay (see firstPass).
func crdsAmongFiles(files []inputFile, in *inputs, ls *layouts, stderr io.Writer) (crds []*crdschema.CRD, ok bool) {
	ok = true
	for i, f := range files {
		if class, _ := roleSkip(ls.place(f)); class != "" {
			continue // a kustomize patch or a test's assertion: partial CRDs
		}
		crd := func(d crdschema.Document) {
			c, err := d.CRD()
			if err != nil {
				reportError(stderr, err)
				ok = false
				return
			}
			crds = append(crds, c)
		}
		data, only := onlyCRDs(f.name, in)
		if !only {
			_ = in.read(f.name, func(d crdschema.Document, derr *schema.InputError) error {
				if derr == nil && d.IsCRD() {
					crd(d)
				}
				return nil
			}, "CustomResourceDefinition")
			continue
		}
		// A file of CRDs is read whole once: the second pass replays it.
		fp := &firstPass{}
		fp.err = readFrom(f.name, bytes.NewReader(data), func(d crdschema.Document, derr *schema.InputError) error {
			if derr == nil && d.IsCRD() {
				crd(d)
				d = thinCRD(d)
			}
			fp.events = append(fp.events, docEvent{d, derr})
			return nil
		})
		files[i].first = fp
	}
	return crds, ok
}

// anyDocument reports whether files hold a document, readable or not.
func anyDocument(files []inputFile, in *inputs) bool {
	errStop := errors.New("stop")
	for _, f := range files {
		err := in.read(f.name, func(crdschema.Document, *schema.InputError) error { return errStop })
		if err == errStop {
			return true
		}
	}
	return false
}

// summarizer is a printer that ends its output with the run's summary.
type summarizer interface {
	summary(c *counts) error
}

// bufferStdin reads standard input whole when it is among files and must
// be read twice (CRDs among the objects); it is then read from memory.
func (in *inputs) bufferStdin(files []inputFile) error {
	for _, f := range files {
		if f.name != "-" {
			continue
		}
		r, _, err := in.open("-")
		if err == nil {
			in.stdinData, err = io.ReadAll(r)
		}
		if err != nil {
			return &schema.InputError{File: "-", Err: err}
		}
		in.buffered = true
	}
	return nil
}

// crds reads the CRDs of files, as eachCRD does, and returns them (sample
// uses it).
func (rd *docReader) crds(files []inputFile) ([]*crdschema.CRD, error) {
	var out []*crdschema.CRD
	err := rd.eachCRD(files, func(c *crdschema.CRD) { out = append(out, c) })
	return out, err
}

// eachCRD reads the CRDs of files, for the verbs whose inputs are CRDs
// (sample through crds, jsonschema), handing each to do as it is read,
// right after its check: each counted as checked with the errors the
// apiserver would reject it for, the other documents as skipped; a CRD
// that cannot be decoded is reported (and makes rd.inputErr true).
func (rd *docReader) eachCRD(files []inputFile, do func(*crdschema.CRD)) error {
	return rd.each(files, func(d crdschema.Document) error {
		if !d.IsCRD() {
			rd.counts.skip(skipNotCRD, d.File)
			return nil
		}
		c, err := d.CRD()
		if err != nil {
			reportError(rd.stderr, err)
			rd.inputErr = true
			return nil
		}
		rd.counts.checked(len(c.Errors()))
		do(c)
		return nil
	})
}
