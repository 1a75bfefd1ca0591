package serving

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/duration"
	"k8s.io/client-go/util/jsonpath"
)

// Column is one column of the table `kubectl get` prints: a printer
// column as the CRD declares it (JSONPath) and, in JSON, the Table's
// column definition.
type Column struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format"`
	Description string `json:"description"`
	Priority    int32  `json:"priority"`
	// JSONPath is the column's jsonPath ("" for the Name column).
	JSONPath string `json:"-"`
}

// The ObjectMeta field documentation the apiserver uses for the Name
// column and the default Age column.
const (
	nameDoc              = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"
	creationTimestampDoc = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
)

// Table is the apiserver's table convertor for one version's printer
// columns, built once and safe for concurrent use.
type Table struct {
	columns []Column
	paths   []*jsonpath.JSONPath
}

// NewTable builds the table of a version with the given printer columns
// (the version's additionalPrinterColumns; none gives the default Age
// column). As in the apiserver, a column whose JSONPath does not parse
// drops that column and every later one: the CRD validation only checks
// that a path starts with a dot.
func NewTable(printerColumns []Column) *Table {
	if len(printerColumns) == 0 {
		printerColumns = []Column{{Name: "Age", Type: "date", Description: creationTimestampDoc, JSONPath: ".metadata.creationTimestamp"}}
	}
	t := &Table{columns: []Column{{Name: "Name", Type: "string", Format: "name", Description: nameDoc}}}
	for _, c := range printerColumns {
		p := jsonpath.New(c.Name)
		if err := p.Parse("{" + c.JSONPath + "}"); err != nil {
			break
		}
		p.AllowMissingKeys(true)
		if c.Description == "" {
			c.Description = "Custom resource definition column (in JSONPath format): " + c.JSONPath
		}
		t.columns = append(t.columns, c)
		t.paths = append(t.paths, p)
	}
	return t
}

// Columns returns the table's column definitions: Name, then the printer
// columns that parsed. The caller may change the returned slice.
func (t *Table) Columns() []Column {
	return append([]Column(nil), t.columns...)
}

// errList is Row's error for an object with a top-level items array.
var errList = errors.New("an object with a top-level items array is a list to the apiserver's table code, which prints a row per item")

// Row returns the cells of obj, an object as served, with ages counted to
// now: one JSON value per column (nil for no value). It fails for an
// object with a top-level items array, which the apiserver's table code
// takes for a list (a row per item, or an error for an item that is not
// an object). obj is not changed.
func (t *Table) Row(obj map[string]any, now time.Time) (cells []any, err error) {
	// client-go's jsonpath has panicked on odd paths before; the
	// apiserver turns a panic into a 500, this into an error.
	defer func() {
		if p := recover(); p != nil {
			cells, err = nil, fmt.Errorf("the table code panics: %v", p)
		}
	}()
	obj, ferr := plainObject(obj)
	if ferr != nil {
		return nil, ferr
	}
	if _, ok := obj["items"].([]any); ok {
		return nil, errList
	}
	meta, _ := obj["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	cells = make([]any, 1, len(t.columns))
	cells[0] = name
	var buf bytes.Buffer
	for i, p := range t.paths {
		cells = append(cells, t.cell(p, t.columns[i+1].Type, obj, now, &buf))
	}
	return cells, nil
}

// cell evaluates one column on obj: its first result only, by type.
func (t *Table) cell(p *jsonpath.JSONPath, typ string, obj map[string]any, now time.Time, buf *bytes.Buffer) any {
	results, err := p.FindResults(obj)
	if err != nil || len(results) == 0 || len(results[0]) == 0 {
		return nil
	}
	value := results[0][0].Interface()
	if typ != "string" {
		return typedCell(typ, value, now)
	}
	buf.Reset()
	if err := p.PrintResults(buf, []reflect.Value{reflect.ValueOf(value)}); err != nil {
		return nil
	}
	return buf.String()
}

// typedCell converts a value for a column of a type other than string, as
// the apiserver's cellForJSONValue does.
func typedCell(typ string, value any, now time.Time) any {
	switch typ {
	case "integer":
		switch v := value.(type) {
		case int64:
			return v
		case float64:
			return int64(v)
		case json.Number:
			if i, err := v.Int64(); err == nil {
				return i
			}
		}
	case "number":
		switch v := value.(type) {
		case int64:
			return float64(v)
		case float64:
			return v
		case json.Number:
			if f, err := v.Float64(); err == nil {
				return f
			}
		}
	case "boolean":
		if b, ok := value.(bool); ok {
			return b
		}
	case "date":
		if s, ok := value.(string); ok {
			return age(s, now)
		}
	}
	return nil
}

// age is a date cell: the time since a timestamp in kubectl's format.
func age(s string, now time.Time) string {
	var ts metav1.Time
	if err := ts.UnmarshalQueryParameter(s); err != nil {
		return "<invalid>"
	}
	if ts.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(now.Sub(ts.Time))
}
