package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/crdschema/crdschema"
)

// lintFinding is one finding of CRD.Lint in check's JSON line (its "lint"
// list, an addition to the contract): something the apiserver accepts in
// the CRD that cannot work as meant. The apiserver's own errors and
// warnings are not among them.
type lintFinding struct {
	// Field is where the path is written in the CRD
	// ("spec.versions[0].additionalPrinterColumns[1].jsonPath").
	Field string `json:"field"`
	// PrinterColumn is the name of the printer column, for a column's
	// finding.
	PrinterColumn string `json:"printerColumn,omitempty"`
	// Path is the column's JSONPath or the scale path.
	Path string `json:"path"`
	// Schema is where the path leaves the version's schema, as a JSONPath
	// of the object; "" when the path does not parse.
	Schema string `json:"schema,omitempty"`
	// Detail says what is wrong.
	Detail string `json:"detail"`
	// Line and Column are where Field is in the file, when known.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
}

// text is the finding in the human formats, after "lint: ".
func (f lintFinding) text() string {
	var b strings.Builder
	b.WriteString(escapeControl(f.Field) + ": ")
	if f.PrinterColumn != "" {
		b.WriteString("column " + strconv.Quote(f.PrinterColumn) + ": ")
	}
	b.WriteString(strconv.Quote(f.Path) + ": " + f.Detail)
	if f.Schema != "" {
		b.WriteString(" (schema: " + f.Schema + ")")
	}
	return escapeControl(b.String())
}

// schemaAt is the " (at .schema.location)" CRD.Lint ends a detail with.
var schemaAt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` \(at ([^()]*)\)$`) })

// columnField matches a printer column's jsonPath field in a CRD.Lint
// finding: the version's index (absent for the columns of a whole
// v1beta1 CRD) and the column's.
var columnField = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^spec(?:\.versions\[(\d+)\])?\.additionalPrinterColumns\[(\d+)\]\.(?:jsonPath|priority)$`)
})

// lintFindings converts the findings of CRD.Lint, naming each printer
// column from the document (obj) as written.
func lintFindings(errs field.ErrorList, obj map[string]any) []lintFinding {
	var out []lintFinding
	for _, e := range errs {
		f := lintFinding{Field: e.Field, Detail: e.Detail}
		if s, ok := e.BadValue.(string); ok {
			f.Path = s
		}
		if m := schemaAt().FindStringSubmatchIndex(f.Detail); m != nil {
			f.Schema = f.Detail[m[2]:m[3]]
			f.Detail = f.Detail[:m[0]]
		}
		if m := columnField().FindStringSubmatch(e.Field); m != nil {
			f.PrinterColumn, f.Path = column(obj, m[1], m[2], f.Path)
		}
		out = append(out, f)
	}
	return out
}

// column is the name of printer column col of version v ("" for the
// columns of the whole CRD), "" when the document does not say, and its
// JSONPath when path (the finding's) is "" (a priority's finding).
func column(obj map[string]any, v, col, path string) (string, string) {
	spec, _ := obj["spec"].(map[string]any)
	holder := spec
	if v != "" {
		holder, _ = nth(spec["versions"], v).(map[string]any)
	}
	c, _ := nth(holder["additionalPrinterColumns"], col).(map[string]any)
	name, _ := c["name"].(string)
	if path == "" {
		path, _ = c["jsonPath"].(string)
	}
	if path == "" {
		path, _ = c["JSONPath"].(string)
	}
	return name, path
}

// nth is item i (a decimal index) of a list, nil when there is none.
func nth(list any, i string) any {
	l, _ := list.([]any)
	n, err := strconv.Atoi(i)
	if err != nil || n < 0 || n >= len(l) {
		return nil
	}
	return l[n]
}

// lintCRD is what check lints in a CRD: the findings of CRD.Lint (none for
// a CRD the apiserver rejects).
func lintCRD(d crdschema.Document, crd *crdschema.CRD) []lintFinding {
	return lintFindings(crd.Lint(), d.Object)
}

// lintSummary is the text of a document's lint findings in the message of
// a JUnit failure (check --lint-fail).
func lintSummary(lint []lintFinding) string {
	return fmt.Sprintf("%d lint finding(s), first: %s", len(lint), lint[0].text())
}
