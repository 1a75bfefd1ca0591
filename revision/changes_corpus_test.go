package revision_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/revision"
)

// corpusCRDs loads every corpus CRD twice: two revisions with the same
// text.
func corpusCRDs(t *testing.T) (olds, news []*crdschema.CRD) {
	t.Helper()
	dir := shareddata.Dir(t, "corpus")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "crds", "*.yaml"))
	if len(files) == 0 {
		shareddata.Missing(t, filepath.Join(dir, "*", "crds"))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a, err := crdschema.LoadCRDs(f, data)
		if err != nil {
			t.Fatal(err)
		}
		b, err := crdschema.LoadCRDs(f, data)
		if err != nil {
			t.Fatal(err)
		}
		olds, news = append(olds, a...), append(news, b...)
	}
	return olds, news
}

// TestChangesCorpusSelf: every corpus CRD compared with itself (the same
// text loaded twice) has no change.
func TestChangesCorpusSelf(t *testing.T) {
	olds, news := corpusCRDs(t)
	if len(olds) != 326 {
		t.Errorf("%d corpus CRDs, want 326", len(olds))
	}
	start := time.Now()
	for i := range olds {
		for _, c := range revision.Changes(olds[i], news[i]) {
			t.Errorf("%s: %+v", olds[i].Name(), c)
		}
	}
	t.Logf("%d CRDs compared with themselves in %v", len(olds), time.Since(start))
}

// corpusPair loads a corpus CRD file (its first CRD) and a revision of it
// made by replacing each edit's first string, which must occur once.
func corpusPair(t testing.TB, file string, edits ...[2]string) (old, next *crdschema.CRD) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(shareddata.Dir(t, "corpus"), file))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, e := range edits {
		if n := strings.Count(text, e[0]); n != 1 {
			t.Fatalf("%s: %q occurs %d times", file, e[0], n)
		}
		text = strings.Replace(text, e[0], e[1], 1)
	}
	olds, err := crdschema.LoadCRDs(file, data)
	if err != nil {
		t.Fatal(err)
	}
	news, err := crdschema.LoadCRDs(file, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return olds[0], news[0]
}

// TestChangesRealFindings pins the two findings of issue 24's closing
// note, on real CRDs:
//
//   - cert-manager's Certificate documents that spec.commonName "should
//     have a length of 64 characters or fewer"; adding maxLength: 64 is
//     what crdify flags as breaking ("maximum constraint added when there
//     was none previously"), but the apiserver ratchets it: existing
//     Certificates with a longer name still update.
//   - Argo CD's Application keeps arbitrary Helm values under
//     spec.source.helm.valuesObject (x-kubernetes-preserve-unknown-fields);
//     dropping the marker (as a generator does when the Go type changes)
//     loses every stored Application's values on the next read, and no
//     checker reports it (crdify has no rule for the marker, and no field
//     it knows of is removed).
func TestChangesRealFindings(t *testing.T) {
	const commonName = "                  Cannot be set if the `literalSubject` field is set.\n                type: string\n"
	old, next := corpusPair(t, "cert-manager/crds/certificates.cert-manager.io.yaml",
		[2]string{commonName, commonName[:len(commonName)-len("type: string\n")] + "maxLength: 64\n                type: string\n"})
	got := revision.Changes(old, next)
	want := `v1 spec.commonName bounds-tightened ratcheted: maxLength 64 added; a create with the old value fails (spec.commonName: Too long: may not be more than 64 bytes); an update of the unchanged stored object is accepted (ratcheting)`
	if len(got) != 1 || line(got[0]) != want {
		t.Errorf("cert-manager: got %q\nwant %q", lines(got), want)
	}

	const values = "                          over Values.\n                        type: object\n                        x-kubernetes-preserve-unknown-fields: true\n"
	old, next = corpusPair(t, "argo-cd/crds/applications.argoproj.io.yaml",
		[2]string{values, strings.TrimSuffix(values, "                        x-kubernetes-preserve-unknown-fields: true\n")})
	got = revision.Changes(old, next)
	want = `v1alpha1 spec.source.helm.valuesObject preserve-unknown-fields-removed data-loss: x-kubernetes-preserve-unknown-fields removed; a read at v1alpha1 of an object stored under the old revision drops spec.source.helm.valuesObject.crdschemaProbe`
	if len(got) != 1 || line(got[0]) != want {
		t.Errorf("argo-cd: got %q\nwant %q", lines(got), want)
	}
}

// TestChangesStorageVersionPromoted: Kyverno's PolicyException promoting
// v1 to the storage version (v1beta1 was) is safe: an object stored as
// v1beta1, written back unchanged (now stored as v1) and read again, is
// the same.
func TestChangesStorageVersionPromoted(t *testing.T) {
	old, next := corpusPair(t, "kyverno/crds/policyexceptions.policies.kyverno.io.yaml",
		[2]string{"    served: true\n    storage: true\n", "    served: true\n    storage: false\n"},
		[2]string{"    served: true\n    storage: false\n  - deprecated: true\n", "    served: true\n    storage: true\n  - deprecated: true\n"})
	got := lines(revision.Changes(old, next))
	want := "v1  storage-version-changed safe: storage version v1beta1 → v1: new writes are stored as v1; objects stored as v1beta1 stay so until rewritten, and v1beta1 stays in status.storedVersions (and so in spec.versions) until a storage migration removes it; an object of v1beta1 written back and read again is unchanged"
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func lines(cs []revision.Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, line(c))
	}
	return out
}

// workflowEdits are the edits of the realistic revision of Argo
// Workflows' Workflow (2.8 MB, the corpus's largest CRD) that
// TestChangesWorkflow and the benchmark compare with the original.
func workflowEdits() [][2]string {
	const in = "              "
	// add inserts keywords after a property's line, found by the first
	// line of its description.
	add := func(key, next, keywords string) [2]string {
		return [2]string{key + "\n" + next, key + "\n" + keywords + next}
	}
	return [][2]string{
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
}

// TestChangesWorkflow classifies a realistic revision of the corpus's
// largest CRD: every change probed, none static, in well under a second.
func TestChangesWorkflow(t *testing.T) {
	old, next := corpusPair(t, "argo-workflows/crds/workflows.argoproj.io.yaml", workflowEdits()...)
	revision.Changes(old, next) // compiles both revisions' schemas
	start := time.Now()
	got := revision.Changes(old, next)
	elapsed := time.Since(start)
	var short []string
	static := 0
	for _, c := range got {
		t.Log(line(c))
		if c.Static {
			static++
		}
		short = append(short, fmt.Sprintf("%s %s %s %s %t", c.Version, c.Path, c.Kind, c.Class, c.Static))
	}
	t.Logf("%d changes, %d static, in %v", len(got), static, elapsed)
	want := []string{
		"v1alpha1 spec.entrypoint rule-added ratcheted false",
		"v1alpha1 spec.hostNetwork field-removed data-loss false",
		"v1alpha1 spec.nodeSelector bounds-tightened ratcheted false",
		"v1alpha1 spec.parallelism bounds-tightened ratcheted false",
		"v1alpha1 spec.podGC.deleteDelayDuration format-changed ratcheted false",
		"v1alpha1 spec.priority default-changed safe false",
		"v1alpha1 spec.serviceAccountName bounds-tightened ratcheted false",
		"v1alpha1 spec.serviceAccountName pattern-changed ratcheted false",
		"v1alpha1 spec.shutdown enum-narrowed ratcheted false",
		"v1alpha1 status.taskResultsCompletionStatus[*] field-removed data-loss false",
	}
	if strings.Join(short, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(short, "\n"), strings.Join(want, "\n"))
	}
}
