package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/schema"
)

// docText is the text a document was read from: the YAML document (or
// the whole JSON stream) holding it, for locating its fields.
type docText struct {
	data []byte
	// line is the line of the file where data starts.
	line int
	// first is the index of the first document read from data (the items
	// of a List share one text).
	first int
}

// docEvent is one document of a file in stream order: a document that
// could be read (doc), or the error of one that could not (err).
type docEvent struct {
	doc  crdschema.Document
	text *docText
	err  *schema.InputError
}

// streamFile reads the documents of the file name ("-" for standard input)
// one at a time and hands each to visit, in stream order, so that memory
// holds one document at a time: a YAML stream is split at its "---" lines
// as it is read, and each part is read as crdschema.ReadDocuments reads
// it; a JSON stream (the input starts with '{') is read whole. It stops at
// visit's first error and returns it; an input that cannot be opened or
// read is a *schema.InputError.
func (in *inputs) streamFile(name string, visit func(docEvent) error) error {
	return in.streamParts(name, nil, visit)
}

// streamParts is streamFile where only the parts of a YAML stream whose
// text want accepts are read (nil: every part); a part left unread is not
// visited, and counts as one document unless it is blank or comments.
func (in *inputs) streamParts(name string, want func([]byte) bool, visit func(docEvent) error) error {
	r, closeFn, err := in.open(name)
	if err != nil {
		return &schema.InputError{File: name, Err: err}
	}
	defer closeFn()
	br := bufio.NewReaderSize(r, 64<<10)
	if startsJSON(br) {
		data, err := io.ReadAll(br)
		if err != nil {
			return &schema.InputError{File: name, Err: err}
		}
		s := &splitter{name: name, visit: visit}
		return s.emit(data, 1, false)
	}
	s := &splitter{name: name, visit: visit, want: want}
	return s.yaml(br)
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
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && in.max > 0 && st.Size() > in.max {
		f.Close()
		return nil, nil, in.tooLarge()
	}
	return in.limit(f), func() { f.Close() }, nil
}

func (in *inputs) limit(r io.Reader) io.Reader {
	if in.max <= 0 {
		return r
	}
	return &limitReader{r: r, left: in.max, err: in.tooLarge()}
}

// limitReader reads from r and fails with err after more than left bytes.
type limitReader struct {
	r    io.Reader
	left int64
	err  error
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

// startsJSON reports whether the input's first character that is not a
// blank is '{': it is then a stream of JSON values, as crdschema's reader
// (and kubectl's) decides.
func startsJSON(br *bufio.Reader) bool {
	for n := 512; ; n *= 2 {
		b, err := br.Peek(n)
		t := bytes.TrimLeftFunc(b, unicode.IsSpace)
		// A blank rune cut at the end of the window needs a wider one.
		if len(t) >= utf8.UTFMax || (len(t) > 0 && err != nil) {
			return t[0] == '{'
		}
		if err != nil {
			return false
		}
	}
}

// splitter splits one YAML stream into its documents as it is read.
type splitter struct {
	name  string
	visit func(docEvent) error
	// want, when set, says which parts to read.
	want func([]byte) bool
	// index is the number of the next document of the file.
	index int
}

// yaml splits the stream at lines that start with "---" followed by
// nothing but blanks or a comment, as crdschema.ReadDocuments does, and
// reads each part on its own.
func (s *splitter) yaml(br *bufio.Reader) error {
	var chunk []byte
	start, line := 1, 0
	for {
		lineStart := len(chunk)
		var err error
		chunk, err = appendLine(chunk, br)
		if len(chunk) > lineStart {
			line++
			if isSeparator(chunk[lineStart:]) {
				if verr := s.emit(chunk[:lineStart], start, true); verr != nil {
					return verr
				}
				chunk, start = chunk[:0], line+1
			}
		}
		if err == io.EOF {
			return s.emit(chunk, start, true)
		}
		if err != nil {
			return &schema.InputError{File: s.name, Err: err}
		}
	}
}

// appendLine appends the next line of br (with its newline) to buf.
func appendLine(buf []byte, br *bufio.Reader) ([]byte, error) {
	for {
		part, err := br.ReadSlice('\n')
		buf = append(buf, part...)
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

func isSeparator(l []byte) bool {
	if !bytes.HasPrefix(l, []byte("---")) {
		return false
	}
	rest := bytes.TrimSpace(l[3:])
	return len(rest) == 0 || rest[0] == '#'
}

// emit reads the documents of data, which starts at line start of the
// file, and visits them. A YAML part is read behind a "---" line of its
// own, so that a part starting with '{' stays YAML as in the whole stream.
func (s *splitter) emit(data []byte, start int, yamlPart bool) error {
	if len(data) == 0 {
		return nil
	}
	if s.want != nil && yamlPart && !s.want(data) {
		// Numbered as one document when it has one (a List left unread
		// would number more: the first pass only needs the CRDs).
		if hasContent(data) {
			s.index++
		}
		return nil
	}
	input, shift := data, start-1
	if yamlPart {
		input = append([]byte("---\n"), data...)
		shift--
	}
	docs, err := crdschema.ReadDocuments(s.name, input)
	text := &docText{data: data, line: start, first: s.index}
	events, err := s.events(docs, err, shift, text)
	if err != nil {
		return err
	}
	for _, ev := range events {
		if err := s.visit(ev); err != nil {
			return err
		}
	}
	return nil
}

// events puts the documents and errors of one part in order, numbered and
// lined as in the whole file.
func (s *splitter) events(docs []crdschema.Document, err error, shift int, text *docText) ([]docEvent, error) {
	var errs schema.InputErrors
	var one *schema.InputError
	switch {
	case err == nil:
	case errors.As(err, &errs):
	case errors.As(err, &one):
		one.Line += shift
		return nil, one // a JSON stream broken after its first value
	default:
		return nil, err
	}
	base := s.index
	events := make([]docEvent, 0, len(docs)+len(errs))
	for _, d := range docs {
		d.Index += base
		d.Line += shift
		events = append(events, docEvent{doc: d, text: text})
	}
	for _, e := range errs {
		events = append(events, docEvent{err: renumber(e, base, shift), text: text})
	}
	sort.SliceStable(events, func(i, j int) bool { return events[i].index() < events[j].index() })
	s.index += len(events)
	return events, nil
}

func (ev docEvent) index() int {
	if ev.err != nil {
		n, _ := documentNumber(ev.err)
		return n
	}
	return ev.doc.Index
}

// documentNumber reads N of an unreadable document's "document N: ..."
// error.
func documentNumber(e *schema.InputError) (int, error) {
	rest, ok := strings.CutPrefix(e.Err.Error(), "document ")
	if !ok {
		return 0, errors.New("no document number")
	}
	num, _, _ := strings.Cut(rest, ":")
	return strconv.Atoi(num)
}

// renumber moves the error of a document read in a part of the file to
// its number and line in the whole file.
func renumber(e *schema.InputError, base, shift int) *schema.InputError {
	c := *e
	if c.Line > 0 {
		c.Line += shift
	}
	n, err := documentNumber(e)
	if inner := errors.Unwrap(e.Err); err == nil && inner != nil {
		c.Err = fmt.Errorf("document %d: %w", n+base, inner)
	}
	return &c
}
