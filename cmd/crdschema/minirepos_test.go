package main

// Our own miniature repositories, under testdata/repos/: written for these
// tests (a made-up group, toys.crdschema.dev, with Widgets, Gadgets and
// Notifiers), each reproducing the layout of one of the real fixture
// repositories (repos_test.go), so that every rule of the CI recipe runs on
// every test run, with or without the real trees. Their pins, the
// breakage test and the roles test are those of the real trees.
var ownRepos = []fixtureRepo{{
	// The shape of opentelemetry-operator: kubebuilder's config/crd
	// (bases, kustomization, webhook and cainjection patches), an OpenShift
	// overlay whose kustomization patches both CRDs, config/samples, an OLM
	// bundle copy of the Widget CRD whose description differs, the old
	// release manifest an upgrade test installs (a third, older Widget
	// CRD), chainsaw tests (apply, assert, error, patch, a step template
	// asserting a file of the test, scripts and commands running kubectl
	// apply, negative tests by "($error != null): true", by an expected
	// "($error)" message and by a script's check, bindings such as
	// ($namespace) in applied objects), .chainsaw.yaml, Go test inputs
	// broken on purpose, renovate.json. A maintainer wants it green.
	dir: "kubebuilder-chainsaw",
	pins: map[string]ciPin{
		// 37 files, 41 documents. Checked: the 4 CRDs (2 bases, the
		// bundle's Widget, the upgrade test's v0.1.0 Widget), all valid.
		// Skipped: 6 not objects (renovate.json, the Go test's
		// relay.yaml, 4 kustomization files); 2 Go test inputs that do
		// not parse (cmd/relay/testdata: an unclosed flow sequence, a
		// tab); 5 patches (the 2 kubebuilder patches, the overlay's 2
		// partial CRDs, the chainsaw patch 01-scale.yaml); 10 test
		// documents (7 assertions and errors, of which widget-status.yaml
		// is named only by the step template; 3 negative tests: two
		// applies expecting an error, one kubectl script checking one);
		// 14 other objects.
		"check": {exit: 0, notice: "37 files, 41 documents: 4 checked, 0 with errors (0 errors); skipped 37: 6 not Kubernetes objects, 2 Go test inputs, 5 patches, 10 test assertions and negative tests, 14 not CRDs"},
		// Checked: the 7 objects the repository applies (2 samples, 2
		// chainsaw applies, one by script, one by a kubectl command, the
		// deployment the validation test expects to pass), all valid:
		// 00-install.yaml's ($namespace) and ($replicas) bindings are
		// values chainsaw fills in, not errors. The negative tests
		// (whose objects break the CRD's CEL rules and a required field),
		// the assertions (partial objects, a JMESPath key) and the patch
		// would each be an error if checked. 7 kinds without a CRD:
		// chainsaw's Configuration, 3 Tests and a StepTemplate, the
		// release manifest's Namespace and Deployment.
		"apply": {exit: 0, notice: "37 files, 41 documents: 7 checked, 0 with errors (0 errors); skipped 34: 6 not Kubernetes objects, 2 Go test inputs, 5 patches, 10 test assertions and negative tests, 4 CRDs, 7 kinds without a CRD",
			// Three differing Widget CRDs (bundle, base, old release):
			// one warning; the first accepted in walk order checks.
			copies: []string{"bundle/manifests/toys.crdschema.dev_widgets.yaml:1: 3 differing definitions of CustomResourceDefinition widgets.toys.crdschema.dev: objects are checked against bundle/manifests/toys.crdschema.dev_widgets.yaml:1; not against config/crd/bases/toys.crdschema.dev_widgets.yaml:4, tests/e2e-upgrade/upgrade-test/toys-operator-v0.1.0.yaml:9"}},
	},
	crd: "config/crd/bases/toys.crdschema.dev_gadgets.yaml", crdKey: "group: toys.crdschema.dev",
	cr: "config/samples/toys_v1alpha1_gadget.yaml",
}, {
	// The shape of grafana-operator: kubebuilder patches that the
	// kustomization leaves commented out (known by their scaffolded names),
	// a Helm chart (Chart.yaml, values.yaml, templates that do not parse,
	// one that does, a crds sub-chart whose crds/ is a symbolic link to
	// ../../files/crds), the CRDs three times, identical (bases, the
	// chart's files/crds, deploy/kustomize/base/crds.yaml), custom
	// resources holding Go templates of their own (a Widget's message) and
	// a Helm action in a bytes field of an example, chainsaw tests with
	// bindings such as (env('WIDGET_IMAGE')) and (semver_compare(...)).
	dir: "helm-chart",
	pins: map[string]ciPin{
		// 36 files, 41 documents. Checked: the 6 CRDs (2 × 3 copies; the
		// symbolic link is not followed, or there would be 8), valid,
		// though the Widget's descriptions hold {{ }}. Skipped: 5 not
		// objects (.ko.yaml, 2 Chart.yaml, values.yaml, the
		// kustomization of config/crd); 4 templates (3 chart templates
		// that do not parse, one of them 2 documents); 4 patches (by
		// kubebuilder's names); 4 chainsaw assertions; 18 other objects.
		"check": {exit: 0, notice: "36 files, 41 documents: 6 checked, 0 with errors (0 errors); skipped 35: 5 not Kubernetes objects, 4 templates, 4 patches, 4 test assertions and negative tests, 18 not CRDs"},
		// Checked: 14 objects, 10 of them with Go template actions in
		// their values (see templated), the chart template that parses
		// among them. One true error: the scaffolded Gadget sample's spec
		// holds only a TODO comment, so it is null, and the CRD requires
		// it. Not errors: the bindings of the chainsaw test, the chart
		// template's templated name and resyncPeriod, and the Helm action
		// in the example's bytes field (values filled in later). 4 kinds
		// without a CRD: chainsaw's Configuration and 2 Tests, the
		// Kustomization of deploy/kustomize/base.
		"apply": {exit: 1, notice: "36 files, 41 documents: 14 checked, 1 with errors (1 error); skipped 27: 5 not Kubernetes objects, 4 templates, 4 patches, 4 test assertions and negative tests, 6 CRDs, 4 kinds without a CRD",
			errors: []string{"config/samples/toys_v1beta1_gadget.yaml:7: Gadget/gadget-sample: spec: Required value"}},
	},
	crd: "config/crd/bases/toys.crdschema.dev_gadgets.yaml", crdKey: "group: toys.crdschema.dev",
	cr:           "tests/e2e/examples/crossnamespace/resources.yaml",
	templatedCRD: "config/crd/bases/toys.crdschema.dev_widgets.yaml",
	templated: map[string]int{
		"config/samples/toys_v1beta1_widget.yaml":                 1,
		"deploy/helm/toys-operator/templates/default-widget.yaml": 1,
		"examples/notifier/resources.yaml":                        1,
		"examples/widget/resources.yaml":                          2,
		"examples/widget/with_bundle/resources.yaml":              1,
		"tests/e2e/example-test/01-message-template.yaml":         1,
		"tests/example-resources.yaml":                            3,
	},
}, {
	// The shape of argocd-operator: kubebuilder patches named in a
	// kustomization's patchesStrategicMerge, a CRD whose descriptions show
	// Go templates, kuttl tests (kuttl-tests.yaml, NN-assert.yaml,
	// NN-errors.yaml, a TestStep naming the files it applies, asserts and
	// expects absent), an OLM catalog keeping a released v1beta1 CRD, the
	// first release's v1beta1 CRD kept as an example (artifacts/examples,
	// first in walk order), the bundle's copy, custom resources with Go
	// templates in their values; and the errors a maintainer wants to
	// hear about.
	dir: "kuttl-olm",
	pins: map[string]ciPin{
		// 32 files, 33 documents. Checked: 6 CRDs, of which the 2 v1beta1
		// ones are rejected, each error saying what v1beta1 defaulting
		// and the conversion to v1 did (true by today's apiserver; a
		// maintainer excludes the archives). And one example does not
		// parse (a mis-indented key: go-yaml counts a parser error's
		// line from 0, so the line given is the one above the key).
		// Skipped: 3 not objects (2 kustomize files, the OLM package);
		// 2 patches; 6 kuttl assertions (4 by their NN-assert and
		// NN-errors names, 2 by the TestStep's assert and error lists);
		// 15 other objects.
		"check": {exit: 1, notice: "32 files, 33 documents: 6 checked, 2 with errors (4 errors), 1 unparsable; skipped 26: 3 not Kubernetes objects, 2 patches, 6 test assertions and negative tests, 15 not CRDs",
			errors: []string{
				"artifacts/examples/crd.yaml:7: CustomResourceDefinition/widgets.toys.crdschema.dev: spec.preserveUnknownFields: Invalid value: true",
				"artifacts/examples/crd.yaml:7: CustomResourceDefinition/widgets.toys.crdschema.dev: spec.versions[0].schema.openAPIV3Schema: Required value; this v1beta1 CRD has no schema",
				"deploy/olm-catalog/toys-operator/0.0.1/toys-operator-widget.crd.yaml:7: CustomResourceDefinition/widgets.toys.crdschema.dev: spec.preserveUnknownFields: Invalid value: true",
				"deploy/olm-catalog/toys-operator/0.0.1/toys-operator-widget.crd.yaml:25: CustomResourceDefinition/widgets.toys.crdschema.dev: spec.validation.openAPIV3Schema.properties[metadata]: Forbidden",
				"examples/widget-ha.yaml:8: document 0 does not parse: yaml: line 8: did not find expected key",
			}},
		// Checked: 12 objects (3 Notifiers with Go templates in their
		// values among them). 6 true errors: the scaffolded Widget
		// sample's null spec (required); the example that does not
		// parse; an example still in v1alpha1's form at v1beta1 (the
		// ingress flag, now an object) and one setting legacyAuth, which
		// v1beta1 removed; a kuttl step's typo managedFieldManagers (the
		// CRD declares managedFieldsManagers, which the error suggests);
		// a kuttl step's Gadget without its required widgetRef. The
		// v1alpha1 example is valid (deprecated: a warning). 3 kinds
		// without a CRD: kuttl's TestSuite and TestStep, OLM's
		// ClusterServiceVersion.
		"apply": {exit: 1, notice: "32 files, 33 documents: 12 checked, 5 with errors (5 errors), 1 unparsable; skipped 20: 3 not Kubernetes objects, 2 patches, 6 test assertions and negative tests, 6 CRDs, 3 kinds without a CRD",
			errors: []string{
				"config/samples/toys_v1beta1_widget.yaml:5: Widget/example: spec: Required value (checked against bundle/manifests/toys.crdschema.dev_widgets.yaml:3)",
				"examples/widget-ha.yaml:8: document 0 does not parse: yaml: line 8: did not find expected key",
				`examples/widget-ingress-flag.yaml:8: Widget/ingress-flag: spec.ingress: Invalid value: "boolean": spec.ingress in body must be of type object`,
				`examples/widget-legacy-auth.yaml:8: Widget/legacy: spec.legacyAuth: Not found: unknown field "spec.legacyAuth"`,
				`tests/k8s/1-001_widget_overrides/01-install.yaml:13: Widget/overrides: spec.resourceOverrides[1].managedFieldManagers: Not found: unknown field "spec.resourceOverrides[1].managedFieldManagers"; did you mean "spec.resourceOverrides[1].managedFieldsManagers"?`,
				"tests/k8s/1-002_gadget_required/01-install.yaml:12: Gadget/watcher: spec.widgetRef: Required value",
			},
			// Four Widget CRDs: the 2 rejected v1beta1 ones (the first
			// of all in walk order among them) are never used; the
			// bundle's copy, equal to the base, is.
			copies: []string{"bundle/manifests/toys.crdschema.dev_widgets.yaml:3: 4 differing definitions of CustomResourceDefinition widgets.toys.crdschema.dev: objects are checked against bundle/manifests/toys.crdschema.dev_widgets.yaml:3; not against artifacts/examples/crd.yaml:1 (rejected), config/crd/bases/toys.crdschema.dev_widgets.yaml:5, deploy/olm-catalog/toys-operator/0.0.1/toys-operator-widget.crd.yaml:1 (rejected)"}},
	},
	crd: "config/crd/bases/toys.crdschema.dev_gadgets.yaml", crdKey: "group: toys.crdschema.dev",
	cr:           "examples/widget-basic.yaml",
	templatedCRD: "config/crd/bases/toys.crdschema.dev_notifiers.yaml",
	templated: map[string]int{
		"config/samples/toys_v1alpha1_notifier.yaml": 1,
		"examples/notifier.yaml":                     1,
		"tests/k8s/1-003_notifier/01-notifier.yaml":  1,
	},
}, {
	// The shapes session 11 found in three repositories never used
	// before: external-secrets' documentation snippets wrapped in Jinja's
	// {% raw %} (mkdocs-macros; one file of two documents wrapped whole)
	// and its crd-to-sample-yaml snapshot tests (tests/__snapshot__,
	// skeletons with type names as values); percona-postgresql-operator's
	// kuttl tests (a step creating the object by script, an assertion of
	// it, later steps holding only the fields they change, yq overlays in
	// conf/, and, as argocd-operator's, a TestStep deleting the object
	// whose step makes it again: a create request, not an update); tekton's config/NNN-*.yaml and its .pre-commit-config.yaml
	// writing YAML 1.2's escape \/; a snippet elided with "..."; and
	// cloudnative-pg's .devcontainer/devcontainer.json, JSON with a
	// comment below its start (no Kubernetes object), beside a JSON
	// snippet of a Gadget with a comment (broken: kubectl cannot read it).
	dir: "docs-kuttl",
	pins: map[string]ciPin{
		// 18 files, 21 documents. Checked: the Gadget CRD. Two true
		// errors: the elided snippet is no YAML as written, the JSON
		// snippet has a comment. Skipped: 3 not objects (the snapshot
		// test's suite; the pre-commit config, YAML 1.2; the dev
		// container's JSON with a comment); 3 test documents (the kuttl assertion's 2, the
		// snapshot); 1 script input (conf/scale.yaml, which kuttl never
		// reads); 11 other documents (the snippets and step files are not
		// CRDs).
		"check": {exit: 1, notice: "18 files, 21 documents: 1 checked, 0 with errors (0 errors), 2 unparsable; skipped 18: 3 not Kubernetes objects, 3 test assertions and negative tests, 1 script input, 11 not CRDs",
			errors: []string{
				"docs/snippets/gadget-elided.yaml:7: document 0 does not parse: yaml: line 7: mapping values are not allowed in this context",
				"docs/snippets/gadget.json:5: document 0 does not parse: yaml: line 5: did not find expected ',' or '}'",
			}},
		// Checked: 7 objects: the 3 Gadgets of the snippets as Jinja
		// renders them, the example, the 2 kuttl steps updating the
		// Gadget step 00 made (as merges into it: 01's missing widgetRef
		// is the existing object's), and step 03's Gadget, made again
		// after its TestStep deleted it. 3 true errors: 2 typos "did you
		// mean" names (one in a snippet, at its line in the file, one in
		// a step's update) and the widgetRef step 03's creation leaves
		// out. 4 kinds without a CRD: kuttl's TestSuite, 2 TestSteps and
		// the Namespace.
		"apply": {exit: 1, notice: "18 files, 21 documents: 7 checked, 3 with errors (3 errors), 2 unparsable; skipped 12: 3 not Kubernetes objects, 3 test assertions and negative tests, 1 script input, 1 CRD, 4 kinds without a CRD",
			errors: []string{
				"docs/snippets/gadget-elided.yaml:7: document 0 does not parse: yaml: line 7: mapping values are not allowed in this context",
				`docs/snippets/gadget-pair.yaml:8: Gadget/first: spec.intervall: Not found: unknown field "spec.intervall"; did you mean "spec.interval"?`,
				"docs/snippets/gadget.json:5: document 0 does not parse: yaml: line 5: did not find expected ',' or '}'",
				`e2e-tests/tests/scale/02-typo.yaml:6: Gadget/scale: spec.intervall: Not found: unknown field "spec.intervall"; did you mean "spec.interval"?`,
				"e2e-tests/tests/scale/03-recreate.yaml:14: Gadget/scale: spec.widgetRef: Required value",
			}},
	},
	crd: "config/300-crds/300-gadget.yaml", crdKey: "group: toys.crdschema.dev",
	cr: "examples/gadget.yaml",
	// The snippets' Go templates are values the controller fills in; each
	// document Jinja renders is checked.
	templated: map[string]int{
		"docs/snippets/gadget-templated.yaml": 1,
		"docs/snippets/gadget-pair.yaml":      2,
	},
}}
