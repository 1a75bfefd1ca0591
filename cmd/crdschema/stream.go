package main

import (
	"bytes"
	"errors"
	"io"
	"os"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/schema"
)

// read reads the documents of the file name ("-" for standard input)
// through the library's reader, one at a time (crdschema.Documents: a
// YAML stream one document at a time, a JSON stream whole; with kinds,
// only those kinds), and hands each to visit, or the error of a document
// that cannot be read (beside its Position). It stops at
// visit's first error and returns it; an input that cannot be opened or
// read is a *schema.InputError.
func (in *inputs) read(name string, visit func(d crdschema.Document, err *schema.InputError) error, kinds ...string) error {
	r, closeFn, err := in.open(name)
	if err != nil {
		return &schema.InputError{File: name, Err: err}
	}
	defer closeFn()
	return readFrom(name, r, visit, kinds...)
}

// readFrom reads the documents of r, named name, as read does.
func readFrom(name string, r io.Reader, visit func(d crdschema.Document, err *schema.InputError) error, kinds ...string) error {
	for d, err := range crdschema.Documents(name, r, kinds...) {
		var ie *schema.InputError
		if err != nil && (!errors.As(err, &ie) || d.Line == 0) {
			return err // the stream's own failure
		}
		if verr := visit(d, ie); verr != nil {
			return verr
		}
	}
	return nil
}

// readFile reads the documents of one file, as crdschema.ReadDocuments
// reads a whole input: the documents, and an InputErrors for those that
// cannot be read beside them (a *schema.InputError for an input that
// cannot be read at all).
func (in *inputs) readFile(name string) ([]crdschema.Document, error) {
	var docs []crdschema.Document
	var errs schema.InputErrors
	err := in.read(name, func(d crdschema.Document, err *schema.InputError) error {
		if err != nil {
			errs = append(errs, err)
		} else {
			docs = append(docs, d)
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case len(errs) > 0:
		return docs, errs
	}
	return docs, nil
}

// open opens an input, refusing a regular file larger than in.max; what
// is read from it fails once more than in.max bytes were read.
func (in *inputs) open(name string) (io.Reader, func(), error) {
	if name == "-" && in.buffered {
		return bytes.NewReader(in.stdinData), func() {}, nil
	}
	if name == "-" {
		r := in.stdin
		if r == nil {
			r = os.Stdin
		}
		return in.limit(r), func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	var r io.Reader = f
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if in.max > 0 && st.Size() > in.max {
			f.Close()
			return nil, nil, in.tooLarge()
		}
		r = &fileReader{r: f, left: st.Size()}
	}
	return in.limit(r), func() { f.Close() }, nil
}

// fileReader reads a regular file whose size was known at open. Its Len,
// the bytes left to read, lets schema.Documents read a small file through
// a buffer its size rather than 64 KiB (through limitReader, which passes
// it on).
type fileReader struct {
	r    io.Reader
	left int64
}

func (f *fileReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.left -= int64(n)
	return n, err
}

// Len is the number of bytes the file has left to read, as far as its
// size at open says.
func (f *fileReader) Len() int { return int(max(f.left, 0)) }

func (in *inputs) limit(r io.Reader) io.Reader {
	if in.max <= 0 {
		return r
	}
	l := &limitReader{r: r, left: in.max, err: in.tooLarge()}
	if f, ok := r.(*fileReader); ok {
		return &sizedLimitReader{l, f}
	}
	return l
}

// limitReader reads from r and fails with err after more than left bytes.
// It says no Len: the limit is not what the input holds, and a Len of
// the limit made schema.Documents start a 4 MiB document buffer for any
// standard input.
type limitReader struct {
	r    io.Reader
	left int64
	err  error
}

// sizedLimitReader is a limitReader of a regular file, which passes the
// file's Len on (see fileReader).
type sizedLimitReader struct {
	*limitReader
	f *fileReader
}

// Len is what the file has left to read, within the limit.
func (l *sizedLimitReader) Len() int {
	return min(l.f.Len(), int(max(l.left+1, 0)))
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.err
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return 0, l.err
	}
	return n, err
}
