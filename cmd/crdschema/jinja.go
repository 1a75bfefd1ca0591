package main

import "bytes"

// renderedJinja returns the text Jinja renders from text when its only
// Jinja markup is raw blocks and comments: documentation sites built with
// mkdocs-macros wrap a YAML snippet in {% raw %} ... {% endraw %} so that
// Jinja leaves the snippet's own Go templates ({{ .value }}) alone, and
// such a snippet, once rendered, is exactly the YAML its readers copy.
// text may be one document of a file wrapped whole: a raw block may start
// in an earlier document (text holds its {% endraw %} before any other
// markup) or end in a later one (text holds no {% endraw %}).
//
// The tags and comments are blanked with spaces (newlines kept), so every
// line and column stays where it was; whitespace control ({%- ... -%})
// is not applied, which changes only blank space. ok is false when text
// holds no raw tag or comment, and when other Jinja markup stands outside
// the raw blocks (a statement such as if, for or include, an expression
// {{ ... }}): what that renders depends on the data it is rendered with.
func renderedJinja(text []byte) (out []byte, ok bool) {
	r := jinjaRenderer{out: bytes.Clone(text)}
	// A document whose first statement ends a raw block is inside one
	// from its start.
	if i := bytes.Index(r.out, []byte("{%")); i >= 0 {
		tag, _ := jinjaTag(r.out[i:])
		r.inRaw = tag == "endraw"
	}
	for i := 0; i < len(r.out); {
		j := bytes.IndexByte(r.out[i:], '{')
		if j < 0 || i+j+1 >= len(r.out) {
			break
		}
		n := r.markup(i + j)
		if n < 0 {
			return nil, false
		}
		i += j + n
	}
	if !r.found {
		return nil, false
	}
	return r.out, true
}

// jinjaRenderer blanks the raw tags and comments of a text.
type jinjaRenderer struct {
	out          []byte
	found, inRaw bool
}

// markup reads what starts at out[i] ("{"): it blanks a raw tag or a
// comment and returns the length read; -1 for markup whose output is not
// known (or that does not end).
func (r *jinjaRenderer) markup(i int) int {
	switch r.out[i+1] {
	case '{':
		if !r.inRaw {
			return -1 // an expression
		}
	case '#':
		if !r.inRaw {
			end := bytes.Index(r.out[i+2:], []byte("#}")) + 2 // "{#}" does not end
			if end < 2 {
				return -1
			}
			blank(r.out[i : i+end+2])
			r.found = true
			return end + 2
		}
	case '%':
		tag, end := jinjaTag(r.out[i:])
		switch {
		case end < 0:
			return -1
		case tag == "raw" && !r.inRaw, tag == "endraw" && r.inRaw:
			r.inRaw = tag == "raw"
			blank(r.out[i : i+end])
			r.found = true
			return end
		case !r.inRaw:
			return -1 // a statement
		}
	}
	return 1
}

// jinjaTag reads the statement tag that s starts with ("{%"): its name
// and arguments without the whitespace-control marks, and its length; ""
// and -1 when it does not end.
func jinjaTag(s []byte) (string, int) {
	end := bytes.Index(s[2:], []byte("%}")) + 2 // "{%}" opens and does not end
	if end < 2 {
		return "", -1
	}
	inner := bytes.Trim(s[2:end], "-+")
	return string(bytes.Join(bytes.Fields(inner), []byte(" "))), end + 2
}

// blank replaces every byte of b but newlines with a space.
func blank(b []byte) {
	for k, c := range b {
		if c != '\n' {
			b[k] = ' '
		}
	}
}
