package schema

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"iter"
	"slices"
	"unicode"
	"unicode/utf8"
)

// chunk is one part of an input to decode: a YAML document or a JSON
// value.
type chunk struct {
	data []byte
	line int  // 1-based line of the chunk's first line
	json bool // a JSON value, not YAML
	// borrowed marks data as the reader's buffer, reused for the next
	// chunk: it is copied before a document keeps it.
	borrowed bool
}

// whole decodes an input held in memory: a stream that starts with '{'
// as its JSON values (read by jsonfast when r.fast and it can), anything
// else as its YAML documents. A JSON stream broken after its first value
// is an *InputError, and nothing is decoded.
func (r *docReader) whole(data []byte) *InputError {
	trimmed := bytes.TrimLeftFunc(data, unicode.IsSpace)
	if !bytes.HasPrefix(trimmed, []byte("{")) {
		for _, c := range splitStream(data) {
			r.chunk(c)
		}
		return nil
	}
	if r.fast && r.fastJSONStream(data) {
		return nil
	}
	js, rest, restLine, err := splitJSON(data)
	switch {
	case err == nil:
	case len(js) > 1:
		return &InputError{File: r.name, Line: restLine, Err: err}
	}
	for _, c := range js {
		r.chunk(c)
	}
	// Ambiguous (e.g. a YAML flow mapping): the rest is read as YAML.
	for _, c := range splitStream(rest) {
		c.line += restLine - 1
		r.chunk(c)
	}
	return nil
}

// splitJSON reads a stream of JSON values. On error it returns the values
// read so far, the unread rest of the input and the rest's first line.
func splitJSON(data []byte) ([]chunk, []byte, int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []chunk
	var consumed int64
	// Lines are counted incrementally: counting from the start for every
	// value would make long streams quadratic.
	line, counted := 1, int64(0)
	lineAt := func(off int64) int {
		line += bytes.Count(data[counted:off], []byte("\n"))
		counted = off
		return line
	}
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return out, nil, 0, nil
		}
		if err != nil {
			rest := data[consumed:]
			// Skip blanks up to and including the first newline.
			i := 0
			for i < len(rest) && unicode.IsSpace(rune(rest[i])) {
				i++
				if rest[i-1] == '\n' {
					break
				}
			}
			return out, rest[i:], lineAt(consumed + int64(i)), err
		}
		off := dec.InputOffset()
		start := off - int64(len(raw))
		out = append(out, chunk{data: raw, line: lineAt(start), json: true})
		consumed = off
	}
}

// SplitYAML yields the documents of the YAML stream data as
// ReadDocuments splits it, without decoding them: the line each starts at
// (1-based) and its text, part of data. A stream is split at the lines
// that start with "---" followed by nothing but blanks or a comment, as
// kubectl's YAML reader splits it; a document may hold nothing but blanks
// and comments (the readers skip it, not numbering it). It is for callers
// that look at a stream's documents before deciding which to read (a JSON
// stream, one starting with '{', is not split: see ReadDocuments).
func SplitYAML(data []byte) iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		for _, c := range splitStream(data) {
			if !yield(c.line, c.data) {
				return
			}
		}
	}
}

// splitStream splits a YAML stream at lines that start with "---" followed
// by nothing but blanks or a comment, as kubectl's YAML reader does. Only
// the lines starting with "---" are looked at (lineWithDocStart), and the
// lines skipped are counted in one pass.
func splitStream(data []byte) []chunk {
	var out []chunk
	start, startLine := 0, 1
	// line is the number of the line starting at pos.
	for pos, line := 0, 1; pos < len(data); line++ {
		at := lineWithDocStart(data, pos)
		if at < 0 {
			break
		}
		line += bytes.Count(data[pos:at], newline)
		pos = at
		next := len(data)
		if end := bytes.IndexByte(data[pos:], '\n'); end >= 0 {
			next = pos + end + 1
		}
		if isSeparator(data[pos:next]) {
			if pos > start {
				out = append(out, chunk{data: data[start:pos], line: startLine})
			}
			start, startLine = next, line+1
		}
		pos = next
	}
	if start < len(data) {
		out = append(out, chunk{data: data[start:], line: startLine})
	}
	return out
}

// lineWithDocStart returns where the first line at or after pos (the
// start of a line) that starts with "---" starts, or -1. It searches for
// "---" rather than "\n---": '-' is three times rarer than '\n' in CRD
// files, and each occurrence of the first byte costs a call.
func lineWithDocStart(data []byte, pos int) int {
	for from := pos; ; {
		i := bytes.Index(data[from:], docStart)
		if i < 0 {
			return -1
		}
		at := from + i
		if at == pos || data[at-1] == '\n' {
			return at
		}
		from = at + 1
	}
}

var (
	docStart = []byte("---")
	newline  = []byte("\n")
)

// isSeparator reports whether a line separates two YAML documents.
func isSeparator(l []byte) bool {
	if !bytes.HasPrefix(l, docStart) {
		return false
	}
	rest := bytes.TrimSpace(l[3:])
	return len(rest) == 0 || rest[0] == '#'
}

// stream reads in and visits its documents as they are decoded, in
// order, until visit returns false: a YAML stream one document at a time,
// as splitStream splits it whole; a JSON stream (or an input whose first
// 64 KiB are blanks) read whole, as whole reads it. A failure of the
// input is visited last, with a zero Document.
func (r *docReader) stream(in io.Reader, visit func(Document, *InputError) bool) {
	n := inputLen(in)
	size := readBufferSize
	if n >= 0 {
		size = min(size, max(n+1, 512))
	}
	br := bufio.NewReaderSize(in, size)
	if json, known := startsJSON(br); json || !known {
		data, err := io.ReadAll(br)
		if err != nil {
			visit(Document{}, &InputError{File: r.name, Err: err})
			return
		}
		if ierr := r.whole(data); ierr != nil {
			visit(Document{}, ierr)
			return
		}
		r.visitOut(visit)
		return
	}
	s := &yamlSplitter{br: br}
	if n > 0 {
		s.buf = make([]byte, 0, min(n, maxDocumentHint))
	}
	for {
		c, err := s.next()
		if err == io.EOF {
			return
		}
		if err != nil {
			visit(Document{}, &InputError{File: r.name, Err: err})
			return
		}
		r.out = r.out[:0]
		r.chunk(c)
		if !r.visitOut(visit) {
			return
		}
	}
}

// inputLen is what the input says it holds (a Len method, as
// bytes.Reader has), -1 when it says nothing. It only sizes buffers: a
// Len that turns out wrong means more reads or more growth, not another
// answer.
func inputLen(in io.Reader) int {
	if l, ok := in.(interface{ Len() int }); ok {
		return max(l.Len(), 0)
	}
	return -1
}

// Buffer sizes of stream: it reads through readBufferSize bytes, or less
// for an input that says it holds less; the document buffer starts at
// the input's length up to maxDocumentHint (a larger document grows it
// by doubling). Most files linted are a few KiB (the command read the
// 1,347 corpus example files through 64 KiB each), and a CRD file is
// often one document of a few MB, which growing from nothing copied
// several times (issue 32).
const (
	readBufferSize  = 64 << 10
	maxDocumentHint = 4 << 20
)

// yamlSplitter splits a YAML stream as it is read, as splitStream splits
// it whole.
type yamlSplitter struct {
	br *bufio.Reader
	// line counts the lines read so far; eof is set after the last.
	line int
	eof  bool
	// buf is the document being read, reused: each chunk borrows it.
	buf []byte
}

// next reads the next YAML document, up to a separator line or the end
// of the stream; empty documents are not handed out.
func (s *yamlSplitter) next() (chunk, error) {
	for !s.eof {
		s.buf = s.buf[:0]
		start := s.line + 1
		for {
			lineStart := len(s.buf)
			var err error
			s.buf, err = appendLine(s.buf, s.br)
			if len(s.buf) > lineStart {
				s.line++
				if isSeparator(s.buf[lineStart:]) {
					s.buf = s.buf[:lineStart]
					break
				}
			}
			if err == io.EOF {
				s.eof = true
				break
			}
			if err != nil {
				return chunk{}, err
			}
		}
		if len(s.buf) > 0 {
			// The last document keeps the buffer, no longer reused,
			// unless most of it would be kept for nothing.
			keep := s.eof && cap(s.buf) <= 2*len(s.buf)
			return chunk{data: s.buf, line: start, borrowed: !keep}, nil
		}
	}
	return chunk{}, io.EOF
}

// appendLine appends the next line of br (with its newline) to buf,
// doubling buf when it is full: append's own growth is 1.25× for large
// slices, which allocated and copied about five times a 2.8 MB document
// (argo-workflows' Workflow CRD) as it was read.
func appendLine(buf []byte, br *bufio.Reader) ([]byte, error) {
	for {
		part, err := br.ReadSlice('\n')
		if len(buf)+len(part) > cap(buf) {
			buf = slices.Grow(buf, max(len(part), cap(buf)))
		}
		buf = append(buf, part...)
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

// startsJSON reports whether the input's first character that is not a
// blank is '{', as ReadDocuments decides between JSON and YAML. known is
// false when the buffer holds only blanks and the input goes on: the
// caller then reads it whole.
func startsJSON(br *bufio.Reader) (json, known bool) {
	for n := 512; ; n *= 2 {
		b, err := br.Peek(n)
		t := bytes.TrimLeftFunc(b, unicode.IsSpace)
		// A blank rune cut at the end of the window needs a wider one.
		if len(t) >= utf8.UTFMax || (len(t) > 0 && err != nil) {
			return t[0] == '{', true
		}
		switch {
		case err == bufio.ErrBufferFull:
			return false, false
		case err != nil:
			return false, true
		}
	}
}

// passOver counts, without decoding it, a YAML chunk that cannot hold a
// document of r.kinds, and reports whether it did. It passes over only
// what is surely one document that is not null: text whose first line of
// content starts a block mapping with a plain word as its key ("apiVersion:
// v1"), so that the chunk is one mapping or one unreadable document, both
// numbered as decoding would number them. It decodes (returns false)
// whenever the text could spell one of the kinds or a List, could spell
// anything through an escape or a tag, or has directives, document end
// markers or a line starting "---" (which, when it is no separator, starts
// a document holding content on the marker's line). Counting lines of
// content instead was wrong twice (fuzzing found "~" then ": ", and
// "--- &a" then "~": null documents, which are not numbered, on two lines).
func (r *docReader) passOver(c chunk) bool {
	if c.json || r.mayHoldKind(c.data) {
		return false
	}
	first, markers := firstContent(c.data)
	switch {
	case markers:
		return false
	case first == nil:
		// Blanks and comments are no document, unless a character the
		// YAML parser refuses makes the chunk an unreadable document,
		// which is numbered: only plain ASCII text without tabs is
		// passed over (a tab that starts a line of blanks or a comment
		// cannot start any token).
		return plainASCII(c.data)
	case !startsBlockMapping(first):
		return false
	}
	r.index++
	return true
}

// mayHoldKind reports whether text could spell one of r.kinds or a List,
// or anything through an escape or a tag.
func (r *docReader) mayHoldKind(text []byte) bool {
	for _, k := range r.kinds {
		if bytes.Contains(text, []byte(k)) {
			return true
		}
	}
	return bytes.Contains(text, []byte("List")) || bytes.ContainsAny(text, `\!`)
}

// firstContent returns the first line of text that is not blank or a
// comment (nil if none), and whether any line is a directive, a document
// end marker or starts with "---".
func firstContent(text []byte) (first []byte, markers bool) {
	for rest := text; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if bytes.HasPrefix(line, []byte("%")) || bytes.HasPrefix(line, []byte("...")) || bytes.HasPrefix(line, docStart) {
			return nil, true
		}
		if t := bytes.TrimSpace(line); first == nil && len(t) > 0 && t[0] != '#' {
			first = line
		}
	}
	return first, false
}

// startsBlockMapping reports whether line, at column 0, is a plain word
// (ASCII letters and digits, then also '_', '-', '.' and '/') followed by
// ':' and a space or the end of the line: the first key of a block
// mapping.
func startsBlockMapping(line []byte) bool {
	line = bytes.TrimSuffix(line, []byte("\r"))
	key, rest, ok := bytes.Cut(line, []byte(":"))
	if !ok || len(key) == 0 || !isWordStart(key[0]) || (len(rest) > 0 && rest[0] != ' ') {
		return false
	}
	for _, b := range key[1:] {
		if !isWordStart(b) && b != '_' && b != '-' && b != '.' && b != '/' {
			return false
		}
	}
	return true
}

// isWordStart reports whether b is an ASCII letter or digit.
func isWordStart(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// plainASCII reports whether text holds only printable ASCII and line
// breaks: characters the YAML parser reads in blank lines and comments
// wherever they stand (a tab it refuses at the start of a line).
func plainASCII(text []byte) bool {
	for _, b := range text {
		if (b < 0x20 && b != '\n' && b != '\r') || b > 0x7e {
			return false
		}
	}
	return true
}

// wanted reports whether a document is of one of r.kinds (any document,
// without kinds).
func (r *docReader) wanted(obj map[string]any) bool {
	if len(r.kinds) == 0 {
		return true
	}
	kind, _ := obj["kind"].(string)
	return slices.Contains(r.kinds, kind)
}
