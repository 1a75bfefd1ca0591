package oracle_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// servedResults are the fields compared per served verb.
var servedResults = map[string][]string{"openapi": {"v3", "v2"}, "columns": {"columns", "cells"}, "scale": {"scale"}}

// compareVerb compares a batch's output by its verb's rules.
func compareVerb(verb string, expData, gotData []byte, logf func(string, ...interface{})) tally {
	if fields, ok := servedResults[verb]; ok {
		return compareServed(fields, expData, gotData, logf)
	}
	return compareOutputs(verb == "check", expData, gotData, logf)
}

func servedLines(data []byte) map[string]map[string]json.RawMessage {
	out := map[string]map[string]json.RawMessage{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		var l map[string]json.RawMessage
		if json.Unmarshal(sc.Bytes(), &l) == nil {
			out[fmt.Sprintf("%s#%s@%s", l["file"], l["document"], l["version"])] = l
		}
	}
	return out
}

func errorPairs(raw json.RawMessage) string {
	var errs []errorLine
	_ = json.Unmarshal(raw, &errs)
	var out []string
	for _, e := range errs {
		out = append(out, e.Type+" "+e.Field)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func equalJSON(a, b json.RawMessage) bool {
	var x, y interface{}
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// compareServed compares openapi, columns or scale output by the
// conformance README: the results equal as JSON, the same (type, field)
// error pairs; a null result needs only some error.
func compareServed(fields []string, expData, gotData []byte, logf func(string, ...interface{})) tally {
	var tl tally
	exp, got := servedLines(expData), servedLines(gotData)
	if len(got) != len(exp) {
		tl.Mismatches++
		logf("%d lines, want %d", len(got), len(exp))
	}
	for k, e := range exp {
		tl.Lines++
		g, ok := got[k]
		switch {
		case !ok:
			tl.Mismatches++
			logf("%s: no line", k)
		case string(e[fields[0]]) == "null":
			if string(g[fields[0]]) != "null" || errorPairs(g["errors"]) == "" {
				tl.Mismatches++
				logf("%s: want a null %s and an error", k, fields[0])
			}
		case !equalJSON(e[fields[0]], g[fields[0]]) || len(fields) > 1 && !equalJSON(e[fields[1]], g[fields[1]]):
			tl.Mismatches++
			logf("%s: %s differ", k, strings.Join(fields, "/"))
		case errorPairs(e["errors"]) != errorPairs(g["errors"]):
			tl.Mismatches++
			logf("%s: errors %s, want %s", k, errorPairs(g["errors"]), errorPairs(e["errors"]))
		}
	}
	return tl
}
