package diff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
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

// servedFields are the results compared per verb.
var servedFields = map[string][]string{"openapi": {"v3", "v2"}, "columns": {"columns", "cells"}, "scale": {"scale"}}

// compareServed compares openapi, columns or scale outputs by the
// conformance README: per (file, document[, version]) the results equal as
// JSON and the same set of (type, field) error pairs; a null result needs
// only some error.
func compareServed(verb string, oracle, got []byte) ([]Diff, error) {
	exp, order, err := parseServedLines(oracle)
	if err != nil {
		return nil, fmt.Errorf("oracle: %v", err)
	}
	act, actOrder, err := parseServedLines(got)
	if err != nil {
		return []Diff{{Key: "*", Class: verb + ": unparsable output", Text: err.Error()}}, nil
	}
	var diffs []Diff
	for _, k := range order {
		a, ok := act[k]
		if !ok {
			diffs = append(diffs, Diff{Key: k, Class: verb + ": line missing from crdschema's output", Text: "no line for " + k})
			continue
		}
		f := servedFields[verb]
		if d := compareServedLine(f, exp[k], a); d != "" {
			diffs = append(diffs, Diff{Key: k, Class: verb + ": " + d, Text: fmt.Sprintf("%s: %s\noracle: %.2000s %s\ncrdschema: %.2000s %s", k, d, exp[k][f[0]], exp[k]["errors"], a[f[0]], a["errors"])})
		}
	}
	for _, k := range actOrder {
		if _, ok := exp[k]; !ok {
			diffs = append(diffs, Diff{Key: k, Class: verb + ": extra line in crdschema's output", Text: "extra line for " + k})
		}
	}
	return diffs, nil
}

func compareServedLine(fields []string, e, a servedLine) string {
	var eErrs, aErrs []fieldError
	_ = json.Unmarshal(e["errors"], &eErrs)
	_ = json.Unmarshal(a["errors"], &aErrs)
	if string(e[fields[0]]) == "null" {
		if string(a[fields[0]]) != "null" || len(aErrs) == 0 {
			return "a result where the oracle has none"
		}
		return ""
	}
	for _, f := range fields {
		if !sameJSON(e[f], a[f]) {
			return f + " differ"
		}
	}
	if !maps.Equal(errorSet(eErrs), errorSet(aErrs)) {
		return "errors differ"
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
