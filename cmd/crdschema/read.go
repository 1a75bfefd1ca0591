package main

import (
	"bytes"
	"errors"
	"io"

	crdschema "github.com/crdschema/crdschema"
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
}

// outputError is a failure to write the output: it ends the run.
type outputError struct{ err error }

func (e outputError) Error() string { return e.err.Error() }

// each reads files in order and calls fn with each document that is not
// skipped and its text. It returns only an error writing the output (fn's
// or the printer's); input errors are reported and recorded.
func (rd *docReader) each(files []inputFile, fn func(d crdschema.Document, text *docText) error) error {
	for _, f := range files {
		rd.counts.files++
		if rd.lint {
			if reason := templateFile(f.name); reason != "" {
				rd.counts.skip(skipTemplate, f.name)
				if err := rd.skipped(skippedOutcome(f.name, 0, 1, nil, reason)); err != nil {
					return err
				}
				continue
			}
		}
		err := rd.in.streamFile(f.name, func(ev docEvent) error { return rd.event(f, ev, fn) })
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

func (rd *docReader) event(f inputFile, ev docEvent, fn func(crdschema.Document, *docText) error) error {
	rd.counts.documents++
	if ev.err != nil {
		if rd.lint {
			if class, reason := unreadableReason(ev.err, f.walked); class != "" {
				rd.counts.skip(class, f.name)
				n, _ := documentNumber(ev.err)
				return rd.skipped(skippedOutcome(f.name, n, ev.err.Line, nil, reason))
			}
		}
		reportError(rd.stderr, ev.err)
		rd.inputErr = true
		return nil
	}
	d := ev.doc
	if rd.lint {
		if reason := notObjectReason(d.Object); reason != "" {
			rd.counts.skip(skipNotObject, f.name)
			return rd.skipped(skippedOutcome(d.File, d.Index, d.Line, d.Object, reason))
		}
	}
	if err := fn(d, ev.text); err != nil {
		return outputError{err}
	}
	return nil
}

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
	case found:
		return 1
	}
	return 0
}

// crdsAmongFiles reads the CRDs among the documents of files (a first
// pass over them, before the objects are processed). Only the YAML
// documents that may be CRDs are decoded (see mayBeCRD), so the pass costs
// little more than reading the files; n counts every document part. A CRD that cannot be
// decoded is reported on stderr (ok false); the documents that cannot be
// read are left to the second pass. n counts the documents read.
func crdsAmongFiles(files []inputFile, in *inputs, lint bool, stderr io.Writer) (crds []*crdschema.CRD, n int, ok bool) {
	ok = true
	for _, f := range files {
		if lint && templateFile(f.name) != "" {
			n++
			continue
		}
		want := func(text []byte) bool {
			if mayBeCRD(text) {
				return true
			}
			if hasContent(text) {
				n++ // a document not decoded
			}
			return false
		}
		_ = in.streamParts(f.name, want, func(ev docEvent) error {
			n++
			if ev.err != nil || !ev.doc.IsCRD() {
				return nil
			}
			c, err := ev.doc.CRD()
			if err != nil {
				reportError(stderr, err)
				ok = false
				return nil
			}
			crds = append(crds, c)
			return nil
		})
	}
	return crds, n, ok
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

// mayBeCRD reports whether a YAML document's text may decode to a
// CustomResourceDefinition (or a List holding one): its kind must be
// spelled out, unless an escape ("\x43...") or a tag could spell it
// otherwise. The other documents are not decoded by the first pass.
func mayBeCRD(text []byte) bool {
	return bytes.Contains(text, []byte("CustomResourceDefinition")) ||
		bytes.IndexByte(text, '\\') >= 0 || bytes.Contains(text, []byte("!!"))
}

// hasContent reports whether a YAML text has a line that is neither blank
// nor a comment.
func hasContent(text []byte) bool {
	for len(text) > 0 {
		line, rest, _ := bytes.Cut(text, []byte("\n"))
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			return true
		}
		text = rest
	}
	return false
}
