package crdfake

import (
	"bytes"
	"slices"
	"strings"
	"unicode"

	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	kversion "k8s.io/apimachinery/pkg/version"

	"github.com/crdschema/crdschema/schema"
)

// Reading ahead: what the REST mapper and the routing need of a CRD (its
// names), read from the text of a YAML file without decoding the CRDs,
// so that a set of many large CRDs costs its size in bytes scanned, and
// each CRD is decoded on the first request of its kind. The scan reads
// the block-style YAML that generators (controller-gen, kubectl, helm)
// write; at anything else (JSON, flow style at the levels it reads,
// anchors, tags, quoting it does not follow, duplicate keys, Lists,
// v1beta1 CRDs) it gives up and the file is decoded whole, as before.
// What it reads is compared with the decoded CRD when the kind is first
// requested (kind.load).

// names are what the fake knows of a kind before its CRD is decoded.
type names struct {
	gk         kschema.GroupKind
	plural     string
	singular   string
	listKind   string
	namespaced bool
	// served are the served versions, highest priority first (the REST
	// mapper's preferred version first).
	served []string
}

// equal reports whether n and o name a kind alike.
func (n *names) equal(o *names) bool {
	return n.gk == o.gk && n.plural == o.plural && n.singular == o.singular &&
		n.listKind == o.listKind && n.namespaced == o.namespaced && slices.Equal(n.served, o.served)
}

// aheadDoc is a CRD found by the scan: its names, its document's text
// (the chunk the file's reader decodes), the document's number and line.
type aheadDoc struct {
	names
	text  []byte
	index int
	line  int
}

// readAhead finds the CRDs of a YAML file and their names without
// decoding them; ok is false when the scan cannot be sure of the file,
// which is then decoded whole.
func readAhead(data []byte) (found []aheadDoc, ok bool) {
	if t := bytes.TrimLeftFunc(data, unicode.IsSpace); len(t) > 0 && t[0] == '{' {
		return nil, false // a JSON stream
	}
	if otherBreaks(data) {
		return nil, false
	}
	index := 0
	for line, text := range schema.SplitYAML(data) {
		doc, isCRD, empty, ok := scanDocument(text)
		if !ok {
			return nil, false
		}
		if empty {
			continue // not numbered, as the reader numbers documents
		}
		if isCRD {
			doc.text, doc.index, doc.line = text, index, line
			found = append(found, doc)
		}
		index++
	}
	return found, true
}

// otherBreaks reports whether data holds a line break other than "\n"
// and "\r\n": YAML also breaks lines at a lone "\r", NEL, LS and PS,
// which the scan, reading lines as the documents reader splits them,
// would not see.
func otherBreaks(data []byte) bool {
	for _, b := range []string{"\u0085", "\u2028", "\u2029"} {
		if bytes.Contains(data, []byte(b)) {
			return true
		}
	}
	for i := bytes.IndexByte(data, '\r'); i >= 0; {
		if i+1 == len(data) || data[i+1] != '\n' {
			return true
		}
		next := bytes.IndexByte(data[i+1:], '\r')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// scanDocument reads one document: empty when it holds nothing but blanks
// and comments; isCRD with its names when it is an
// apiextensions.k8s.io/v1 CustomResourceDefinition; ok false when the
// scan cannot be sure (see readAhead).
func scanDocument(data []byte) (doc aheadDoc, isCRD, empty, ok bool) {
	s := &scanner{data: data}
	if _, _, more := s.peek(); !more {
		return doc, false, true, s.ok()
	}
	var apiVersion, kind string
	spec := &specScan{}
	s.mapping(0, func(key, value []byte, indent int) {
		switch string(key) {
		case "apiVersion":
			apiVersion = s.str(value, indent)
		case "kind":
			kind = s.str(value, indent)
		case "spec":
			if kind != "" && kind != "CustomResourceDefinition" {
				s.skip(value, indent)
				break
			}
			s.block(value, indent, spec.read(s))
		default:
			s.skip(value, indent)
		}
	})
	if !s.ok() {
		return doc, false, false, false
	}
	switch {
	case kind == "CustomResourceDefinition" && apiVersion == "apiextensions.k8s.io/v1":
		doc.names, ok = spec.names()
		return doc, true, false, ok
	case kind == "CustomResourceDefinition" || strings.HasSuffix(kind, "List"):
		return doc, false, false, false // v1beta1, or a List of items
	}
	return doc, false, false, true
}

// specScan collects the spec's fields the names come from.
type specScan struct {
	group, kind, plural, singular, listKind, scope string
	versions                                       []versionScan
}

type versionScan struct {
	name   string
	served bool
}

// read is the handler of the spec's mapping.
func (sp *specScan) read(s *scanner) func([]byte, []byte, int) {
	return func(key, value []byte, indent int) {
		switch string(key) {
		case "group":
			sp.group = s.str(value, indent)
		case "scope":
			sp.scope = s.str(value, indent)
		case "names":
			s.block(value, indent, func(key, value []byte, indent int) {
				switch string(key) {
				case "kind":
					sp.kind = s.str(value, indent)
				case "plural":
					sp.plural = s.str(value, indent)
				case "singular":
					sp.singular = s.str(value, indent)
				case "listKind":
					sp.listKind = s.str(value, indent)
				default:
					s.skip(value, indent)
				}
			})
		case "versions":
			sp.readVersions(s, value, indent)
		default:
			s.skip(value, indent)
		}
	}
}

// readVersions reads the versions' names and served flags.
func (sp *specScan) readVersions(s *scanner, value []byte, indent int) {
	s.sequence(value, indent, func(itemIndent int) {
		v := versionScan{}
		s.mapping(itemIndent, func(key, value []byte, indent int) {
			switch string(key) {
			case "name":
				v.name = s.str(value, indent)
			case "served":
				v.served = s.boolean(value, indent)
			default:
				s.skip(value, indent)
			}
		})
		sp.versions = append(sp.versions, v)
	})
}

// names are the kind's names as the decoded CRD has them (names
// defaulted as the apiserver defaults them); ok is false for a CRD
// without versions, whose names the fake takes from none.
func (sp *specScan) names() (names, bool) {
	n := names{
		gk:       kschema.GroupKind{Group: sp.group, Kind: sp.kind},
		plural:   sp.plural,
		singular: sp.singular, listKind: sp.listKind,
		namespaced: sp.scope != "Cluster",
	}
	if n.singular == "" {
		n.singular = strings.ToLower(sp.kind)
	}
	if n.listKind == "" && sp.kind != "" {
		n.listKind = sp.kind + "List"
	}
	for _, v := range sp.versions {
		if v.served {
			n.served = append(n.served, v.name)
		}
	}
	sort := func(a, b string) int { return -kversion.CompareKubeAwareVersionStrings(a, b) }
	slices.SortStableFunc(n.served, sort)
	return n, len(sp.versions) > 0
}

// scanner reads the block structure of a YAML document line by line. It
// stops at the first thing it does not follow (failed set), after which
// every method does nothing.
type scanner struct {
	data   []byte
	pos    int // offset of the next line not yet consumed
	failed bool
	// inline, when set, is the rest of a sequence item's line ("- a: b"
	// gives "a: b"), read as a line indented at inlineIndent.
	inline       []byte
	inlineIndent int
}

func (s *scanner) ok() bool { return !s.failed }

func (s *scanner) fail() { s.failed = true }

// peek returns the next line holding content (blank and comment lines
// are passed over and consumed): its indentation and its text without
// the indentation and the line end; more is false at the end or after a
// failure.
func (s *scanner) peek() (indent int, text []byte, more bool) {
	if s.failed {
		return 0, nil, false
	}
	if s.inline != nil {
		return s.inlineIndent, s.inline, true
	}
	for s.pos < len(s.data) {
		next := len(s.data)
		if end := bytes.IndexByte(s.data[s.pos:], '\n'); end >= 0 {
			next = s.pos + end + 1
		}
		line := bytes.TrimRight(s.data[s.pos:next], " \r\n")
		body := bytes.TrimLeft(line, " ")
		if len(body) == 0 || body[0] == '#' {
			s.pos = next
			continue
		}
		return len(line) - len(body), body, true
	}
	return 0, nil, false
}

// consume moves past the line peek returned.
func (s *scanner) consume() {
	if s.inline != nil {
		s.inline = nil
		return
	}
	if end := bytes.IndexByte(s.data[s.pos:], '\n'); end >= 0 {
		s.pos += end + 1
	} else {
		s.pos = len(s.data)
	}
}

// mapping reads a block mapping whose keys are at indent, handing each
// key, its value's text on the key's line ("" for a block below) and the
// key's indentation to handle, which must consume the value. It stops at
// a line indented less; a line indented more, a line that is not a
// plain key, and a key given twice fail.
func (s *scanner) mapping(indent int, handle func(key, value []byte, indent int)) {
	var seenKeys [16][]byte
	seen := seenKeys[:0]
	for {
		at, text, more := s.peek()
		if !more || at < indent {
			return
		}
		key, value, ok := splitKey(text)
		if at > indent || !ok || slices.ContainsFunc(seen, func(k []byte) bool { return bytes.Equal(k, key) }) {
			s.fail()
			return
		}
		seen = append(seen, key)
		s.consume()
		handle(key, value, at)
	}
}

// splitKey splits "key: value # comment" into the key and the value's
// text; ok is false for anything but a key of letters, digits and "_-./",
// plain or quoted (without escapes). A line that is not a key (a tab,
// a directive, a document marker) is not ok.
func splitKey(text []byte) (key, value []byte, ok bool) {
	i, j := 0, 0
	if len(text) > 0 && (text[0] == '"' || text[0] == '\'') {
		i, j = 1, 1
	}
	for j < len(text) && isKeyByte(text[j]) {
		j++
	}
	if j == i {
		return nil, nil, false
	}
	key = text[i:j]
	if i == 1 {
		if j == len(text) || text[j] != text[0] {
			return nil, nil, false
		}
		j++
	}
	if j == len(text) || text[j] != ':' {
		return nil, nil, false
	}
	rest := text[j+1:]
	if len(rest) > 0 && rest[0] != ' ' {
		return nil, nil, false
	}
	rest = bytes.TrimLeft(rest, " ")
	if len(rest) > 0 && rest[0] == '#' {
		rest = nil
	}
	return key, rest, true
}

func isKeyByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.' || b == '/'
}

// block reads the block mapping below a key at indent (value must be
// empty: a flow mapping is not followed).
func (s *scanner) block(value []byte, indent int, handle func([]byte, []byte, int)) {
	if len(value) > 0 {
		s.fail()
		return
	}
	at, _, more := s.peek()
	if !more || at <= indent {
		s.fail() // a null value
		return
	}
	s.mapping(at, handle)
}

// sequence reads the block sequence below a key at indent, calling item
// with the indentation of each item's mapping, which item reads.
func (s *scanner) sequence(value []byte, indent int, item func(itemIndent int)) {
	at, _, more := s.peek()
	if len(value) > 0 || !more || at < indent {
		s.fail()
		return
	}
	for {
		dash, text, more := s.peek()
		if !more || dash != at || !isItem(text) {
			if more && dash > indent {
				s.fail() // a line within the sequence that is no item
			}
			return
		}
		rest := bytes.TrimLeft(text[1:], " ")
		if len(rest) == 0 || rest[0] == '#' || rest[0] == '-' {
			s.fail() // an item not starting with a key on its line
			return
		}
		s.consume()
		s.inline, s.inlineIndent = rest, dash+len(text)-len(rest)
		item(s.inlineIndent)
		if s.inline != nil {
			s.fail()
			return
		}
	}
}

// isItem reports whether a line's text starts a sequence item.
func isItem(text []byte) bool {
	return len(text) > 0 && text[0] == '-' && (len(text) == 1 || text[1] == ' ')
}

// skip passes over the value of a key at indent: its text on the key's
// line, which must end there, and every line below it (indented more, or
// a sequence's item at the key's indentation).
func (s *scanner) skip(value []byte, indent int) {
	if !endsOnLine(value) {
		s.fail()
		return
	}
	for {
		at, text, more := s.peek()
		if !more || at < indent || (at == indent && !isItem(text)) {
			return
		}
		s.consume()
	}
}

// endsOnLine reports whether a value's text on its key's line is a whole
// value or the start of a block below (a block scalar's header, or
// nothing): not a quoted scalar or a flow collection continued on the
// next lines, and no anchor, alias or tag.
func endsOnLine(value []byte) bool {
	if len(value) == 0 {
		return true
	}
	switch value[0] {
	case '&', '*', '!', '?', '@', '`', '%':
		return false
	case '"', '\'':
		_, ok := quoted(value)
		return ok
	case '{', '[':
		return flowEnds(value)
	}
	return true
}

// flowEnds reports whether a flow collection closes on its line, quotes
// taken into account.
func flowEnds(value []byte) bool {
	depth := 0
	for i := 0; i < len(value); i++ {
		switch c := value[i]; c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"', '\'':
			end := bytes.IndexByte(value[i+1:], c)
			if end < 0 || (c == '"' && bytes.IndexByte(value[i+1:i+1+end], '\\') >= 0) {
				return false
			}
			i += end + 1
		}
		if depth == 0 {
			return true
		}
	}
	return false
}

// quoted is the string of a quoted scalar that ends on its line with
// nothing but a comment after it; ok is false for escapes (a backslash,
// ” in single quotes), which the scan does not read.
func quoted(value []byte) (string, bool) {
	q := value[0]
	end := bytes.IndexByte(value[1:], q)
	if end < 0 {
		return "", false
	}
	inner, after := value[1:1+end], bytes.TrimLeft(value[2+end:], " ")
	if bytes.IndexByte(inner, '\\') >= 0 || (len(after) > 0 && after[0] != '#') {
		return "", false // an escape, '' in single quotes, or more after the quote
	}
	return string(inner), true
}

// yaml11Words are the plain scalars YAML 1.1 reads as booleans or null.
var yaml11Words = []string{
	"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
	"true", "True", "TRUE", "false", "False", "FALSE",
	"on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
}

// str reads a string scalar on the key's line: a plain scalar of letters,
// digits and "._/-" that starts with a letter and is no YAML 1.1 word, or
// a quoted one without escapes. A key without a value, or followed by
// lines indented more (a plain scalar continued), fails.
func (s *scanner) str(value []byte, indent int) string {
	var out string
	ok := len(value) > 0
	if ok && (value[0] == '"' || value[0] == '\'') {
		out, ok = quoted(value)
	} else if ok {
		out, ok = plain(value)
	}
	if at, _, more := s.peek(); !ok || (more && at > indent) {
		s.fail()
		return ""
	}
	return out
}

// plain is a plain scalar's string, ok only when it is surely a string.
func plain(value []byte) (string, bool) {
	if i := bytes.Index(value, []byte(" #")); i >= 0 {
		value = bytes.TrimRight(value[:i], " ")
	}
	if len(value) == 0 || !(value[0] >= 'a' && value[0] <= 'z' || value[0] >= 'A' && value[0] <= 'Z') {
		return "", false
	}
	for _, b := range value {
		if !isKeyByte(b) {
			return "", false
		}
	}
	v := string(value)
	return v, !slices.Contains(yaml11Words, v)
}

// boolean reads true or false on the key's line.
func (s *scanner) boolean(value []byte, indent int) bool {
	if i := bytes.Index(value, []byte(" #")); i >= 0 {
		value = bytes.TrimRight(value[:i], " ")
	}
	v, ok := string(value) == "true", string(value) == "true" || string(value) == "false"
	if at, _, more := s.peek(); !ok || (more && at > indent) {
		s.fail()
		return false
	}
	return v
}
