package serving

import (
	"fmt"
	"strings"

	"k8s.io/client-go/util/jsonpath"

	"github.com/crdschema/crdschema/structural"
)

// Finding is something the apiserver accepts in a CRD that cannot work as
// meant: a printer column or a scale path that can never match the
// version's schema, or a column type that cannot hold its field.
type Finding struct {
	// Column is the index of the column among those given to LintColumns.
	Column int
	// Path is the column's jsonPath or the scale path.
	Path string
	// Schema is where the path leaves the schema, as a JSONPath of the
	// object (".spec.replicas").
	Schema string
	// Message says what is wrong.
	Message string
}

// objectMetaFields are the ObjectMeta fields a path may name under the
// metadata of the root or of an embedded resource.
var objectMetaFields = map[string]string{
	"name": "string", "generateName": "string", "namespace": "string", "selfLink": "string",
	"uid": "string", "resourceVersion": "string", "generation": "integer",
	"creationTimestamp": "string", "deletionTimestamp": "string", "deletionGracePeriodSeconds": "integer",
	"labels": "map", "annotations": "map", "ownerReferences": "array", "finalizers": "array", "managedFields": "array",
}

// step is where a path walk stands: a schema node, or a known leaf type
// outside the schema (ObjectMeta), or nowhere known (unknown is true).
type step struct {
	s       *structural.Schema
	typ     string // the type when s is nil: from ObjectMeta
	unknown bool
	root    bool
}

// LintColumns lists the printer columns of a version (s its structural
// schema) whose JSONPath does not parse (the apiserver then drops that
// column and every later one), names a field the schema does not have,
// indexes a non-array, or whose type cannot hold the field's type. Paths
// under x-kubernetes-preserve-unknown-fields or through filters, unions and
// recursive descent are unknown, not wrong.
func LintColumns(s *structural.Schema, columns []Column) []Finding {
	var out []Finding
	for i, c := range columns {
		p, err := jsonpath.Parse(c.Name, "{"+c.JSONPath+"}")
		if err != nil {
			msg := fmt.Sprintf("the JSONPath does not parse (%v): the apiserver drops this column", err)
			if rest := len(columns) - i - 1; rest > 0 {
				msg += fmt.Sprintf(" and the %d after it", rest)
			}
			out = append(out, Finding{Column: i, Path: c.JSONPath, Message: msg})
			break
		}
		at, where, problem := walkJSONPath(s, p.Root)
		if problem != "" {
			out = append(out, Finding{Column: i, Path: c.JSONPath, Schema: where, Message: problem + ": the column is always empty"})
			continue
		}
		if msg := typeMismatch(c.Type, at); msg != "" {
			out = append(out, Finding{Column: i, Path: c.JSONPath, Schema: where, Message: msg})
		}
	}
	return out
}

// LintScale lists the scale paths of a version that can never give what
// GET .../scale reads: replicas paths that name no integer field (a float
// there fails the request), a label selector path that names no string.
// The paths are split at dots, as the apiserver does.
func LintScale(s *structural.Schema, specReplicasPath, statusReplicasPath, labelSelectorPath string) []Finding {
	var out []Finding
	for _, p := range []struct{ path, want string }{{specReplicasPath, "integer"}, {statusReplicasPath, "integer"}, {labelSelectorPath, "string"}} {
		if p.path == "" {
			continue
		}
		at := step{s: s, root: true}
		where := ""
		problem := ""
		for _, k := range strings.Split(strings.TrimPrefix(p.path, "."), ".") {
			where += "." + k
			if at, problem = stepField(at, k); problem != "" || at.unknown {
				break
			}
		}
		switch {
		case problem != "":
			out = append(out, Finding{Path: p.path, Schema: where, Message: problem + " (scale paths are split at dots, not JSONPaths)"})
		case at.unknown:
		case typeOf(at) != p.want && !(p.want == "integer" && at.s != nil && at.s.IntOrString):
			out = append(out, Finding{Path: p.path, Schema: where, Message: fmt.Sprintf("the field is of type %q, not %s: GET .../scale fails on its values", typeOf(at), p.want)})
		}
	}
	return out
}

// walkJSONPath follows a parsed JSONPath through the schema as far as it
// can: it returns where it ended, as a JSONPath, and what is wrong, if
// anything.
func walkJSONPath(s *structural.Schema, root *jsonpath.ListNode) (step, string, string) {
	at := step{s: s, root: true}
	where := ""
	nodes := root.Nodes
	if len(nodes) == 1 {
		if l, ok := nodes[0].(*jsonpath.ListNode); ok {
			nodes = l.Nodes
		}
	}
	for _, n := range nodes {
		if at.unknown {
			break
		}
		var problem string
		switch n := n.(type) {
		case *jsonpath.FieldNode:
			if n.Value == "" || n.Value == "@" {
				continue
			}
			where += "." + n.Value
			at, problem = stepField(at, n.Value)
		case *jsonpath.ArrayNode:
			where += "[]"
			at, problem = item(at)
		default:
			at.unknown = true
		}
		if problem != "" {
			return at, where, problem
		}
	}
	return at, where, ""
}

// stepField steps into the property k.
func stepField(at step, k string) (step, string) {
	if at.s == nil {
		return metaField(at, k)
	}
	s := at.s
	if at.root || s.EmbeddedResource {
		switch k {
		case "apiVersion", "kind":
			return step{typ: "string"}, ""
		case "metadata":
			return step{typ: "metadata"}, ""
		}
	}
	if c, ok := s.Property(k); ok {
		return step{s: c}, ""
	}
	switch {
	case s.PreserveUnknownFields || s.IntOrString && s.Type == "":
		return step{unknown: true}, ""
	case s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
		return step{s: s.AdditionalProperties.Schema}, ""
	case s.AdditionalProperties != nil && s.AdditionalProperties.Allows:
		return step{unknown: true}, ""
	case s.Type != "object" && s.Type != "":
		return at, fmt.Sprintf("names the field %q of a value of type %q", k, s.Type)
	}
	return at, fmt.Sprintf("names the field %q, which the schema does not declare", k)
}

// metaField steps into a field outside the schema: of ObjectMeta, or of
// its labels and annotations.
func metaField(at step, k string) (step, string) {
	switch at.typ {
	case "map":
		return step{typ: "string"}, ""
	case "metadata":
		t, ok := objectMetaFields[k]
		if !ok {
			return at, fmt.Sprintf("names the field %q, which ObjectMeta does not have", k)
		}
		return step{typ: t}, ""
	}
	return step{unknown: true}, ""
}

// item steps into the items of an array.
func item(at step) (step, string) {
	if at.s == nil {
		return step{unknown: true}, ""
	}
	switch {
	case at.s.Items != nil:
		return step{s: at.s.Items}, ""
	case at.s.PreserveUnknownFields:
		return step{unknown: true}, ""
	}
	return at, fmt.Sprintf("indexes a value of type %q, not an array", at.s.Type)
}

func typeOf(at step) string {
	if at.s != nil {
		if at.s.IntOrString {
			return "int-or-string"
		}
		return at.s.Type
	}
	return at.typ
}

// typeMismatch says why a column of type colType cannot show the value at
// at, "" when it can (or when the value's type is not known).
func typeMismatch(colType string, at step) string {
	if at.unknown {
		return ""
	}
	t := typeOf(at)
	if t == "" || colType == "string" {
		return ""
	}
	ok := map[string][]string{
		"integer": {"integer", "number", "int-or-string"},
		"number":  {"integer", "number", "int-or-string"},
		"boolean": {"boolean"},
		"date":    {"string"},
	}[colType]
	for _, o := range ok {
		if o == t {
			return ""
		}
	}
	return fmt.Sprintf("a column of type %q over a field of type %q: the cell is always empty", colType, t)
}
