package oracle_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/conformance/oracle"
)

// TestCrashIsPerDocument pins how the oracle answers when the apiserver's
// own code panics: crds.yaml's first CRD has a per-version schema that
// NewStructural rejects plus selectableFields, on which
// ValidateCustomResourceSelectableFields dereferences a nil schema. Only that
// document (and the objects routed to its kind) go unanswered, with a
// CrashPrefix line; everything else is answered as usual.
func TestCrashIsPerDocument(t *testing.T) {
	run := func(args ...string) (string, string, int) {
		var stdout, stderr bytes.Buffer
		code := oracle.Run(context.Background(), oracle.Env{Dir: "testdata/crash", Stdout: &stdout, Stderr: &stderr}, args)
		return stdout.String(), stderr.String(), code
	}

	stdout, stderr, code := run("check", "-o", "json", "crds.yaml")
	if code != oracle.ExitOK {
		t.Errorf("check: exit %d, want %d (the crashed document must not count); stderr:\n%s", code, oracle.ExitOK, stderr)
	}
	if !strings.Contains(stderr, oracle.CrashPrefix+"crds.yaml#0: panic: ") {
		t.Errorf("check: no crash line for crds.yaml#0 in stderr:\n%s", stderr)
	}
	if strings.Contains(stdout, `"document":0`) || !strings.Contains(stdout, `"name":"gadgets.example.com"`) {
		t.Errorf("check: want only document 1 answered, got:\n%s", stdout)
	}

	stdout, stderr, code = run("apply", "--crd", "crds.yaml", "-o", "json", "objs.yaml")
	if code != oracle.ExitOK {
		t.Errorf("apply: exit %d, want %d; stderr:\n%s", code, oracle.ExitOK, stderr)
	}
	if !strings.Contains(stderr, oracle.CrashPrefix+"objs.yaml#0: ") {
		t.Errorf("apply: the Widget routed to the crashed CRD has no crash line; stderr:\n%s", stderr)
	}
	if strings.Contains(stdout, `"document":0`) || !strings.Contains(stdout, `"pruned":["spec.extra"]`) {
		t.Errorf("apply: want only the Gadget answered (spec.extra pruned), got:\n%s", stdout)
	}
}
