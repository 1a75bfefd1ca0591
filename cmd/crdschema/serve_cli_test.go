package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestServedVerbsBadArguments: every bad argument of openapi, columns and
// scale is exit 2 with a message, nothing on standard output.
func TestServedVerbsBadArguments(t *testing.T) {
	obj := writeFile(t, "obj.yaml", cronTab("a"))
	for _, args := range [][]string{
		{"openapi"},
		{"openapi", "-o", "text", crontabCRD},
		{"openapi", "--schema", crontabCRD},
		{"openapi", "/no/such/file"},
		{"columns", obj},
		{"columns", "--crd", crontabCRD},
		{"columns", "--crd", crontabCRD, "--now", "yesterday", obj},
		{"columns", "--crd", crontabCRD, "-o", "yaml", obj},
		{"scale", "--crd", crontabCRD, "-o", "wide", obj},
		{"scale", "--schema", crontabCRD, obj},
		{"scale", "--crd", crontabCRD, "-", "-"},
	} {
		out, errOut, code := runCmd(t, nil, args...)
		if code != 2 || out != "" || errOut == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and a message", args, code, out, errOut)
		}
	}
}

// TestServedVerbs runs the three verbs on the sample CronTab CRD.
func TestServedVerbs(t *testing.T) {
	out, _, code := runCmd(t, nil, "openapi", crontabCRD)
	var line map[string]any
	if err := json.Unmarshal([]byte(out), &line); err != nil || code != 0 {
		t.Fatalf("openapi: exit %d, %v: %s", code, err, out)
	}
	if v3, _ := line["v3"].(map[string]any); len(v3) != 2 || line["listKind"] != "CronTabList" {
		t.Errorf("openapi: %s", out)
	}

	obj := writeFile(t, "obj.yaml", cronTab("a")+"  creationTimestamp: 2026-11-24T23:00:00Z\n")
	out, _, code = runCmd(t, nil, "columns", "--now", "2026-11-25T00:00:00Z", "--crd", crontabCRD, obj)
	if code != 0 || !strings.HasPrefix(out, "NAME") || !strings.Contains(out, "60m") {
		t.Errorf("columns: exit %d:\n%s", code, out)
	}
	out, _, code = runCmd(t, nil, "scale", "--crd", crontabCRD, "-o", "json", obj)
	if code != 1 || !strings.Contains(out, "has no scale subresource") {
		t.Errorf("scale: exit %d:\n%s", code, out)
	}
}
