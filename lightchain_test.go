package crdschema_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// lightVersion is one CRD version as the root compiles it and as the light
// chain (schema, structural, prune, defaulting, embedded, validation)
// builds it from the schema written in the CRD document.
type lightVersion struct {
	root  *crdschema.Schema
	light *structural.Schema
	// served is light with its defaults pruned, as served; the validators
	// are built once per version from each model.
	served            *structural.Schema
	lightVal, rootVal *validation.Validator
}

// lightVersions reads the CRDs of dir both ways, by group/version/kind.
// Only apiextensions.k8s.io/v1 CRDs with per-version schemas are taken.
func lightVersions(t *testing.T, dir string) map[string]lightVersion {
	out := map[string]lightVersion{}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := schema.ReadDocuments(f, data)
		if err != nil {
			continue
		}
		crds, err := crdschema.LoadCRDs(f, data)
		if err != nil {
			continue
		}
		byName := map[string]*crdschema.CRD{}
		for _, c := range crds {
			byName[c.Name()] = c
		}
		for _, d := range docs {
			addLightVersions(t, d, byName, out)
		}
	}
	return out
}

func addLightVersions(t *testing.T, d schema.Document, byName map[string]*crdschema.CRD, out map[string]lightVersion) {
	if d.Object["apiVersion"] != "apiextensions.k8s.io/v1" {
		return
	}
	meta, _ := d.Object["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	crd := byName[name]
	spec, _ := d.Object["spec"].(map[string]any)
	if crd == nil || spec == nil || len(crd.Errors()) > 0 {
		return
	}
	group, _ := spec["group"].(string)
	names, _ := spec["names"].(map[string]any)
	kind, _ := names["kind"].(string)
	versions, _ := spec["versions"].([]any)
	for _, v := range versions {
		v, _ := v.(map[string]any)
		vname, _ := v["name"].(string)
		sch, _ := v["schema"].(map[string]any)
		root, err := crd.Version(vname)
		if err != nil || sch == nil {
			continue
		}
		js, err := json.Marshal(sch["openAPIV3Schema"])
		if err != nil {
			t.Fatal(err)
		}
		p, err := schema.Decode(js)
		if err != nil {
			t.Fatalf("%s %s: %v", name, vname, err)
		}
		s, err := structural.New(p)
		if err != nil {
			t.Fatalf("%s %s: %v", name, vname, err)
		}
		served := defaulting.PruneDefaults(s, func(v any, s *structural.Schema) {
			embedded.CoerceEmbedded(v, s, embedded.CoerceOptions{DropMalformed: true})
		})
		out[group+"/"+vname+"/"+kind] = lightVersion{root: root, light: s, served: served,
			lightVal: validation.New(s), rootVal: validation.New(root.Structural())}
	}
}

// TestLightChainAgreesWithRoot: on every corpus example, the light chain
// alone (no root, no CEL) prunes, defaults and validates values as the
// root does: same pruned paths and object, same defaulted object, same
// OpenAPI value errors (issue 19, done-when).
func TestLightChainAgreesWithRoot(t *testing.T) {
	corpus := shareddata.Dir(t, "corpus")
	projects, _ := filepath.Glob(filepath.Join(corpus, "*", "crds"))
	compared := 0
	for _, crds := range projects {
		versions := lightVersions(t, crds)
		examples, _ := filepath.Glob(filepath.Join(filepath.Dir(crds), "examples", "*"))
		for _, f := range examples {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			docs, _ := schema.ReadDocuments(f, data)
			for _, d := range docs {
				av, _ := d.Object["apiVersion"].(string)
				kind, _ := d.Object["kind"].(string)
				v, ok := versions[av+"/"+kind]
				if !ok {
					continue
				}
				compared++
				if msg := lightDisagrees(v, d.Object); msg != "" {
					t.Errorf("%s document %d: %s", f, d.Index, msg)
				}
			}
		}
	}
	t.Logf("%d corpus objects compared", compared)
	if compared < 500 {
		t.Errorf("only %d objects compared", compared)
	}
}

// lightDisagrees says how the light chain and the root differ on obj ("" when
// they agree).
func lightDisagrees(v lightVersion, obj map[string]any) string {
	// Pruning, as the apiserver reads an object from storage.
	want := v.root.Prune(obj)
	got := deepCopy(obj)
	paths, err := embedded.CoerceResourceMeta(got, embedded.CoerceOptions{DropMalformed: true, ReturnPaths: true})
	if err != nil {
		return fmt.Sprint("coerce: ", err)
	}
	paths = append(paths, prune.Prune(got, v.light, prune.Options{ResourceRoot: true, ReturnPaths: true})...)
	more, _ := embedded.CoerceEmbedded(got, v.light, embedded.CoerceOptions{DropMalformed: true, ReturnPaths: true})
	paths = sortedUnique(append(paths, more...))
	if len(want.Errors) == 0 && (!reflect.DeepEqual(paths, want.Pruned) || !reflect.DeepEqual(got, want.Object)) {
		return fmt.Sprintf("pruned %v, root %v", paths, want.Pruned)
	}
	// Defaulting.
	got = deepCopy(obj)
	defaulting.DropNullsAndDefault(got, v.served)
	if d := v.root.Default(obj); !reflect.DeepEqual(got, d.Object) {
		return fmt.Sprintf("defaulted %v, root %v", got, d.Object)
	}
	// OpenAPI value validation, with the model the root compiled.
	lightErrs := fmt.Sprint(v.lightVal.Validate(obj))
	if rootErrs := fmt.Sprint(v.rootVal.Validate(obj)); lightErrs != rootErrs {
		return fmt.Sprintf("value errors %s, root %s", lightErrs, rootErrs)
	}
	return ""
}

func deepCopy(obj map[string]any) map[string]any {
	b, err := json.Marshal(obj)
	if err != nil {
		panic(err)
	}
	docs, err := schema.ReadDocuments("copy", b)
	if err != nil {
		panic(err)
	}
	return docs[0].Object
}

func sortedUnique(in []string) []string {
	sort.Strings(in)
	out := []string{}
	for i, p := range in {
		if i == 0 || p != in[i-1] {
			out = append(out, p)
		}
	}
	return out
}
