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
)

var updateObjectMeta = flag.Bool("update-objectmeta", false, "rewrite ../../serving/objectmeta.json from the apiserver's builder")

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

// explainSharedDir is the shared test data, ../../shared beside the
// module or $CRDSCHEMA_SHARED; without it the test skips saying so, or
// fails under CRDSCHEMA_REQUIRE_SHARED=1.
func explainSharedDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CRDSCHEMA_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		if os.Getenv("CRDSCHEMA_REQUIRE_SHARED") == "1" {
			t.Fatalf("shared test data missing at %s (CRDSCHEMA_REQUIRE_SHARED=1)", dir)
		}
		t.Skipf("shared test data not found at %s (set CRDSCHEMA_SHARED): skipping", dir)
	}
	return dir
}

// TestExplainMatchesKubectl renders, for every served version of every
// corpus CRD the apiserver accepts, kubectl explain's output (k8s.io/kubectl
// v0.37.2's explain v2 templates) on the document the apiserver's builder
// publishes, and compares it with crdschema's explain (its own OpenAPI
// and renderer): the kind, recursive and not, its top-level fields, a
// sample of deeper field paths (evenly spread over all of them, through
// arrays and maps), recursive subtrees and a field that does not exist.
func TestExplainMatchesKubectl(t *testing.T) {
	dir := filepath.Join(explainSharedDir(t), "corpus")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "crds", "*.yaml"))
	if len(files) == 0 {
		t.Skipf("no corpus CRDs in %s", dir)
	}
	codec := newCodec()
	compared, differ := 0, 0
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
			n, bad := compareExplain(t, c.V1, mine[i], differ)
			compared += n
			differ += bad
		}
	}
	t.Logf("%d explain outputs compared with kubectl's, %d differ", compared, differ)
	if compared == 0 {
		t.Fatal("nothing compared")
	}
}

// compareExplain compares one CRD's explanations; it returns how many
// were compared and how many differ.
func compareExplain(t *testing.T, crd *apiextensionsv1.CustomResourceDefinition, mine *crdschema.CRD, before int) (n, bad int) {
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		doc := publishedV3(t, crd, v.Name)
		gvr := schema.GroupVersionResource{Group: crd.Spec.Group, Version: v.Name, Resource: crd.Spec.Names.Plural}
		for _, q := range explainQueries(doc, crd, v.Name) {
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
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		return qs
	}
	kind := modelName(crd.Spec.Group, version, crd.Spec.Names.Kind)
	root, _ := d["components"].(map[string]any)["schemas"].(map[string]any)[kind].(map[string]any)
	var paths [][]string
	fieldPaths(root, nil, &paths, 0)
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
