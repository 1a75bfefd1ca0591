package serving

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/crdschema/crdschema/structural"
)

// objectMetaJSON holds the definitions the apiserver publishes beside a
// CRD's kinds for ObjectMeta and what it references (ManagedFieldsEntry,
// OwnerReference, Time, FieldsV1), as a 1.37 apiserver publishes them at
// /openapi/v3/apis/GROUP/VERSION; the conformance module checks it
// against the apiserver's builder.
//
//go:embed objectmeta.json
var objectMetaJSON []byte

// Explanation is what `kubectl explain` prints for a kind or one of its
// fields, from the OpenAPI v3 the apiserver publishes for a served
// version, and what the CRD says of those fields beyond it.
type Explanation struct {
	// Text is kubectl explain's plaintext output (kubectl 1.27 and later,
	// explain v2), byte for byte.
	Text string `json:"text"`
	// Fields are the facts of the explained field (first) and of the
	// fields listed under it (its children, or with recursive all its
	// descendants) that kubectl explain does not show, for the fields
	// that have any, in the order kubectl lists them.
	Fields []ExplainedField `json:"fields"`
}

// ExplainedField is what the CRD says of one field beyond its type and
// description: what the apiserver enforces on it and what reads it.
type ExplainedField struct {
	// Path is the field's path below the kind, dot-separated, as explain
	// takes it (array items and map values add no segment).
	Path string `json:"path"`
	// Rules are the x-kubernetes-validations (CEL) rules written on the
	// field, and those of enclosing fields whose fieldPath names it.
	Rules []ExplainedRule `json:"rules,omitempty"`
	// Immutable is set when one of those rules is self == oldSelf: once
	// set, the field cannot change.
	Immutable bool `json:"immutable,omitempty"`
	// ListType and ListMapKeys are x-kubernetes-list-type and, for a
	// map list, x-kubernetes-list-map-keys.
	ListType    string   `json:"listType,omitempty"`
	ListMapKeys []string `json:"listMapKeys,omitempty"`
	// Default is the field's default value, nil when it has none.
	Default any `json:"default,omitempty"`
	// Validations are the value validations kubectl explain leaves out,
	// by OpenAPI keyword: pattern, format, minimum, maximum,
	// exclusiveMinimum, exclusiveMaximum, multipleOf, minLength,
	// maxLength, minItems, maxItems, uniqueItems, minProperties,
	// maxProperties.
	Validations map[string]any `json:"validations,omitempty"`
	// PrinterColumns are the names of the additionalPrinterColumns whose
	// jsonPath reads the field.
	PrinterColumns []string `json:"printerColumns,omitempty"`
}

// ExplainedRule is a CEL rule and the message a violation of it gives.
type ExplainedRule struct {
	Rule              string `json:"rule"`
	Message           string `json:"message,omitempty"`
	MessageExpression string `json:"messageExpression,omitempty"`
	// On is the path of the field the rule is written on, when it is an
	// enclosing one that names this field with fieldPath.
	On string `json:"on,omitempty"`
}

// Explain explains the kind of a served version, or the field at path
// below it, as `kubectl explain KIND.PATH [--recursive]` would against a
// cluster with the CRD installed: from the OpenAPI v3 the apiserver
// publishes (OpenAPI, with ObjectMeta's definitions beside it), in
// kubectl's format and wording. The Fields say what the CRD adds, with
// columns the version's printer columns. A path that names no field is
// kubectl's error: field "LAST" does not exist, LAST the path's last
// segment. s is the version's structural schema, nil when it has none.
func Explain(r Resource, s *structural.Schema, columns []Column, path []string, recursive bool) (*Explanation, error) {
	doc, err := explainDocument(r, s)
	if err != nil {
		return nil, err
	}
	x := explainer{doc: doc, recursive: recursive}
	kind, _ := x.definitions()[modelName(r.Group, r.Version, r.Kind)].(map[string]any)
	body := x.output(kind, nil, path)
	if body == "" {
		return nil, fmt.Errorf("field %q does not exist", path[len(path)-1])
	}
	var head strings.Builder
	if r.Group != "" {
		fmt.Fprintf(&head, "GROUP:      %s\n", r.Group)
	}
	fmt.Fprintf(&head, "KIND:       %s\nVERSION:    %s\n\n", r.Kind, r.Version)
	e := &Explanation{Text: head.String() + body + "\n"}
	if s != nil {
		e.Fields = fieldFacts(s, columns, path, recursive)
	}
	return e, nil
}

// explainDocument is the published v3 document as kubectl reads it: the
// kind's definitions and ObjectMeta's, through JSON (numbers float64).
func explainDocument(r Resource, s *structural.Schema) (map[string]any, error) {
	v3, _ := OpenAPI(r, s)
	var meta map[string]any
	if err := json.Unmarshal(objectMetaJSON, &meta); err != nil {
		return nil, err
	}
	for k, v := range meta {
		v3[k] = v
	}
	data, err := json.Marshal(map[string]any{"components": map[string]any{"schemas": v3}})
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// explainer renders kubectl explain's plaintext template
// (k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl) over a
// document: each method is one of its templates, with Go templates'
// notion of truth (truthy).
type explainer struct {
	doc       map[string]any
	recursive bool
}

func (x *explainer) definitions() map[string]any {
	c, _ := x.doc["components"].(map[string]any)
	s, _ := c["schemas"].(map[string]any)
	return s
}

// resolve follows a "#/..." reference within the document; nil for any
// other value or a reference to nothing.
func (x *explainer) resolve(ref any) map[string]any {
	s, ok := ref.(string)
	if !ok || !strings.HasPrefix(s, "#") {
		return nil
	}
	cur := x.doc
	for _, k := range strings.Split(s[1:], "/") {
		if k == "" {
			continue
		}
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil
		}
		cur = next
	}
	return cur
}

// resolved is the schema a reference names, or s itself.
func (x *explainer) resolved(s map[string]any, ref string) map[string]any {
	if r := x.resolve(ref); truthy(r) {
		return r
	}
	return s
}

// output follows path from s and prints the field it reaches; "" when
// the path leads nowhere.
func (x *explainer) output(s map[string]any, history map[string]bool, path []string) string {
	ref := refOf(s)
	next := with(history, ref)
	res := x.resolved(s, ref)
	switch {
	case len(path) == 0:
		return x.describe(res)
	case ref != "" && history[ref]:
		return "" // a cycle
	}
	if props, _ := res["properties"].(map[string]any); truthy(props) && truthy(props[path[0]]) {
		sub, _ := props[path[0]].(map[string]any)
		head := ""
		if len(path) == 1 {
			head = "FIELD: " + path[0] + " <" + x.typeGuess(sub) + ">\n" + extractEnum(sub, true, -1, 0) + "\n\n"
		}
		return head + x.output(sub, map[string]bool{}, path[1:])
	}
	if items, ok := res["items"].(map[string]any); ok && truthy(items) {
		return x.output(items, next, path)
	}
	if ap := mapValues(res); ap != nil {
		return x.output(ap, next, path)
	}
	all, _ := res["allOf"].([]any)
	for _, a := range all {
		sub, _ := a.(map[string]any)
		if o := x.output(sub, next, path); o != "" {
			return o
		}
	}
	return ""
}

// describe prints the field reached: its description, external docs and
// the list of its fields.
func (x *explainer) describe(res map[string]any) string {
	d := x.description(res)
	if d == "" {
		d = "<empty>"
	}
	out := "DESCRIPTION:\n" + indent(4, wrapWords(d, 76)) + "\n"
	if e := externalDocs(res); e != "" {
		out += "\n" + e
	}
	if f := x.fieldList(res, 1, nil); f != "" {
		out += "FIELDS:\n" + f
	}
	return out
}

// description is a schema's description and those of its allOf
// entries, items and map values, one after the other.
func (x *explainer) description(s map[string]any) string {
	res := x.resolved(s, refOf(s))
	if !truthy(res) {
		return ""
	}
	out := ""
	if d := res["description"]; truthy(d) {
		out += fmt.Sprint(d) + "\n"
	}
	all, _ := res["allOf"].([]any)
	for _, a := range all {
		sub, _ := a.(map[string]any)
		out += x.description(sub)
	}
	if items, ok := res["items"].(map[string]any); ok && truthy(items) {
		out += x.description(items)
	}
	if ap := mapValues(res); ap != nil {
		out += x.description(ap)
	}
	return out
}

func externalDocs(s map[string]any) string {
	ed, _ := s["externalDocs"].(map[string]any)
	if !truthy(ed) {
		return ""
	}
	return "EXTERNAL DOCS:\n" + docsLines(ed, 4, 76)
}

// docsLines are an externalDocs' description and URL, indented.
func docsLines(ed map[string]any, in, width int) string {
	out := ""
	if d := ed["description"]; truthy(d) {
		out += indent(in, wrapWords(fmt.Sprint(d), width)) + "\n"
	}
	if u := ed["url"]; truthy(u) {
		out += indent(in, "URL: "+fmt.Sprint(u)) + "\n"
	}
	return out
}

// fieldList lists the fields of s (recursively with x.recursive), those
// of its allOf entries, items and map values, at an indentation level.
func (x *explainer) fieldList(s map[string]any, level int, history map[string]bool) string {
	ref := refOf(s)
	if ref != "" && history[ref] {
		return ""
	}
	next := with(history, ref)
	res := x.resolved(s, ref)
	var b strings.Builder
	props, _ := res["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		b.WriteString(x.fieldDetail(res, name, level))
		if x.recursive {
			sub, _ := props[name].(map[string]any)
			b.WriteString(x.fieldList(sub, level+1, next))
		}
	}
	all, _ := res["allOf"].([]any)
	for _, a := range all {
		sub, _ := a.(map[string]any)
		b.WriteString(x.fieldList(sub, level, next))
	}
	if items, ok := res["items"].(map[string]any); ok && truthy(items) {
		b.WriteString(x.fieldList(items, level, next))
	}
	if ap := mapValues(res); ap != nil {
		b.WriteString(x.fieldList(ap, level, next))
	}
	return b.String()
}

// fieldDetail is one field of parent: name, type, -required-, enum and,
// unless recursive (one line per field), description and external docs.
func (x *explainer) fieldDetail(parent map[string]any, name string, level int) string {
	in := level * 2
	props, _ := parent["properties"].(map[string]any)
	fs, _ := props[name].(map[string]any)
	out := indent(in, name) + "\t<" + x.typeGuess(fs) + ">"
	if req, _ := parent["required"].([]any); slices.Contains(req, any(name)) {
		out += " -required-"
	}
	out += extractEnum(fs, false, 4, in) + "\n"
	if x.recursive {
		return out
	}
	d := "<no description>"
	if v := fs["description"]; truthy(v) {
		d = fmt.Sprint(v)
	}
	out += indent(in+2, wrapWords(d, 78-in)) + "\n"
	if ed, _ := fs["externalDocs"].(map[string]any); truthy(ed) {
		out += "\n" + indent(in+2, "EXTERNAL DOCS:") + "\n" + docsLines(ed, in+4, 76-in)
	}
	return out + "\n"
}

// typeGuess is kubectl's short type of a schema: string, Object,
// []Object, map[string]string, or the name of a referenced definition.
func (x *explainer) typeGuess(s map[string]any) string {
	all, _ := s["allOf"].([]any)
	switch {
	case truthy(s["items"]):
		items, _ := s["items"].(map[string]any)
		return "[]" + x.typeGuess(items)
	case mapValues(s) != nil:
		return "map[string]" + x.typeGuess(mapValues(s))
	case truthy(all) && !truthy(s["properties"]) && len(all) == 1:
		first, _ := all[0].(map[string]any)
		return x.typeGuess(first)
	case truthy(s["$ref"]):
		ref := fmt.Sprint(s["$ref"])
		target := x.resolve(ref)
		if t := target["type"]; truthy(target) && truthy(t) && t != "object" {
			return fmt.Sprint(t)
		}
		name := ref[strings.LastIndex(ref, "/")+1:]
		if short := name[strings.LastIndex(name, ".")+1:]; short != "" {
			return short
		}
		return "Object"
	case s["type"] == "object" || !truthy(s["type"]):
		return "Object"
	}
	return fmt.Sprint(s["type"])
}

// extractEnum prints a schema's enum: on the FIELD line's next lines
// (long), or after the field's line, at most limit values (-1: all).
func extractEnum(s map[string]any, long bool, limit, in int) string {
	enum, _ := s["enum"].([]any)
	if len(enum) == 0 {
		return ""
	}
	var b strings.Builder
	if long {
		b.WriteString("ENUM:")
	} else {
		b.WriteString("\n" + strings.Repeat(" ", in) + "enum: ")
	}
	for i, e := range enum {
		if limit > -1 && i >= limit {
			b.WriteString(", ....")
			break
		}
		switch {
		case long:
			b.WriteString("\n    ")
		case i > 0:
			b.WriteString(", ")
		}
		if e == "" {
			b.WriteString(`""`)
		} else {
			fmt.Fprint(&b, e)
		}
	}
	return b.String()
}

// mapValues is the schema of a map's values (additionalProperties when a
// non-empty schema), nil otherwise.
func mapValues(s map[string]any) map[string]any {
	ap, _ := s["additionalProperties"].(map[string]any)
	if !truthy(ap) {
		return nil
	}
	return ap
}

func refOf(s map[string]any) string {
	ref, _ := s["$ref"].(string)
	return ref
}

// with is history with ref added, a copy.
func with(history map[string]bool, ref string) map[string]bool {
	out := make(map[string]bool, len(history)+1)
	for k, v := range history {
		out[k] = v
	}
	out[ref] = true
	return out
}

// truthy is Go templates' truth: not nil, false, 0, "" or empty.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case float64:
		return v != 0
	case map[string]any:
		return len(v) > 0
	case []any:
		return len(v) > 0
	}
	return true
}

// indent puts n spaces before every line of s, and after a final
// newline, as kubectl's template function does.
func indent(n int, s string) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}

// wrapWords breaks s into lines of at most limit characters at white
// space (not U+00A0), as kubectl explain's word wrapping does: a word
// that does not fit starts a new line, dropping the spaces before it; a
// word longer than limit stays whole; spaces at a line's end are kept
// unless they overflow it. limit <= 0: s as it is.
func wrapWords(s string, limit int) string {
	if limit <= 0 {
		return s
	}
	var out strings.Builder
	var word, space []rune
	col := 0
	flush := func() {
		col += len(space) + len(word)
		out.WriteString(string(space))
		out.WriteString(string(word))
		space, word = space[:0], word[:0]
	}
	for _, r := range s {
		switch {
		case r == '\n':
			if len(word) == 0 && col+len(space) > limit {
				space = space[:0]
			}
			flush()
			out.WriteByte('\n')
			col = 0
		case unicode.IsSpace(r) && r != '\u00a0':
			if len(space) == 0 || len(word) > 0 {
				flush()
			}
			space = append(space, r)
		default:
			word = append(word, r)
			if col+len(word)+len(space) > limit && len(word) < limit {
				out.WriteByte('\n')
				col = 0
				space = space[:0]
			}
		}
	}
	if len(word) == 0 && col+len(space) > limit {
		space = space[:0]
	}
	flush()
	return out.String()
}
