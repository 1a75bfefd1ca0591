package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/openapi"
	explainv2 "k8s.io/kubectl/pkg/explain/v2"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/shareddata"
)

var updateObjectMeta = flag.Bool("update-objectmeta", false, "rewrite ../../serving/objectmeta.json from the apiserver's builder")

// SharedDir is the shared test data for the tests of this module (both
// test packages): ../../shared beside the module, or $CRDSCHEMA_SHARED.
// Without it the test skips saying so, or fails under
// CRDSCHEMA_REQUIRE_SHARED=1 (shareddata.Missing). Only test builds have it.
func SharedDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CRDSCHEMA_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		shareddata.Missing(t, dir)
	}
	return dir
}

// objectMetaFile is the ObjectMeta definitions crdschema's explain embeds.
var objectMetaFile = filepath.Join("..", "..", "serving", "objectmeta.json")

// publishedV3 is the OpenAPI v3 document the apiserver serves at
// /openapi/v3/apis/GROUP/VERSION for a CRD's version, as JSON.
func publishedV3(t *testing.T, crd *apiextensionsv1.CustomResourceDefinition, version string) []byte {
	t.Helper()
	s3, err := builder.BuildOpenAPIV3(crd, version, builder.Options{V2: false, IncludeSelectableFields: true})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(s3)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// oneGroupVersion is an openapi.Client serving one group version's
// document, as kubectl explain fetches it.
type oneGroupVersion struct {
	path string
	doc  []byte
}

func (c oneGroupVersion) Paths() (map[string]openapi.GroupVersion, error) {
	return map[string]openapi.GroupVersion{c.path: c}, nil
}
func (c oneGroupVersion) Schema(string) ([]byte, error) { return c.doc, nil }
func (c oneGroupVersion) ServerRelativeURL() string     { return "/openapi/v3/" + c.path }

// kubectlExplain is kubectl explain's output (plaintext, explain v2) for
// the document, or its error text as kubectl prints it.
func kubectlExplain(doc []byte, gvr schema.GroupVersionResource, path []string, recursive bool) string {
	var b bytes.Buffer
	client := oneGroupVersion{path: "apis/" + gvr.Group + "/" + gvr.Version, doc: doc}
	if err := explainv2.PrintModelDescription(path, &b, client, gvr, recursive, 0, "plaintext"); err != nil {
		return err.Error() // "error: field ... does not exist"
	}
	return b.String()
}

// ours is crdschema's explain text (kubectl's part), or its error as
// kubectl words it.
func ours(c *crdschema.CRD, version string, path []string, recursive bool) string {
	e, err := c.Explain(version, path, recursive)
	if err != nil {
		return "error: " + err.Error()
	}
	return e.Text
}

// Comparing every corpus CRD's explanations with kubectl's takes about 80 s
// of CPU (8,570 outputs), so by default TestExplainMatchesKubectl compares
// a deterministic sample: every explainEvery-th CRD file of each project,
// starting with its first, and the files of explainAlways.
// CRDSCHEMA_EXPLAIN=full compares every file (CI's long budget, .ci/long).
const (
	explainEnv   = "CRDSCHEMA_EXPLAIN"
	explainEvery = 8
)

// explainAlways are corpus files always compared: the real CRDs the
// command's explain tests read (a CEL-guarded list immutable in one
// version, a list map).
var explainAlways = []string{
	filepath.Join("kueue", "crds", "topologies.kueue.x-k8s.io.yaml"),
	filepath.Join("openshift-api", "crds", "pinnedimagesets.machineconfiguration.openshift.io.yaml"),
}

// explainSample picks the corpus files compared (files sorted, under dir)
// and describes the choice for the test's log.
func explainSample(dir string, files []string) ([]string, string) {
	if os.Getenv(explainEnv) == "full" {
		return files, "every corpus CRD file"
	}
	var out []string
	project, i := "", 0
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		if p := strings.SplitN(rel, string(filepath.Separator), 2)[0]; p != project {
			project, i = p, 0
		}
		if i%explainEvery == 0 || slices.Contains(explainAlways, rel) {
			out = append(out, f)
		}
		i++
	}
	return out, fmt.Sprintf("a sample: %d of %d corpus CRD files, every %dth of each project (%s=full for all)", len(out), len(files), explainEvery, explainEnv)
}

// TestExplainMatchesKubectl renders, for every served version of the
// corpus CRDs the apiserver accepts (a sample by default, explainSample),
// kubectl explain's output (k8s.io/kubectl v0.37.2's explain v2
// templates) on the document the apiserver's builder publishes, and
// compares it with crdschema's explain (its own OpenAPI and renderer):
// the kind, recursive and not, its top-level fields, a sample of deeper
// field paths (evenly spread over all of them, through arrays and maps),
// recursive subtrees and a field that does not exist.
func TestExplainMatchesKubectl(t *testing.T) {
	dir := filepath.Join(SharedDir(t), "corpus")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "crds", "*.yaml"))
	if len(files) == 0 {
		shareddata.Missing(t, filepath.Join(dir, "*", "crds"))
	}
	files, what := explainSample(dir, files)
	compared, differ := compareExplainFiles(t, files, explainQueries)
	t.Logf("%s: %d explain outputs compared with kubectl's, %d differ", what, compared, differ)
}

// explainCases are the CRDs of the command's explain golden cases, which
// we write ourselves (a made-up group).
var explainCases = filepath.Join("..", "..", "cmd", "crdschema", "testdata", "cli", "explain")

// TestExplainCasesMatchKubectl: for the CRDs of the command's explain
// golden cases, kubectl explain's output on what the apiserver publishes
// is crdschema's for the kind and every field path, recursive and not,
// and for a field that does not exist below each: the kubectl part of
// every golden case is kubectl's text. It needs no shared data.
func TestExplainCasesMatchKubectl(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(explainCases, "*.yaml"))
	if len(files) == 0 {
		t.Fatalf("no CRDs in %s", explainCases)
	}
	compared, differ := compareExplainFiles(t, files, everyExplainQuery)
	t.Logf("%d explain outputs of %d CRD files compared with kubectl's, %d differ", compared, len(files), differ)
}

// compareExplainFiles compares the explanations queries picks for every
// served version of every CRD of files that the apiserver accepts; it
// returns how many were compared and how many differ (the first ten are
// reported), and fails the test when none was compared.
func compareExplainFiles(t *testing.T, files []string, queries func([]byte, *apiextensionsv1.CustomResourceDefinition, string) []explainQuery) (compared, differ int) {
	t.Helper()
	codec := newCodec()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		mine, err := crdschema.LoadCRDs(f, data)
		if err != nil {
			t.Fatal(err)
		}
		docs, _, err := ReadDocuments("", []string{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			c, err := codec.checkCRD(context.Background(), d, false)
			if err != nil || !c.Accepted() {
				continue
			}
			i := slices.IndexFunc(mine, func(m *crdschema.CRD) bool { return m.Name() == c.Name })
			if i < 0 {
				t.Fatalf("%s: crdschema does not read %s", f, c.Name)
			}
			n, bad := compareExplain(t, c.V1, mine[i], queries, differ)
			compared += n
			differ += bad
		}
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
	return compared, differ
}

// compareExplain compares one CRD's explanations; it returns how many
// were compared and how many differ.
func compareExplain(t *testing.T, crd *apiextensionsv1.CustomResourceDefinition, mine *crdschema.CRD, queries func([]byte, *apiextensionsv1.CustomResourceDefinition, string) []explainQuery, before int) (n, bad int) {
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		doc := publishedV3(t, crd, v.Name)
		gvr := schema.GroupVersionResource{Group: crd.Spec.Group, Version: v.Name, Resource: crd.Spec.Names.Plural}
		for _, q := range queries(doc, crd, v.Name) {
			want := kubectlExplain(doc, gvr, q.path, q.recursive)
			got := ours(mine, v.Name, q.path, q.recursive)
			n++
			if got != want {
				bad++
				if before+bad <= 10 {
					t.Errorf("%s %s %v recursive=%v differs from kubectl explain:\n%s", crd.Name, v.Name, q.path, q.recursive, lineDiff(want, got))
				}
			}
		}
	}
	return n, bad
}

type explainQuery struct {
	path      []string
	recursive bool
}

// explainQueries are the explanations compared for a version.
func explainQueries(doc []byte, crd *apiextensionsv1.CustomResourceDefinition, version string) []explainQuery {
	qs := []explainQuery{{nil, false}, {nil, true}, {[]string{"metadata"}, false}, {[]string{"doesNotExist", "either"}, false}}
	paths := publishedFieldPaths(doc, crd, version)
	for _, p := range paths {
		if len(p) == 1 {
			qs = append(qs, explainQuery{p, false})
			if p[0] == "spec" {
				qs = append(qs, explainQuery{p, true})
			}
		}
	}
	const sample = 6
	for i := 1; i <= sample && len(paths) > 0; i++ {
		p := paths[i*len(paths)/(sample+1)]
		qs = append(qs, explainQuery{p, false})
		if i%2 == 0 {
			qs = append(qs, explainQuery{append(slices.Clone(p), "nope"), false})
		}
		if i%3 == 0 {
			qs = append(qs, explainQuery{p, true})
		}
	}
	return qs
}

// everyExplainQuery is the kind and every field path of a version,
// recursive and not, and a field that does not exist below each.
func everyExplainQuery(doc []byte, crd *apiextensionsv1.CustomResourceDefinition, version string) []explainQuery {
	qs := []explainQuery{{nil, false}, {nil, true}, {[]string{"nope"}, false}}
	for _, p := range publishedFieldPaths(doc, crd, version) {
		qs = append(qs, explainQuery{p, false}, explainQuery{p, true}, explainQuery{append(slices.Clone(p), "nope"), false})
	}
	return qs
}

// publishedFieldPaths are the field paths of the kind's schema in a
// published document.
func publishedFieldPaths(doc []byte, crd *apiextensionsv1.CustomResourceDefinition, version string) [][]string {
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil
	}
	kind := modelName(crd.Spec.Group, version, crd.Spec.Names.Kind)
	root, _ := d["components"].(map[string]any)["schemas"].(map[string]any)[kind].(map[string]any)
	var paths [][]string
	fieldPaths(root, nil, &paths, 0)
	return paths
}

// fieldPaths collects the field paths below a published schema, through
// items and map values as explain follows them.
func fieldPaths(s map[string]any, at []string, out *[][]string, depth int) {
	if s == nil || depth > 40 {
		return
	}
	props, _ := s["properties"].(map[string]any)
	for _, k := range slices.Sorted(mapKeys(props)) {
		p := append(slices.Clone(at), k)
		*out = append(*out, p)
		c, _ := props[k].(map[string]any)
		fieldPaths(c, p, out, depth+1)
	}
	if items, ok := s["items"].(map[string]any); ok {
		fieldPaths(items, at, out, depth+1)
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		fieldPaths(ap, at, out, depth+1)
	}
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// lineDiff shows the first differing lines.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\nkubectl:   %q\ncrdschema: %q", i+1, a, b)
		}
	}
	return "(equal lines)"
}

// TestObjectMetaDefinitions: the definitions crdschema's explain embeds
// for ObjectMeta and what it references are those the apiserver's builder
// publishes beside a CRD (-update-objectmeta rewrites the file).
func TestObjectMetaDefinitions(t *testing.T) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	crd.Name = "widgets.example.com"
	crd.Spec = apiextensionsv1.CustomResourceDefinitionSpec{
		Group: "example.com", Scope: apiextensionsv1.NamespaceScoped,
		Names:    apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Kind: "Widget", ListKind: "WidgetList", Singular: "widget"},
		Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true, Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object"}}}},
	}
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(publishedV3(t, crd, "v1"), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{}
	var visit func(name string)
	visit = func(name string) {
		if _, ok := want[name]; ok {
			return
		}
		def := doc.Components.Schemas[name]
		want[name] = def
		for _, ref := range refsIn(def) {
			visit(ref[strings.LastIndex(ref, "/")+1:])
		}
	}
	visit("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
	data, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if *updateObjectMeta {
		if err := os.WriteFile(objectMetaFile, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(objectMetaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, data) {
		t.Errorf("%s is not what the apiserver publishes (run with -update-objectmeta and review the diff)", objectMetaFile)
	}
}

// refsIn lists the $ref values in a JSON value.
func refsIn(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			if s, ok := c.(string); ok && k == "$ref" {
				out = append(out, s)
				continue
			}
			out = append(out, refsIn(c)...)
		}
	case []any:
		for _, c := range v {
			out = append(out, refsIn(c)...)
		}
	}
	return out
}
