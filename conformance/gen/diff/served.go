package diff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// servedLine is one line of openapi output, by field.
type servedLine map[string]json.RawMessage

// key is file#document@version, so that reduce finds the case file.
func (l servedLine) key() string {
	var file, version string
	var doc int
	_ = json.Unmarshal(l["file"], &file)
	_ = json.Unmarshal(l["document"], &doc)
	_ = json.Unmarshal(l["version"], &version)
	return fmt.Sprintf("%s#%d@%s", file, doc, version)
}

func parseServedLines(data []byte) (map[string]servedLine, []string, error) {
	out := map[string]servedLine{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l servedLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, nil, fmt.Errorf("bad JSON line %.200q: %v", sc.Text(), err)
		}
		if _, dup := out[l.key()]; !dup {
			order = append(order, l.key())
		}
		out[l.key()] = l
	}
	return out, order, sc.Err()
}

// compareOpenAPI compares openapi outputs by the conformance README: per
// (file, document, version) v3 and v2 equal as JSON; a rejected CRD needs
// null definitions and an error.
func compareOpenAPI(oracle, got []byte) ([]Diff, error) {
	exp, order, err := parseServedLines(oracle)
	if err != nil {
		return nil, fmt.Errorf("oracle: %v", err)
	}
	act, actOrder, err := parseServedLines(got)
	if err != nil {
		return []Diff{{Key: "*", Class: "openapi: unparsable output", Text: err.Error()}}, nil
	}
	var diffs []Diff
	for _, k := range order {
		a, ok := act[k]
		if !ok {
			diffs = append(diffs, Diff{Key: k, Class: "openapi: line missing from crdschema's output", Text: "no line for " + k})
			continue
		}
		if d := compareServedLine(exp[k], a); d != "" {
			diffs = append(diffs, Diff{Key: k, Class: "openapi: " + d, Text: fmt.Sprintf("%s: %s\noracle: %.2000s\ncrdschema: %.2000s", k, d, exp[k]["v3"], a["v3"])})
		}
	}
	for _, k := range actOrder {
		if _, ok := exp[k]; !ok {
			diffs = append(diffs, Diff{Key: k, Class: "openapi: extra line in crdschema's output", Text: "extra line for " + k})
		}
	}
	return diffs, nil
}

func compareServedLine(e, a servedLine) string {
	if string(e["v3"]) == "null" {
		var errs []fieldError
		_ = json.Unmarshal(a["errors"], &errs)
		if string(a["v3"]) != "null" || string(a["v2"]) != "null" || len(errs) == 0 {
			return "definitions where the oracle rejects the CRD"
		}
		return ""
	}
	for _, f := range []string{"v3", "v2"} {
		if !sameJSON(e[f], a[f]) {
			return f + " definitions differ"
		}
	}
	return ""
}

// sameJSON compares two JSON values (numbers by value).
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
