package layout_test

import (
	"testing"
	"testing/fstest"

	"github.com/crdschema/crdschema/layout"
)

// kuttlRepo has the layouts of percona-postgresql-operator's kuttl tests
// (a step creating a cluster by script, its assertion, later steps holding
// only the fields they change, yq overlays in conf/, a file a step lists
// and one a command applies) and of external-secrets' snapshot tests.
var kuttlRepo = fstest.MapFS{
	"e2e/tests/t1/00-deploy.yaml": {Data: []byte("apiVersion: kuttl.dev/v1beta1\nkind: TestStep\ncommands:\n- script: get_cr | kubectl apply -f -\n")},
	"e2e/tests/t1/00-assert.yaml": {Data: []byte("apiVersion: kuttl.dev/v1beta1\nkind: TestAssert\n---\napiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w1\n")},
	// Changes w1, which step 0 made: an update.
	"e2e/tests/t1/01-change.yaml": {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: 2\n")},
	// Its own assertion comes after it: w2 is new.
	"e2e/tests/t1/02-new.yaml":    {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w2\n")},
	"e2e/tests/t1/02-assert.yaml": {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w2\n")},
	// One known object and one new one: a create request for the new one.
	"e2e/tests/t1/03-mixed.yaml": {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w1\n---\napiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w3\n")},
	// Same name, another group: new.
	"e2e/tests/t1/04-other-group.yaml": {Data: []byte("apiVersion: other.example.com/v1\nkind: Widget\nmetadata:\n  name: w1\n")},
	"e2e/tests/t1/05-step.yaml":        {Data: []byte("apiVersion: kuttl.dev/v1beta1\nkind: TestStep\napply:\n- files/listed.yaml\ncommands:\n- command: kubectl apply -f files/applied.yaml\n")},
	// Asserted absent, then made: a creation, not an update.
	"e2e/tests/t1/06-errors.yaml": {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w9\n")},
	"e2e/tests/t1/07-create.yaml": {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w9\n")},
	// A TestStep deleting w1, whose step makes it again: a creation;
	// the step after it changes the new w1: an update.
	"e2e/tests/t1/08-recreate.yaml": {Data: []byte("apiVersion: kuttl.dev/v1beta1\nkind: TestStep\ndelete:\n- apiVersion: toys.crdschema.dev/v1\n  kind: Widget\n  name: w1\n---\napiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w1\n")},
	"e2e/tests/t1/09-change.yaml":   {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w1\n")},
	// Deleting by labels deletes the labelled w10, not w2 (no labels);
	// deleting w2 in another namespace, or another group's w2, deletes
	// nothing of the test's.
	"e2e/tests/t1/10-labelled.yaml": {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w10\n  labels:\n    app: a\n")},
	"e2e/tests/t1/11-delete.yaml":   {Data: []byte("apiVersion: kuttl.dev/v1beta1\nkind: TestStep\ndelete:\n- apiVersion: toys.crdschema.dev/v1\n  kind: Widget\n  labels:\n    app: a\n- apiVersion: toys.crdschema.dev/v1\n  kind: Widget\n  name: w2\n  namespace: other\n- apiVersion: other.example.com/v1\n  kind: Widget\n  name: w2\n- kind: \"\"\n- 3\n")},
	"e2e/tests/t1/12-w10.yaml":      {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w10\n")},
	"e2e/tests/t1/12-w2.yaml":       {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w2\n")},
	// Deleting every Widget of the test's namespace: w2 is made again.
	"e2e/tests/t1/13-delete-all.yaml": {Data: []byte("apiVersion: kuttl.dev/v1beta1\nkind: TestStep\ndelete:\n- apiVersion: toys.crdschema.dev/v1\n  kind: Widget\n")},
	"e2e/tests/t1/14-w2.yaml":         {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: w2\n")},
	"e2e/tests/t1/conf/t1.yaml":       {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata:\n  name: x\n")},
	"e2e/tests/t1/files/listed.yaml":  {Data: []byte("kind: A\n")},
	"e2e/tests/t1/files/applied.yaml": {Data: []byte("kind: A\n")},
	"e2e/tests/t1/files/deep/x.yaml":  {Data: []byte("kind: A\n")},
	"e2e/tests/t1/notes.yaml":         {Data: []byte("kind: A\n")},
	"e2e/functions.yaml":              {Data: []byte("kind: A\n")},

	// A directory only a step file's name makes a test (no TestStep runs
	// commands): nothing reads its subdirectories but as manifests.
	"examples/01-errors-ignored.yaml": {Data: []byte("kind: A\n")},
	"examples/advanced/gadget.yaml":   {Data: []byte("kind: A\n")},

	// Step-numbered files without kuttl: a directory of numbered manifests
	// (tekton's config/), its subdirectories are nobody's inputs.
	"config/100-namespace.yaml":      {Data: []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: n\n")},
	"config/200-namespace-role.yaml": {Data: []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: n\n")},
	"config/300-crds/300-task.yaml":  {Data: []byte("kind: CustomResourceDefinition\n")},

	"tests/__snapshot__/widget-v1.yaml": {Data: []byte("apiVersion: toys.crdschema.dev/v1\nkind: Widget\nmetadata: {}\n")},
	"tests/widget_test.yaml":            {Data: []byte("suite: test Widget\n")},
	"web/__snapshots__/a.yml":           {Data: []byte("kind: A\n")},
}

func TestScanKuttlAndSnapshots(t *testing.T) {
	tree, err := layout.Scan(kuttlRepo)
	if err != nil {
		t.Fatal(err)
	}
	const input = "under the kuttl test e2e/tests/t1, read by its commands, not by kuttl"
	const snapshot = "snapshot a test compares its output with (__snapshot__ directory)"
	for _, c := range []struct {
		file string
		role layout.Role
		by   string
	}{
		{file: "e2e/tests/t1/01-change.yaml", role: layout.Update, by: "kuttl step updating Widget/w1 named at e2e/tests/t1/00-assert.yaml:4"},
		{file: "e2e/tests/t1/02-new.yaml"},
		{file: "e2e/tests/t1/03-mixed.yaml"},
		{file: "e2e/tests/t1/04-other-group.yaml"},
		{file: "e2e/tests/t1/07-create.yaml"},
		{file: "e2e/tests/t1/08-recreate.yaml"},
		{file: "e2e/tests/t1/09-change.yaml", role: layout.Update, by: "kuttl step updating Widget/w1 named at e2e/tests/t1/08-recreate.yaml:8"},
		{file: "e2e/tests/t1/12-w10.yaml"},
		{file: "e2e/tests/t1/12-w2.yaml", role: layout.Update, by: "kuttl step updating Widget/w2 named at e2e/tests/t1/02-assert.yaml:1"},
		{file: "e2e/tests/t1/14-w2.yaml"},
		{file: "e2e/tests/t1/conf/t1.yaml", role: layout.Input, by: input},
		{file: "e2e/tests/t1/files/listed.yaml", by: "kuttl TestStep apply in e2e/tests/t1/05-step.yaml:1"},
		{file: "e2e/tests/t1/files/applied.yaml", by: "kuttl TestStep command (kubectl) in e2e/tests/t1/05-step.yaml:1"},
		{file: "e2e/tests/t1/files/deep/x.yaml", role: layout.Input, by: input},
		{file: "e2e/tests/t1/notes.yaml"}, // kuttl's own directory: not a step, not read
		{file: "e2e/functions.yaml"},
		{file: "examples/advanced/gadget.yaml"},
		{file: "config/200-namespace-role.yaml"},
		{file: "config/300-crds/300-task.yaml"},
		{file: "tests/__snapshot__/widget-v1.yaml", role: layout.Assertion, by: snapshot},
		{file: "web/__snapshots__/a.yml", role: layout.Assertion, by: snapshot},
		{file: "tests/widget_test.yaml"},
	} {
		got := tree.Of(c.file)
		if want := (layout.Place{Role: c.role, By: c.by}); got != want {
			t.Errorf("%s: got %+v, want %+v", c.file, got, want)
		}
	}
}
