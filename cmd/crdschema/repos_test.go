package main

import (
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/layout"
)

// Issue 29's fixture repositories: trimmed trees of real public
// repositories, each extracted at a release tag and kept with its LICENSE
// in the shared data (shared/repos/<owner>-<name>-<tag>/): what the CI
// recipe of the README reads there (CRDs, kubebuilder patches, chainsaw and
// kuttl tests, a Helm chart, templated custom resources, copies of CRDs).
// Fetched material is not committed to this repository, hence the shared
// data.

// recipe are the README's two CI commands.
var recipe = map[string][]string{
	"check": {"check", "--skip-non-crds", "-o", "github", "."},
	"apply": {"apply", "--skip-unknown-kinds", "--strict", "-o", "github", "."},
}

// ciRun is what one CI command printed: its exit status, its ::error
// annotations as "file:line: message", the ::warning annotations about
// differing copies of a CRD likewise, and its ::notice summary.
type ciRun struct {
	exit   int
	errors []string
	copies []string
	notice string
	stderr string
}

var annotationLineRE = regexp.MustCompile(`^::(error|warning) file=([^,]+)(?:,line=(\d+))?(?:,col=\d+)?,title=crdschema \w+::(.*)$`)

// runRecipe runs one verb of the recipe in dir.
func runRecipe(t *testing.T, dir, verb string) ciRun {
	t.Helper()
	t.Chdir(dir)
	out, errOut, code := runCmd(t, nil, recipe[verb]...)
	r := ciRun{exit: code, stderr: errOut}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if n, ok := strings.CutPrefix(l, "::notice title=crdschema "+verb+"::"); ok {
			r.notice = n
			continue
		}
		m := annotationLineRE.FindStringSubmatch(l)
		switch {
		case m == nil:
		case m[1] == "error":
			r.errors = append(r.errors, m[2]+":"+m[3]+": "+m[4])
		case strings.Contains(m[4], " differing definitions of CustomResourceDefinition "):
			r.copies = append(r.copies, m[2]+":"+m[3]+": "+m[4])
		}
	}
	return r
}

// copyTree copies the directory src to a new temporary directory, symbolic
// links as links, and returns it.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// editLine changes line n (1-based) of file by edit, which returns the
// lines that replace it.
func editLine(t *testing.T, file string, n int, edit func(line string) []string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		t.Fatalf("%s has no line %d", file, n)
	}
	lines = slices.Concat(lines[:n-1], edit(lines[n-1]), lines[n:])
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lineOf is the 1-based number of the first line of file that, trimmed of
// spaces, starts with prefix.
func lineOf(t *testing.T, file, prefix string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line starting with %q", file, prefix)
	return 0
}

// indentOf is the leading spaces of line n of file.
func indentOf(t *testing.T, file string, n int) string {
	t.Helper()
	data, _ := os.ReadFile(file)
	l := strings.Split(string(data), "\n")[n-1]
	return l[:len(l)-len(strings.TrimLeft(l, " "))]
}

// The real repositories' trees are read from the directory $CRDSCHEMA_REPOS
// (default: repos in the shared data, ../shared/repos beside the checkout).
// They are fetched material: not committed here, and not part of the shared
// data CI gets (the lead places them by hand), so their tests skip, saying
// so, without them — even under CRDSCHEMA_REQUIRE_SHARED=1 — unless
// CRDSCHEMA_REQUIRE_REPOS=1 asks for them. Our own miniature trees under
// testdata/repos (minirepos_test.go) cover the same rules on every run.
const (
	reposEnv        = "CRDSCHEMA_REPOS"
	requireReposEnv = "CRDSCHEMA_REQUIRE_REPOS"
)

// fixtureRepoDir is the absolute directory of one fixture repository: ours
// under testdata/repos, or a real one under $CRDSCHEMA_REPOS, skipping the
// test (failing it under CRDSCHEMA_REQUIRE_REPOS=1) when that is absent.
func fixtureRepoDir(t *testing.T, repo fixtureRepo) string {
	t.Helper()
	if !repo.real {
		dir, err := filepath.Abs(filepath.Join("testdata", "repos", repo.dir))
		if err != nil {
			t.Fatal(err)
		}
		return dir
	}
	root := os.Getenv(reposEnv)
	if root == "" {
		root, _ = shareddata.Path("repos")
	}
	dir, err := filepath.Abs(filepath.Join(root, repo.dir))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv(requireReposEnv) == "1" {
			t.Fatalf("real repository tree missing at %s (%s=1: it must be present; %s=DIR says where the trees are)", dir, requireReposEnv, reposEnv)
		}
		t.Skipf("real repository tree not found at %s: skipping (fetched material: not committed, not in the shared data CI gets, so %s=1 does not require it; %s=DIR runs it, %s=1 requires it; testdata/repos covers the same rules)", dir, shareddata.RequireEnv, reposEnv, requireReposEnv)
	}
	return dir
}

// hasError reports whether errs holds an error on file at line whose
// message contains text.
func hasError(errs []string, file string, line int, text string) bool {
	prefix := file + ":" + strconv.Itoa(line) + ": "
	for _, e := range errs {
		if strings.HasPrefix(e, prefix) && strings.Contains(e, text) {
			return true
		}
	}
	return false
}

// fixtureRepo is one fixture repository, its pinned verdicts, and where
// the breakage test breaks it.
type fixtureRepo struct {
	// dir is the tree's directory: under testdata/repos, or for a real
	// repository under $CRDSCHEMA_REPOS.
	dir string
	// real marks a trimmed tree of a real repository (fixtureRepoDir).
	real bool
	// pins are the recipe's answers: exit status, summary, and the errors
	// ("file:line: start of the message"), each set justified where it is
	// written.
	pins map[string]ciPin
	// crd and cr are a clean CRD file and a clean custom resource file
	// the breakage test breaks; crdKey is a line of the CRD (trimmed) that
	// takes a stray ": x" (a YAML syntax error on that line).
	crd, crdKey, cr string
	// templatedCRD is a CRD whose text holds Go template actions (in its
	// descriptions), "" when there is none.
	templatedCRD string
	// templated are the tree's custom resources whose values hold Go
	// template actions and that parse: each must be checked (before issue
	// 29 every one was skipped as a Helm template). file: count of
	// documents.
	templated map[string]int
}

type ciPin struct {
	exit   int
	notice string
	errors []string
	// copies are the warnings about CRDs defined more than once with
	// differing specs (apply), each naming the copy objects are checked
	// against.
	copies []string
}

// realRepos are the trimmed trees of real repositories.
var realRepos = []fixtureRepo{{
	// open-telemetry/opentelemetry-operator v0.158.0: kubebuilder patches
	// and a kustomize overlay's patch (4 partial CRDs), 13 chainsaw tests
	// (assertions with JMESPath keys, bindings, negative CEL tests, a step
	// template), Go test inputs broken on purpose, 5 copies of the
	// collector and instrumentation CRDs (one in an upgrade test).
	dir: "open-telemetry-opentelemetry-operator-v0.158.0", real: true,
	pins: map[string]ciPin{
		// Before issue 29: exit 1 with 72 false errors, all on the 8
		// patch documents (4 kubebuilder patches, 4 in the OpenShift
		// overlay's patch). Now the 8 are patches, the CRDs are clean.
		"check": {exit: 0, notice: "116 files, 188 documents: 10 checked, 0 with errors (0 errors); skipped 178: 3 not Kubernetes objects, 3 Go test inputs, 8 patches, 63 test assertions and negative tests, 101 not CRDs"},
		// Before: exit 1 with 30 false errors (22 in assertion files,
		// 4 negative tests whose CEL message the test expects, 4
		// chainsaw bindings "($namespace)"). Now: assertions and negative
		// tests skipped by role, bindings not counted; every custom
		// resource the repository applies is valid.
		// The instrumentation CRD has 5 copies (3 bundles, the base, the
		// upgrade test's release manifest), the collector CRD 2 accepted
		// ones that differ: one warning each, naming the copy used (the
		// first accepted in walk order).
		"apply": {exit: 0, notice: "116 files, 188 documents: 30 checked, 0 with errors (0 errors); skipped 158: 3 not Kubernetes objects, 3 Go test inputs, 8 patches, 63 test assertions and negative tests, 10 CRDs, 71 kinds without a CRD",
			copies: []string{
				"bundle/community/manifests/opentelemetry.io_instrumentations.yaml:1: 5 differing definitions of CustomResourceDefinition instrumentations.opentelemetry.io: objects are checked against bundle/community/manifests/opentelemetry.io_instrumentations.yaml:1;",
				"config/crd/bases/opentelemetry.io_opentelemetrycollectors.yaml:2: 2 differing definitions of CustomResourceDefinition opentelemetrycollectors.opentelemetry.io: objects are checked against config/crd/bases/opentelemetry.io_opentelemetrycollectors.yaml:2;",
			}},
	},
	crd: "config/crd/bases/opentelemetry.io_opampbridges.yaml", crdKey: "group: opentelemetry.io",
	cr: "config/samples/core_v1beta1_opentelemetrycollector.yaml",
}, {
	// grafana/grafana-operator v5.24.0: 14 kubebuilder patches, chainsaw
	// tests, a Helm chart whose CRD sub-chart is a symbolic link, custom
	// resources holding Grafana's own Go templates (alerting templates).
	dir: "grafana-grafana-operator-v5.24.0", real: true,
	pins: map[string]ciPin{
		// Before: exit 1 with 126 false errors on the 14 patches.
		"check": {exit: 0, notice: "109 files, 162 documents: 16 checked, 0 with errors (0 errors); skipped 146: 7 not Kubernetes objects, 16 templates, 14 patches, 37 test assertions and negative tests, 72 not CRDs"},
		// Before: exit 1 with 52 errors, 1 true; 43 in assertion files,
		// 6 on chainsaw bindings, 2 on a Helm snippet of an example
		// ({{ .Files.Get }} in a bytes field); and 14 custom resources
		// with Go templates in their values never checked. Now those 14
		// are checked (clean), and the one true error stays: the
		// scaffolded sample's spec holds only a TODO comment, so it is
		// null and the apiserver requires it.
		"apply": {exit: 1, notice: "109 files, 162 documents: 63 checked, 1 with errors (1 error); skipped 99: 7 not Kubernetes objects, 16 templates, 14 patches, 37 test assertions and negative tests, 16 CRDs, 9 kinds without a CRD",
			errors: []string{"config/samples/grafana_v1beta1_grafananotificationpolicyroute.yaml:11: GrafanaNotificationPolicyRoute/grafananotificationpolicyroute-sample: spec: Required value"}},
	},
	crd: "config/crd/bases/grafana.integreatly.org_grafanafolders.yaml", crdKey: "group: grafana.integreatly.org",
	cr: "examples/folder/permissions/resources.yaml",
	templated: map[string]int{
		"config/samples/grafana_v1beta1_grafananotificationtemplate.yaml": 1,
		"examples/notification_template/resources.yaml":                   1,
		"tests/e2e/example-test/12-notification-template.yaml":            1,
		"tests/example-resources.yaml":                                    11,
	},
}, {
	// argoproj-labs/argocd-operator v0.18.0: kubebuilder patches, kuttl
	// tests (NN-assert, NN-errors, TestStep, TestAssert), and the OLM
	// catalog of old releases with v1beta1 CRDs, copies of the CRDs that
	// differ from config/crd/bases.
	dir: "argoproj-labs-argocd-operator-v0.18.0", real: true,
	pins: map[string]ciPin{
		// Before: exit 1 with 43 errors, 36 on the 4 patches. The 7 left
		// are true by today's apiserver, on CRDs of releases 0.0.2 and
		// 0.0.11 kept in the OLM catalog (v1beta1 CRDs without a schema,
		// which the apiserver converts to v1 and refuses; each error now
		// says so): a maintainer excludes deploy/olm-catalog, the README
		// shows how.
		"check": {exit: 1, notice: "117 files, 276 documents: 14 checked, 5 with errors (7 errors); skipped 262: 2 not Kubernetes objects, 4 patches, 160 test assertions and negative tests, 96 not CRDs",
			errors: []string{
				"deploy/olm-catalog/argocd-operator/0.0.11/argoproj.io_appprojects_crd.yaml:8: CustomResourceDefinition/appprojects.argoproj.io: spec.preserveUnknownFields: Invalid value: true",
				"deploy/olm-catalog/argocd-operator/0.0.11/argoproj.io_argocdexports_crd.yaml:5: CustomResourceDefinition/argocdexports.argoproj.io: spec.preserveUnknownFields: Invalid value: true",
				"deploy/olm-catalog/argocd-operator/0.0.2/argocd-operator-application.crd.yaml:8: CustomResourceDefinition/applications.argoproj.io: spec.preserveUnknownFields: Invalid value: true",
				"deploy/olm-catalog/argocd-operator/0.0.2/argocd-operator-application.crd.yaml:31: CustomResourceDefinition/applications.argoproj.io: spec.validation.openAPIV3Schema.properties[metadata]: Forbidden",
				"deploy/olm-catalog/argocd-operator/0.0.2/argocd-operator-appproject.crd.yaml:8: CustomResourceDefinition/appprojects.argoproj.io: spec.preserveUnknownFields: Invalid value: true",
				"deploy/olm-catalog/argocd-operator/0.0.2/argocd-operator-appproject.crd.yaml:35: CustomResourceDefinition/appprojects.argoproj.io: spec.validation.openAPIV3Schema.properties[metadata]: Forbidden",
				"deploy/olm-catalog/argocd-operator/0.0.2/argocd-operator-argocd.crd.yaml:5: CustomResourceDefinition/argocds.argoproj.io: spec.preserveUnknownFields: Invalid value: true",
			}},
		// Before: exit 1 with 18 errors, 8 false ones in kuttl assertion
		// files (Applications asserted by status alone). The 10 left are
		// true: 2 scaffolded samples with a null spec; an example in
		// v1alpha1's ingress: true form and one with spec.dex, which
		// v1beta1 removed; a kuttl step's typo managedFieldManagers (the
		// CRD declares managedFieldsManagers, which the error suggests);
		// a kuttl step setting v1beta1-only fields at v1alpha1.
		"apply": {exit: 1, notice: "117 files, 276 documents: 49 checked, 6 with errors (10 errors); skipped 227: 2 not Kubernetes objects, 4 patches, 160 test assertions and negative tests, 14 CRDs, 47 kinds without a CRD",
			errors: []string{
				"config/samples/argoproj.io_v1alpha1_application.yaml:5: Application/example: spec: Required value",
				"config/samples/argoproj.io_v1alpha1_appproject.yaml:5: AppProject/example: spec: Required value",
				"examples/argocd-insights.yaml:1: ArgoCD/example-argocd: <nil>: Invalid value: null: some validation rules were not checked",
				"examples/argocd-insights.yaml:10: ArgoCD/example-argocd: spec.grafana.ingress: Invalid value: \"boolean\"",
				"examples/argocd-insights.yaml:13: ArgoCD/example-argocd: spec.prometheus.ingress: Invalid value: \"boolean\"",
				"examples/argocd-insights.yaml:15: ArgoCD/example-argocd: spec.server.ingress: Invalid value: \"boolean\"",
				"examples/argocd-oauth.yaml:8: ArgoCD/example-argocd: spec.dex: Not found",
				"tests/k8s/1-025_validate_resource_ignore_differences/01-argocd-with-resource-ignore-difference.yaml:27: ArgoCD/example-argocd: spec.resourceIgnoreDifferences.resourceIdentifiers[0].customization.managedFieldManagers: Not found: unknown field \"spec.resourceIgnoreDifferences.resourceIdentifiers[0].customization.managedFieldManagers\"; did you mean \"spec.resourceIgnoreDifferences.resourceIdentifiers[0].customization.managedFieldsManagers\"?",
				"tests/k8s/1-043_validate_cleanup_when_using_remote/02-add-remote.yaml:9: ArgoCD/example-argocd: spec.redis.remote: Not found",
				"tests/k8s/1-043_validate_cleanup_when_using_remote/02-add-remote.yaml:11: ArgoCD/example-argocd: spec.repo.remote: Not found",
			},
			// Four CRDs have copies that differ (bundle/manifests, the OLM
			// catalog's v1beta1 releases): one warning each; the rejected
			// v1beta1 copies are never the ones used.
			copies: []string{
				"bundle/manifests/argoproj.io_argocdexports.yaml:1: 3 differing definitions of CustomResourceDefinition argocdexports.argoproj.io: objects are checked against bundle/manifests/argoproj.io_argocdexports.yaml:1;",
				"config/crd/bases/argoproj.io_applications.yaml:1: 2 differing definitions of CustomResourceDefinition applications.argoproj.io: objects are checked against config/crd/bases/argoproj.io_applications.yaml:1;",
				"config/crd/bases/argoproj.io_appprojects.yaml:1: 3 differing definitions of CustomResourceDefinition appprojects.argoproj.io: objects are checked against config/crd/bases/argoproj.io_appprojects.yaml:1;",
				"config/crd/bases/argoproj.io_argocds.yaml:2: 2 differing definitions of CustomResourceDefinition argocds.argoproj.io: objects are checked against config/crd/bases/argoproj.io_argocds.yaml:2;",
			}},
	},
	crd: "config/crd/bases/argoproj.io_argocdexports.yaml", crdKey: "group: argoproj.io",
	cr:           "examples/argocdexport-basic.yaml",
	templatedCRD: "config/crd/bases/argocd-image-updater.argoproj.io_imageupdaters.yaml",
	templated: map[string]int{
		"config/samples/argoproj.io_v1alpha1_notificationsconfiguration.yaml": 1,
		"examples/notificationsconfiguration.yaml":                            1,
	},
}}

// fixtureRepos are our own miniature trees, then the real ones.
func fixtureRepos() []fixtureRepo {
	return slices.Concat(ownRepos, realRepos)
}

// TestFixtureRepositories runs the README's CI recipe on each fixture
// repository and checks the pinned verdict, summary and errors.
func TestFixtureRepositories(t *testing.T) {
	for _, repo := range fixtureRepos() {
		for _, verb := range []string{"check", "apply"} {
			t.Run(repo.dir+"/"+verb, func(t *testing.T) {
				dir := fixtureRepoDir(t, repo)
				pin := repo.pins[verb]
				got := runRecipe(t, dir, verb)
				if got.exit != pin.exit || got.notice != pin.notice || got.stderr != "" {
					t.Errorf("exit %d, summary\n%s\nstderr %q\nwant exit %d, summary\n%s", got.exit, got.notice, got.stderr, pin.exit, pin.notice)
				}
				checkPrefixes(t, "errors", got.errors, pin.errors)
				checkPrefixes(t, "warnings about differing CRD copies", got.copies, pin.copies)
			})
		}
	}
}

// checkPrefixes checks that got has as many lines as want, each starting
// with the one of want at its place.
func checkPrefixes(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d %s, want %d:\n%s", len(got), what, len(want), strings.Join(got, "\n"))
		return
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("%s %d:\n%s\nwant it to start with\n%s", what, i, got[i], w)
		}
	}
}

// TestFixtureRepositoriesBroken breaks a copy of each fixture repository
// in four ways, one at a time (a YAML syntax error in a CRD, one in a
// custom resource, an unknown field, a missing required field), and in
// its files with Go templates (breakages), and requires the CI recipe to
// fail (exit 1) with an error on the file and line broken.
func TestFixtureRepositoriesBroken(t *testing.T) {
	for _, repo := range fixtureRepos() {
		for _, c := range breakages(repo) {
			t.Run(repo.dir+"/"+c.name, func(t *testing.T) {
				dir := copyTree(t, fixtureRepoDir(t, repo))
				file, line, msg := c.breakIt(t, dir)
				got := runRecipe(t, dir, c.verb)
				if got.exit != 1 {
					t.Errorf("exit %d, want 1", got.exit)
				}
				if !hasError(got.errors, file, line, msg) {
					t.Errorf("no error on %s:%d with %q among\n%s", file, line, msg, strings.Join(got.errors, "\n"))
				}
			})
		}
	}
}

// breakage is one way TestFixtureRepositoriesBroken breaks a copy of a
// fixture repository, and the verb of the recipe that must fail.
type breakage struct {
	name, verb string
	// breakIt breaks the copy in dir and returns the file and line the
	// error must be on and a part of its message.
	breakIt func(t *testing.T, dir string) (file string, line int, msg string)
}

// breakages are the ways to break repo: the four of the issue, and a
// syntax error in a file whose text holds Go template actions (a CRD
// whose descriptions show templates, a custom resource holding templates
// of its own), which must not pass for a template.
func breakages(repo fixtureRepo) []breakage {
	out := []breakage{
		{"syntax error in a CRD", "check", syntaxError(repo.crd, repo.crdKey)},
		{"syntax error in a custom resource", "apply", syntaxError(repo.cr, "name:")},
		{"unknown field", "apply", func(t *testing.T, dir string) (string, int, string) {
			f := filepath.Join(dir, repo.cr)
			n := lineOf(t, f, "spec:")
			editLine(t, f, n, func(l string) []string { return []string{l, indentOf(t, f, n) + "  replicaz: 1"} })
			return repo.cr, n + 1, `spec.replicaz: Not found: unknown field "spec.replicaz"`
		}},
		{"missing required field", "apply", func(t *testing.T, dir string) (string, int, string) {
			f := filepath.Join(dir, repo.cr)
			meta := lineOf(t, f, "metadata:")
			editLine(t, f, lineOf(t, f, "name:"), func(string) []string { return nil })
			return repo.cr, meta, "metadata.name: Required value: name or generateName is required"
		}},
	}
	if repo.templatedCRD != "" {
		out = append(out, breakage{"syntax error in a CRD showing Go templates", "check", syntaxError(repo.templatedCRD, "name:")})
	}
	if len(repo.templated) > 0 {
		first := slices.Sorted(maps.Keys(repo.templated))[0]
		out = append(out, breakage{"syntax error in a templated custom resource", "apply", syntaxError(first, "name:")})
	}
	return out
}

// syntaxError breaks the first line of file (relative to the copy) that
// starts with key: a stray ": x" at its end is a YAML syntax error on that
// line.
func syntaxError(file, key string) func(t *testing.T, dir string) (string, int, string) {
	return func(t *testing.T, dir string) (string, int, string) {
		f := filepath.Join(dir, file)
		n := lineOf(t, f, key)
		editLine(t, f, n, func(l string) []string { return []string{l + ": x"} })
		return file, n, "does not parse"
	}
}

// TestFixtureRepositoriesRoles checks, on the -o json output of the
// recipe's apply, that no error is on a file the layout says is a patch, a
// test assertion, a negative test or a script input (0 false errors there:
// they are skipped by role; a kuttl step updating an earlier step's object
// is checked, as a merge into it), and that every templated custom
// resource that parses is checked.
func TestFixtureRepositoriesRoles(t *testing.T) {
	for _, repo := range fixtureRepos() {
		t.Run(repo.dir, func(t *testing.T) {
			dir := fixtureRepoDir(t, repo)
			tree, err := layout.Scan(os.DirFS(dir))
			if err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			out, _, _ := runCmd(t, nil, "apply", "--skip-unknown-kinds", "--strict", "-o", "json", ".")
			checked := map[string]int{}
			for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
				var line struct {
					File    string
					Skipped *string
					Errors  []json.RawMessage
				}
				if err := json.Unmarshal([]byte(l), &line); err != nil {
					t.Fatalf("%v: %s", err, l)
				}
				if line.Skipped == nil {
					checked[line.File]++
				}
				if role := tree.Of(line.File).Role; len(line.Errors) > 0 && role != layout.Manifest && role != layout.Update {
					t.Errorf("%s: %d errors on a %s", line.File, len(line.Errors), role)
				}
			}
			for file, n := range repo.templated {
				if checked[file] != n {
					t.Errorf("%s: %d documents checked, want %d", file, checked[file], n)
				}
			}
		})
	}
}
