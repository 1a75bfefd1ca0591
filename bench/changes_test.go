package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/revision"
)

// workflowRevision is the original of argo-workflows' Workflow (2.8 MB,
// the corpus's largest CRD) and a revision with nine realistic edits (the
// root package's TestChangesWorkflow makes the same).
func workflowRevision(b *testing.B) (oldDoc, newDoc []byte) {
	data, err := os.ReadFile(filepath.Join(corpusDir(), "argo-workflows", "crds", "workflows.argoproj.io.yaml"))
	if err != nil {
		corpusMissing(b, err)
	}
	const in = "              "
	add := func(key, next, keywords string) [2]string {
		return [2]string{key + "\n" + next, key + "\n" + keywords + next}
	}
	edits := [][2]string{
		add(in+"serviceAccountName:", "                description: ServiceAccountName is the name", in+"  maxLength: 253\n"+in+"  pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'\n"),
		add(in+"shutdown:", "                description: Shutdown will", in+"  enum: [Terminate, Stop]\n"),
		{in + "hostNetwork:\n                description: Host networking requested for this workflow pod. Default\n                  to false.\n                type: boolean\n", ""},
		add(in+"priority:", "                description: Priority is used if controller", in+"  default: 0\n"),
		add(in+"entrypoint:", "                description: Entrypoint is a template reference", in+"  x-kubernetes-validations: [{rule: \"self.size() <= 63\"}]\n"),
		add(in+"parallelism:", "                description: Parallelism limits the max total", in+"  maximum: 1000\n"),
		add(in+"nodeSelector:", "                additionalProperties:\n                  type: string\n                description: |-\n                  NodeSelector is a selector which will result in all pods of the workflow", in+"  maxProperties: 10\n"),
		{"              taskResultsCompletionStatus:\n                additionalProperties:\n                  type: boolean\n", "              taskResultsCompletionStatus:\n"},
		add("                  deleteDelayDuration:", "                    description: DeleteDelayDuration specifies", "                    format: duration\n"),
	}
	text := string(data)
	for _, e := range edits {
		if strings.Count(text, e[0]) != 1 {
			b.Fatalf("edit %q does not apply once", e[0])
		}
		text = strings.Replace(text, e[0], e[1], 1)
	}
	return data, []byte(text)
}

// BenchmarkChanges classifies the nine-edit revision of Workflow:
// "probes" on loaded revisions whose schemas are compiled (the diff and
// the probes through the engine); "load+check+probes" from the YAML of
// both revisions, as a command run does (decoding, compiling both
// revisions' schemas and CEL rules, the update validation, the probes).
func BenchmarkChanges(b *testing.B) {
	oldDoc, newDoc := workflowRevision(b)
	load := func() (*crdschema.CRD, *crdschema.CRD) {
		old, err := crdschema.LoadCRD(oldDoc)
		if err != nil {
			b.Fatal(err)
		}
		next, err := crdschema.LoadCRD(newDoc)
		if err != nil {
			b.Fatal(err)
		}
		return old, next
	}
	b.Run("workflow/probes", func(b *testing.B) {
		old, next := load()
		if n := len(revision.Changes(old, next)); n != 10 {
			b.Fatalf("%d changes, want 10", n)
		}
		b.ResetTimer()
		for b.Loop() {
			revision.Changes(old, next)
		}
	})
	b.Run("workflow/checkupdate", func(b *testing.B) {
		// The update validation alone, on loaded revisions whose create
		// checks are done (as a command run's are by then).
		old, next := load()
		old.Errors()
		next.Errors()
		if errs, _ := crdschema.CheckUpdate(old, next); len(errs) != 0 {
			b.Fatalf("update errors: %v", errs)
		}
		b.ReportAllocs()
		for b.Loop() {
			crdschema.CheckUpdate(old, next)
		}
	})
	b.Run("workflow/load+check+probes", func(b *testing.B) {
		for b.Loop() {
			old, next := load()
			revision.Changes(old, next)
		}
	})
}
