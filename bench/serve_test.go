package bench

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kube-openapi/pkg/handler"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/serving"
)

// servedCRD is one accepted corpus CRD on both sides.
type servedCRD struct {
	project  string
	cs       *crdschema.CRD
	ref      *apiextensionsv1.CustomResourceDefinition
	versions []string // served
}

// servedCRDs loads every accepted corpus CRD, the reference side in the
// v1 form the apiserver stores and serves.
func servedCRDs(tb testing.TB, c *corpus) []*servedCRD {
	tb.Helper()
	var out []*servedCRD
	for _, f := range c.crds {
		crd, err := crdschema.LoadCRD(f.yaml)
		if err != nil {
			tb.Fatal(err)
		}
		if len(crd.Errors()) > 0 {
			continue
		}
		in, err := refCodecVal().decodeCRD(f.json)
		if err != nil {
			tb.Fatal(err)
		}
		v1 := &apiextensionsv1.CustomResourceDefinition{}
		if err := refCodecVal().scheme.Convert(in, v1, nil); err != nil {
			tb.Fatal(err)
		}
		s := &servedCRD{project: f.project, cs: crd, ref: v1}
		for _, v := range v1.Spec.Versions {
			if v.Served {
				s.versions = append(s.versions, v.Name)
			}
		}
		out = append(out, s)
	}
	return out
}

// refOpenAPI is what the apiserver's OpenAPI controllers build for a
// version: the v3 and v2 specs (definitions and paths), v2 without
// defaults. It returns the kind's and the List's definitions.
func refOpenAPI(crd *apiextensionsv1.CustomResourceDefinition, version string) (v3, v2 map[string]any, err error) {
	s3, err := builder.BuildOpenAPIV3(crd, version, builder.Options{IncludeSelectableFields: true})
	if err != nil {
		return nil, nil, err
	}
	s2, err := builder.BuildOpenAPIV2(crd, version, builder.Options{V2: true, IncludeSelectableFields: true})
	if err != nil {
		return nil, nil, err
	}
	s2.Definitions = handler.PruneDefaults(s2.Definitions)
	v3, v2 = map[string]any{}, map[string]any{}
	for _, kind := range []string{crd.Spec.Names.Kind, crd.Spec.Names.ListKind} {
		parts := strings.Split(crd.Spec.Group, ".")
		for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
			parts[i], parts[j] = parts[j], parts[i]
		}
		name := strings.Join(parts, ".") + "." + version + "." + kind
		v3[name] = s3.Components.Schemas[name]
		v2[name] = s2.Definitions[name]
	}
	return v3, v2, nil
}

// asJSONValue is v encoded and decoded as plain JSON values.
func asJSONValue(tb testing.TB, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestOpenAPIAgrees checks that both sides of BenchmarkOpenAPI publish
// the same definitions for the served versions of every 8th corpus CRD (the
// reference takes about a tenth of a second per version; the whole corpus is
// compared with the apiserver's answers in cmd/crdschema's TestCorpusOpenAPI).
func TestOpenAPIAgrees(t *testing.T) {
	n := 0
	for i, s := range servedCRDs(t, loadCorpus(t)) {
		if i%8 != 0 {
			continue
		}
		for _, v := range s.versions {
			cs3, cs2, err := s.cs.OpenAPI(v)
			if err != nil {
				t.Fatal(err)
			}
			ref3, ref2, err := refOpenAPI(s.ref, v)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(asJSONValue(t, cs3), asJSONValue(t, ref3)) || !reflect.DeepEqual(asJSONValue(t, cs2), asJSONValue(t, ref2)) {
				t.Errorf("%s %s: definitions differ", s.cs.Name(), v)
			}
			n++
		}
	}
	t.Logf("%d served versions agree", n)
}

// BenchmarkOpenAPI builds the published v3 and v2 definitions of every
// served version of every corpus CRD: crdschema's CRD.OpenAPI (the kind and
// its List) against the apiserver's builder.BuildOpenAPIV3 and
// BuildOpenAPIV2 with handler.PruneDefaults, which also build the paths of
// the REST operations (what the controllers run for every CRD change).
func BenchmarkOpenAPI(b *testing.B) {
	crds := servedCRDs(b, loadCorpus(b))
	b.Run("corpus/crdschema", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range crds {
				for _, v := range s.versions {
					if _, _, err := s.cs.OpenAPI(v); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	})
	b.Run("corpus/reference", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range crds {
				for _, v := range s.versions {
					if _, _, err := refOpenAPI(s.ref, v); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	})
}

// tableCase is one corpus example and the table of its version on both
// sides, each built once.
type tableCase struct {
	obj map[string]any
	cs  *serving.Table
	ref rest.TableConvertor
}

// tableCases routes every corpus example to its project's CRD and version
// and builds both sides' tables for that version's printer columns (the
// default Age column when there are none, as the apiserver's handler does).
func tableCases(tb testing.TB, c *corpus) []tableCase {
	tb.Helper()
	type key struct{ project, group, kind, version string }
	type tables struct {
		cs  *serving.Table
		ref rest.TableConvertor
	}
	byKey := map[key]*tables{}
	for _, s := range servedCRDs(tb, c) {
		project := s.project
		for _, v := range s.ref.Spec.Versions {
			k := key{project, s.ref.Spec.Group, s.ref.Spec.Names.Kind, v.Name}
			if _, ok := byKey[k]; ok || !v.Served {
				continue
			}
			cols := v.AdditionalPrinterColumns
			if len(cols) == 0 {
				cols = []apiextensionsv1.CustomResourceColumnDefinition{{Name: "Age", Type: "date", Description: metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"], JSONPath: ".metadata.creationTimestamp"}}
			}
			csCols := make([]serving.Column, len(cols))
			for j, col := range cols {
				csCols[j] = serving.Column{Name: col.Name, Type: col.Type, Format: col.Format, Description: col.Description, Priority: col.Priority, JSONPath: col.JSONPath}
			}
			ref, _ := tableconvertor.New(cols)
			byKey[k] = &tables{cs: serving.NewTable(csCols), ref: ref}
		}
	}
	var out []tableCase
	for _, r := range c.objects {
		apiVersion, _ := r.obj["apiVersion"].(string)
		kind, _ := r.obj["kind"].(string)
		group, version, ok := strings.Cut(apiVersion, "/")
		project := filepath.Base(filepath.Dir(filepath.Dir(r.file)))
		t := byKey[key{project, group, kind, version}]
		if !ok || t == nil {
			continue
		}
		if _, list := r.obj["items"].([]any); list {
			continue
		}
		out = append(out, tableCase{obj: r.obj, cs: t.cs, ref: t.ref})
	}
	return out
}

// benchNow is the clock of the date columns on crdschema's side; the
// reference counts ages to time.Now.
var benchNow = time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)

// TestColumnsAgree checks that both sides of BenchmarkColumns compute the
// same cells (date columns left out: the reference counts to time.Now).
func TestColumnsAgree(t *testing.T) {
	cases := tableCases(t, loadCorpus(t))
	for i, tc := range cases {
		cells, err := tc.cs.Row(tc.obj, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		table, err := tc.ref.ConvertToTable(context.Background(), &unstructured.Unstructured{Object: tc.obj}, nil)
		if err != nil || len(table.Rows) != 1 {
			t.Fatalf("object %d: reference: %v", i, err)
		}
		if !reflect.DeepEqual(asJSONValue(t, cells), asJSONValue(t, table.Rows[0].Cells)) {
			t.Errorf("object %d: cells %v, reference %v", i, cells, table.Rows[0].Cells)
		}
	}
	t.Logf("%d objects agree", len(cases))
}

// BenchmarkColumns computes the table row of every corpus example with
// its version's table built once: crdschema's serving.Table.Row against
// the apiserver's tableconvertor (ConvertToTable).
func BenchmarkColumns(b *testing.B) {
	cases := tableCases(b, loadCorpus(b))
	b.Run("corpus/crdschema", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, tc := range cases {
				if _, err := tc.cs.Row(tc.obj, benchNow); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("corpus/reference", func(b *testing.B) {
		b.ReportAllocs()
		ctx := context.Background()
		for b.Loop() {
			for _, tc := range cases {
				if _, err := tc.ref.ConvertToTable(ctx, &unstructured.Unstructured{Object: tc.obj}, nil); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
