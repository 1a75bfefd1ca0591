package layout_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/crdschema/crdschema/layout"
)

// repo is a small tree with each layout this package reads: a kubebuilder
// config with kustomize patches and an overlay, a chainsaw test with a step
// template, a manifest-based test, a kuttl test, and a chart with a
// sub-chart.
var repo = fstest.MapFS{
	"config/crd/kustomization.yaml": {Data: []byte(`resources:
- bases/a.yaml
patches:
- path: patches/webhook_in_as.yaml
#- path: patches/cainjection_in_as.yaml
patchesStrategicMerge:
- patches/legacy.yaml
- |-
  apiVersion: v1
  kind: Inline
`)},
	"config/crd/bases/a.yaml":                   {Data: []byte("kind: CustomResourceDefinition\n")},
	"config/crd/patches/webhook_in_as.yaml":     {Data: []byte("kind: CustomResourceDefinition\n")},
	"config/crd/patches/cainjection_in_as.yaml": {Data: []byte("kind: CustomResourceDefinition\n")},
	"config/crd/patches/legacy.yaml":            {Data: []byte("kind: CustomResourceDefinition\n")},
	"config/overlays/x/kustomization.yaml": {Data: []byte(`apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
patches:
- path: remove.yaml
  target: {kind: CustomResourceDefinition}
patchesJson6902:
- path: ../../crd/json.yaml
`)},
	"config/overlays/x/remove.yaml": {Data: []byte("kind: CustomResourceDefinition\n")},
	"config/crd/json.yaml":          {Data: []byte("[]\n")},
	"config/samples/00-sample.yaml": {Data: []byte("kind: A\n")},

	"tests/e2e/t1/chainsaw-test.yaml": {Data: []byte(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t1
spec:
  steps:
  - try:
    - apply:
        file: 00-install.yaml
    - assert:
        file: 00-assert.yaml
    - apply:
        file: bad.yaml
        expect:
        - check:
            ($error != null): true
    - apply:
        file: good-expect.yaml
        expect:
        - check:
            ($error == null): true
    - error:
        file: gone.yaml
    - patch:
        file: p.yaml
    - assert:
        file: asserts/*.yaml
    - apply:
        file: 08-x.yaml
    - assert:
        file: 08-x.yaml
    - apply:
        file: ../shared/common.yaml
    - assert:
        file: https://example.com/remote.yaml
    - script:
        content: |
          kubectl apply -f neg.yaml
        check:
          ($error != null): true
    - command:
        entrypoint: kubectl
        args: [create, -f, cmd.yaml]
  - use:
      template: ../../templates/st.yaml
  catch:
  - delete:
      file: cleanup.yaml
---
apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t1-second
spec:
  steps:
  - try:
    - create:
        file: resources
`)},
	"tests/e2e/t1/00-install.yaml":             {Data: []byte("kind: A\n")},
	"tests/e2e/t1/00-assert.yaml":              {Data: []byte("kind: A\n")},
	"tests/e2e/t1/bad.yaml":                    {Data: []byte("kind: A\n")},
	"tests/e2e/t1/good-expect.yaml":            {Data: []byte("kind: A\n")},
	"tests/e2e/t1/gone.yaml":                   {Data: []byte("kind: A\n")},
	"tests/e2e/t1/p.yaml":                      {Data: []byte("kind: A\n")},
	"tests/e2e/t1/asserts/one.yaml":            {Data: []byte("kind: A\n")},
	"tests/e2e/t1/asserts/two.yaml":            {Data: []byte("kind: A\n")},
	"tests/e2e/t1/08-x.yaml":                   {Data: []byte("kind: A\n")},
	"tests/e2e/t1/cleanup.yaml":                {Data: []byte("kind: A\n")},
	"tests/e2e/t1/from-template.yaml":          {Data: []byte("kind: A\n")},
	"tests/e2e/t1/resources/r1.yaml":           {Data: []byte("kind: A\n")},
	"tests/e2e/t1/unreferenced.yaml":           {Data: []byte("kind: A\n")},
	"tests/e2e/t1/neg.yaml":                    {Data: []byte("kind: A\n")},
	"tests/e2e/t1/cmd.yaml":                    {Data: []byte("kind: A\n")},
	"tests/e2e/t1/exception-assert.yaml":       {Data: []byte("kind: A\n")},
	"tests/e2e/t1/errors.yaml":                 {Data: []byte("kind: A\n")},
	"tests/e2e/shared/common.yaml":             {Data: []byte("kind: A\n")},
	"tests/e2e/shared/not-used.yaml":           {Data: []byte("kind: A\n")},
	"tests/templates/st.yaml":                  {Data: []byte("apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: StepTemplate\nspec:\n  try:\n  - assert:\n      file: from-template.yaml\n")},
	"tests/e2e/t2/00-apply.yaml":               {Data: []byte("kind: A\n")},
	"tests/e2e/t2/00-assert.yaml":              {Data: []byte("kind: A\n")},
	"tests/e2e/t2/01-errors.yaml":              {Data: []byte("kind: A\n")},
	"tests/e2e/t2/01-error.yaml":               {Data: []byte("kind: A\n")},
	"tests/e2e/t2/02-Assert-more.yaml":         {Data: []byte("kind: A\n")},
	"tests/k8s/k1/00-step.yaml":                {Data: []byte("apiVersion: kuttl.dev/v1beta1\nkind: TestStep\napply:\n- res/a.yaml\nassert:\n- res/b.yaml\nerror:\n- res/c.yaml\n---\nkind: A\n")},
	"tests/k8s/k1/res/a.yaml":                  {Data: []byte("kind: A\n")},
	"tests/k8s/k1/res/b.yaml":                  {Data: []byte("kind: A\n")},
	"tests/k8s/k1/res/c.yaml":                  {Data: []byte("kind: A\n")},
	"tests/k8s/k1/01-assert.yaml":              {Data: []byte("apiVersion: kuttl.dev/v1beta1\nkind: TestAssert\n")},
	"deploy/chart/Chart.yaml":                  {Data: []byte("name: chart\n")},
	"deploy/chart/templates/x.yaml":            {Data: []byte("{{ .Values.x }}\n")},
	"deploy/chart/crds/c.yaml":                 {Data: []byte("kind: CustomResourceDefinition\n")},
	"deploy/chart/charts/sub/Chart.yaml":       {Data: []byte("name: sub\n")},
	"deploy/chart/charts/sub/templates/y.yaml": {Data: []byte("{{ .Values.y }}\n")},
	"broken/kustomization.yaml":                {Data: []byte("patches: [\n")},
	"broken/p.yaml":                            {Data: []byte("kind: A\n")},
}

func TestScan(t *testing.T) {
	tree, err := layout.Scan(repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file     string
		role     layout.Role
		by       string
		chart    string
		bindings bool
	}{
		{file: "config/crd/bases/a.yaml"},
		{file: "config/crd/patches/webhook_in_as.yaml", role: layout.Patch, by: "kustomize patch named in config/crd/kustomization.yaml:1"},
		{file: "config/crd/patches/cainjection_in_as.yaml", role: layout.Patch, by: "kubebuilder's scaffolded patch name"},
		{file: "config/crd/patches/legacy.yaml", role: layout.Patch, by: "kustomize patch named in config/crd/kustomization.yaml:1"},
		{file: "config/overlays/x/remove.yaml", role: layout.Patch, by: "kustomize patch named in config/overlays/x/kustomization.yaml:1"},
		{file: "config/crd/json.yaml", role: layout.Patch, by: "kustomize patch named in config/overlays/x/kustomization.yaml:1"},
		{file: "config/samples/00-sample.yaml"},

		{file: "tests/e2e/t1/00-install.yaml", by: "chainsaw apply in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true},
		{file: "tests/e2e/t1/00-assert.yaml", role: layout.Assertion, by: "chainsaw assert in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true},
		{file: "tests/e2e/t1/bad.yaml", role: layout.Negative, by: "chainsaw apply in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true},
		{file: "tests/e2e/t1/good-expect.yaml", by: "chainsaw apply in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true},
		{file: "tests/e2e/t1/gone.yaml", role: layout.Assertion, by: "chainsaw error in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true},
		{file: "tests/e2e/t1/p.yaml", role: layout.Patch, by: "chainsaw patch in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true},
		{file: "tests/e2e/t1/asserts/one.yaml", role: layout.Assertion, by: "chainsaw assert in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true},
		{file: "tests/e2e/t1/asserts/two.yaml", role: layout.Assertion, by: "chainsaw assert in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true},
		{file: "tests/e2e/t1/08-x.yaml", by: "chainsaw apply in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true}, // applied and asserted: a create request
		{file: "tests/e2e/t1/cleanup.yaml", role: layout.Assertion, by: "chainsaw delete in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true},
		{file: "tests/e2e/t1/from-template.yaml", role: layout.Assertion, by: "chainsaw assert in tests/templates/st.yaml:1", bindings: true},
		{file: "tests/e2e/t1/resources/r1.yaml", by: "chainsaw create in tests/e2e/t1/chainsaw-test.yaml:50", bindings: true},
		{file: "tests/e2e/t1/unreferenced.yaml", bindings: true},
		{file: "tests/e2e/t1/neg.yaml", role: layout.Negative, by: "chainsaw script (kubectl) in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true},
		{file: "tests/e2e/t1/cmd.yaml", by: "chainsaw command (kubectl) in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true},
		{file: "tests/e2e/t1/exception-assert.yaml", role: layout.Assertion, by: "file name in the chainsaw test tests/e2e/t1/chainsaw-test.yaml", bindings: true},
		{file: "tests/e2e/t1/errors.yaml", role: layout.Assertion, by: "file name in the chainsaw test tests/e2e/t1/chainsaw-test.yaml", bindings: true},
		{file: "tests/e2e/shared/common.yaml", by: "chainsaw apply in tests/e2e/t1/chainsaw-test.yaml:1", bindings: true},
		{file: "tests/e2e/shared/not-used.yaml"},

		{file: "tests/e2e/t2/00-apply.yaml"},
		{file: "tests/e2e/t2/00-assert.yaml", role: layout.Assertion, by: "test step file name (kuttl, chainsaw)"},
		{file: "tests/e2e/t2/01-errors.yaml", role: layout.Assertion, by: "test step file name (kuttl, chainsaw)"},
		{file: "tests/e2e/t2/01-error.yaml", role: layout.Assertion, by: "test step file name (kuttl, chainsaw)"},
		{file: "tests/e2e/t2/02-Assert-more.yaml", role: layout.Assertion, by: "test step file name (kuttl, chainsaw)"},

		{file: "tests/k8s/k1/res/a.yaml", by: "kuttl TestStep apply in tests/k8s/k1/00-step.yaml:1"},
		{file: "tests/k8s/k1/res/b.yaml", role: layout.Assertion, by: "kuttl TestStep assert in tests/k8s/k1/00-step.yaml:1"},
		{file: "tests/k8s/k1/res/c.yaml", role: layout.Assertion, by: "kuttl TestStep error in tests/k8s/k1/00-step.yaml:1"},
		{file: "tests/k8s/k1/00-step.yaml"},

		{file: "deploy/chart/templates/x.yaml", chart: "deploy/chart"},
		{file: "deploy/chart/crds/c.yaml", chart: "deploy/chart"},
		{file: "deploy/chart/charts/sub/templates/y.yaml", chart: "deploy/chart/charts/sub"},
		{file: "./deploy/chart/Chart.yaml", chart: "deploy/chart"},

		{file: "broken/p.yaml"}, // the kustomization does not parse: it names nothing
		{file: "not/in/the/tree.yaml"},
	} {
		got := tree.Of(c.file)
		want := layout.Place{Role: c.role, By: c.by, Chart: c.chart, Bindings: c.bindings}
		if got != want {
			t.Errorf("%s: got %+v, want %+v", c.file, got, want)
		}
	}
}

func TestRoleString(t *testing.T) {
	for r, want := range map[layout.Role]string{layout.Manifest: "manifest", layout.Patch: "patch", layout.Assertion: "test assertion", layout.Negative: "negative test", layout.Input: "script input", layout.Update: "test update"} {
		if got := r.String(); got != want {
			t.Errorf("%d: %q, want %q", r, got, want)
		}
	}
}

func TestPlaceholder(t *testing.T) {
	for _, c := range []struct {
		value    string
		bindings bool
		want     bool
	}{
		{"{{ .Values.x }}", false, true},
		{"prefix-{{.path.basename}}-suffix", false, true},
		{"{{- (.Files.Get \"x\") | b64enc }}", false, true},
		{"($namespace)", true, true},
		{"(join('-', [$namespace, 'x']))", true, true},
		{"($namespace)", false, false},
		{"{{ unterminated", false, false},
		{"}} {{", false, false},
		{"()", true, false},
		{"(a", true, false},
		{"plain", true, false},
		{"", true, false},
		{"${REPO_NAME}", false, true},
		{"ssh://git@github.com/example/${REPO_NAME}", false, true},
		{"${REPO_NAMESPACE:=flux-system}", false, true},
		{"${cluster_env:-dev}-app", false, true},
		{"${#name}", false, true},
		{"${_x1}", false, true},
		{"$${REPO_NAME}", false, false},
		{"$${a} and ${b}", false, true},
		{"${1abc}", false, false},
		{"${}", false, false},
		{"${name", false, false},
		{"$name", false, false},
		{"$(VAR)", false, false},
		{"${", false, false},
		{"x${", false, false},
		{strings.Repeat("${a", 1000), false, false},
		{strings.Repeat("${a", 1000) + "}", false, true},
		{"}" + strings.Repeat("${a", 1000), false, false},
		{"${1a} ${b}", false, true},
		{"${a ${b", false, false},
	} {
		if got := layout.Placeholder(c.value, c.bindings); got != c.want {
			t.Errorf("Placeholder(%q, %v) = %v, want %v", c.value, c.bindings, got, c.want)
		}
	}
}

// BenchmarkPlaceholderUnclosed is Placeholder on 1 MB of unclosed
// variables ("${a" repeated), which a lint meets in any string value with
// an error: one pass over the value (it once searched the rest of the
// value for a "}" at each name: 20 s).
func BenchmarkPlaceholderUnclosed(b *testing.B) {
	v := strings.Repeat("${a", 1<<20/3)
	b.SetBytes(int64(len(v)))
	for b.Loop() {
		if layout.Placeholder(v, false) {
			b.Fatal("unclosed variables: a placeholder")
		}
	}
}

// Any chainsaw test, kustomization or kuttl step (also as the steps of a
// kuttl test), however malformed, is scanned without a panic, and every
// place it gives is one of the roles.
func FuzzScan(f *testing.F) {
	for _, name := range []string{"tests/e2e/t1/chainsaw-test.yaml", "config/crd/kustomization.yaml", "tests/k8s/k1/00-step.yaml", "tests/templates/st.yaml"} {
		f.Add(string(repo[name].Data))
	}
	f.Add("spec: {steps: [{use: {template: ../../../x}}, {try: [{apply: {file: '['}}]}]}")
	f.Add(string(kuttlRepo["e2e/tests/t1/05-step.yaml"].Data))
	f.Add(string(kuttlRepo["e2e/tests/t1/00-assert.yaml"].Data))
	f.Fuzz(func(t *testing.T, text string) {
		fsys := fstest.MapFS{
			"t/chainsaw-test.yaml": {Data: []byte(text)},
			"t/kustomization.yaml": {Data: []byte(text)},
			"t/a.yaml":             {Data: []byte("kind: A\n")},
			// A kuttl test: steps read for their objects and commands.
			"k/00-step.yaml":   {Data: []byte(text)},
			"k/01-step.yaml":   {Data: []byte(text)},
			"k/01-assert.yaml": {Data: []byte(text)},
			"k/sub/b.yaml":     {Data: []byte("kind: A\n")},
		}
		tree, err := layout.Scan(fsys)
		if err != nil {
			t.Fatal(err)
		}
		for name := range fsys {
			if p := tree.Of(name); p.Role < layout.Manifest || p.Role > layout.Update {
				t.Errorf("%s: role %d", name, p.Role)
			}
		}
	})
}
