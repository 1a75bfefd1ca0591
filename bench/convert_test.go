package bench

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/unstructuredscheme"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/versioning"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonfast"
	"github.com/crdschema/crdschema/internal/model"
)

// readCase is one corpus example, as stored at its version, read at
// another served version of its CRD (strategy None).
type readCase struct {
	crd  *crdschema.CRD
	to   string
	json []byte
	ref  runtime.Decoder // the reference's storage codec decoding to `to`
}

// refVersions are the reference's structural schemas of a CRD's versions:
// as written (pruning, metadata) and with defaults pruned (defaulting).
type refVersions struct {
	full, served map[string]*structuralschema.Structural
	preserve     bool
}

// readCases builds every (example, other served version) pair of the
// corpus' multi-version CRDs with strategy None, and the reference codec
// of each pair's CRD and target version.
func readCases(tb testing.TB, c *corpus) []readCase {
	tb.Helper()
	var cases []readCase
	crds := map[[2]string]*crdschema.CRD{}
	codecs := map[*crdschema.CRD]map[string]runtime.Decoder{}
	for _, cf := range c.crds {
		crd, err := crdschema.LoadCRD(cf.yaml)
		if err != nil || len(crd.Errors()) > 0 || len(crd.ServedVersions()) < 2 {
			continue
		}
		in, err := model.DecodeCRD(cf.json)
		if err != nil || (in.Spec.Conversion != nil && in.Spec.Conversion.Strategy == "Webhook") {
			continue
		}
		k := [2]string{cf.project, crd.GroupKind().String()}
		if crds[k] == nil {
			crds[k] = crd
			if codecs[crd], err = refCodecs(cf.json, crd.ServedVersions()); err != nil {
				tb.Fatalf("%s: %v", crd.Name(), err)
			}
		}
	}
	for _, r := range c.objects {
		crd := crds[[2]string{projectOf(r.file), fmt.Sprintf("%s.%s", r.v.gk[1], r.v.gk[0])}]
		if crd == nil {
			continue
		}
		av, _ := r.obj["apiVersion"].(string)
		for _, to := range crd.ServedVersions() {
			if av == crd.GroupKind().Group+"/"+to {
				continue
			}
			cases = append(cases, readCase{crd: crd, to: to, json: r.json, ref: codecs[crd][to]})
		}
	}
	if len(cases) == 0 {
		tb.Fatal("no multi-version corpus example")
	}
	return cases
}

// projectOf is the corpus project of an example file (…/PROJECT/examples/F).
func projectOf(file string) string {
	dir := file
	for range 2 {
		for len(dir) > 0 && dir[len(dir)-1] != '/' {
			dir = dir[:len(dir)-1]
		}
		dir = dir[:max(0, len(dir)-1)]
	}
	for i := len(dir) - 1; i >= 0; i-- {
		if dir[i] == '/' {
			return dir[i+1:]
		}
	}
	return dir
}

// refCodecs builds, for each served version, the apiserver's storage
// codec reading at it: versioning.NewCodec with a decoder that prunes and
// coerces metadata with the stored version's schema (the
// schemaCoercingDecoder), the structural defaulter of the stored version,
// and the CRD's converter (conversion.NewCRConverterFactory, strategy
// None) followed by pruning and coercion with the requested version's
// schema (the schemaCoercingConverter).
func refCodecs(crdJSON []byte, served []string) (map[string]runtime.Decoder, error) {
	internal, err := refCodecVal().decodeCRD(crdJSON)
	if err != nil {
		return nil, err
	}
	v1 := &apiextensionsv1.CustomResourceDefinition{}
	if err := refCodecVal().scheme.Convert(internal, v1, nil); err != nil {
		return nil, err
	}
	rv := &refVersions{full: map[string]*structuralschema.Structural{}, served: map[string]*structuralschema.Structural{}, preserve: internal.Spec.PreserveUnknownFields != nil && *internal.Spec.PreserveUnknownFields}
	for _, v := range internal.Spec.Versions {
		val, err := apiextensions.GetSchemaForVersion(internal, v.Name)
		if err != nil || val == nil || val.OpenAPIV3Schema == nil {
			return nil, fmt.Errorf("version %s: no schema (%v)", v.Name, err)
		}
		s, err := structuralschema.NewStructural(val.OpenAPIV3Schema)
		if err != nil {
			return nil, err
		}
		rv.full[v.Name] = s
		rv.served[v.Name] = s.DeepCopy()
		if err := structuraldefaulting.PruneDefaults(rv.served[v.Name]); err != nil {
			return nil, err
		}
	}
	f, err := conversion.NewCRConverterFactory(nil, nil)
	if err != nil {
		return nil, err
	}
	v1.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.NoneConverter}
	_, unsafe, err := f.NewConverter(v1)
	if err != nil {
		return nil, err
	}
	out := map[string]runtime.Decoder{}
	for _, to := range served {
		gv := schema.GroupVersion{Group: internal.Spec.Group, Version: to}
		out[to] = versioning.NewCodec(nil, refStorageDecoder{rv}, refCoercingConverter{unsafe, rv},
			unstructuredscheme.NewUnstructuredCreator(), unstructuredscheme.NewUnstructuredObjectTyper(),
			refDefaulter{rv}, gv, gv, "crdRESTOptions")
	}
	return out, nil
}

// refCoerceStored is the storage decoder's schema coercion: metadata with
// malformed fields dropped and generation repaired, pruning, drop of
// non-nullable nulls, embedded metadata coercion.
func refCoerceStored(u map[string]any, s *structuralschema.Structural, preserve bool) error {
	objectMeta, found, _, err := schemaobjectmeta.GetObjectMetaWithOptions(u, schemaobjectmeta.ObjectMetaOptions{DropMalformedFields: true})
	if err != nil {
		return err
	}
	if !preserve {
		structuralpruning.PruneWithOptions(u, s, true, structuralschema.UnknownFieldPathOptions{})
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u, s)
	}
	if ferr, _ := schemaobjectmeta.CoerceWithOptions(nil, u, s, false, schemaobjectmeta.CoerceOptions{DropInvalidFields: true}); ferr != nil {
		return ferr
	}
	if found {
		if objectMeta.Generation == 0 {
			objectMeta.Generation = 1 // repairGeneration
		}
		return schemaobjectmeta.SetObjectMeta(u, objectMeta)
	}
	return nil
}

// refStorageDecoder decodes stored JSON and coerces it with the stored
// version's schema.
type refStorageDecoder struct{ rv *refVersions }

func (d refStorageDecoder) Decode(data []byte, gvk *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	obj, got, err := unstructured.UnstructuredJSONScheme.Decode(data, gvk, into)
	if err != nil {
		return nil, got, err
	}
	s := d.rv.full[got.Version]
	if s == nil {
		return nil, got, fmt.Errorf("version %q not defined", got.Version)
	}
	return obj, got, refCoerceStored(obj.(*unstructured.Unstructured).Object, s, d.rv.preserve)
}

// refDefaulter applies the stored version's defaults.
type refDefaulter struct{ rv *refVersions }

func (d refDefaulter) Default(obj runtime.Object) {
	u := obj.(*unstructured.Unstructured)
	if s := d.rv.served[u.GroupVersionKind().Version]; s != nil {
		structuraldefaulting.Default(u.Object, s)
	}
}

// refCoercingConverter converts with the CRD's converter, then prunes and
// coerces with the requested version's schema.
type refCoercingConverter struct {
	runtime.ObjectConvertor
	rv *refVersions
}

func (c refCoercingConverter) ConvertToVersion(in runtime.Object, gv runtime.GroupVersioner) (runtime.Object, error) {
	out, err := c.ObjectConvertor.ConvertToVersion(in, gv)
	if err != nil {
		return nil, err
	}
	u := out.(*unstructured.Unstructured)
	s := c.rv.full[u.GroupVersionKind().Version]
	if !c.rv.preserve {
		structuralpruning.PruneWithOptions(u.Object, s, true, structuralschema.UnknownFieldPathOptions{})
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s)
	}
	if ferr, _ := schemaobjectmeta.CoerceWithOptions(nil, u.Object, s, false, schemaobjectmeta.CoerceOptions{}); ferr != nil {
		return nil, ferr
	}
	return u, nil
}

// TestReadAgrees checks that both sides of BenchmarkRead serve the same
// objects.
func TestReadAgrees(t *testing.T) {
	cases := readCases(t, loadCorpus(t))
	differ := 0
	for _, rc := range cases {
		got, jerr := rc.crd.ReadJSON(context.Background(), rc.json, rc.to)
		want, _, err := rc.ref.Decode(rc.json, nil, nil)
		if err != nil || jerr != nil || len(got.Errors) > 0 {
			t.Errorf("%s at %s: reference %v, crdschema %v %v", rc.crd.Name(), rc.to, err, jerr, got.Errors)
			continue
		}
		// Read, on the decoded map, serves the same.
		v, _ := jsonfast.Decode(rc.json)
		if viaMap := rc.crd.Read(context.Background(), v.(map[string]any), rc.to); !reflect.DeepEqual(viaMap, got) {
			t.Errorf("%s at %s: Read and ReadJSON differ", rc.crd.Name(), rc.to)
		}
		if !reflect.DeepEqual(got.Object, want.(*unstructured.Unstructured).Object) {
			differ++
			if differ <= 3 {
				t.Errorf("%s at %s: crdschema %v\nreference %v", rc.crd.Name(), rc.to, got.Object, want.(*unstructured.Unstructured).Object)
			}
		}
	}
	t.Logf("%d reads, %d differ", len(cases), differ)
}

// BenchmarkRead reads every corpus example of a multi-version CRD
// (strategy None), as stored at its version, at each other served
// version: from the stored JSON bytes, crdschema's CRD.ReadJSON vs the
// apiserver's storage codec (versioning.NewCodec with the CRD's converter
// and the structural defaulter).
func BenchmarkRead(b *testing.B) {
	cases := readCases(b, loadCorpus(b))
	for _, rc := range cases {
		// The reference's codecs are built up front; so is crdschema's
		// storage (built on a CRD's first read).
		rc.crd.Read(context.Background(), map[string]any{"apiVersion": rc.crd.GroupKind().Group + "/" + rc.to, "kind": rc.crd.GroupKind().Kind, "metadata": map[string]any{}}, rc.to)
	}
	ctx := context.Background()
	// The JSON decode alone, each side's: the floor under both.
	benchReads(b, "decode/crdschema", cases, func(rc readCase) (int, error) {
		v, ok := jsonfast.Decode(rc.json)
		if !ok {
			return 0, errors.New("jsonfast declines")
		}
		return len(v.(map[string]any)), nil
	})
	benchReads(b, "decode/reference", cases, func(rc readCase) (int, error) {
		out, _, err := unstructured.UnstructuredJSONScheme.Decode(rc.json, nil, nil)
		if err != nil {
			return 0, err
		}
		return len(out.(*unstructured.Unstructured).Object), nil
	})
	benchReads(b, "corpus/crdschema", cases, func(rc readCase) (int, error) {
		r, err := rc.crd.ReadJSON(ctx, rc.json, rc.to)
		return len(r.Object), err
	})
	benchReads(b, "corpus/reference", cases, func(rc readCase) (int, error) {
		out, _, err := rc.ref.Decode(rc.json, nil, nil)
		if err != nil {
			return 0, err
		}
		return len(out.(*unstructured.Unstructured).Object), nil
	})
}

// benchReads runs read on every case per iteration, as sub-benchmark name.
func benchReads(b *testing.B, name string, cases []readCase, read func(readCase) (int, error)) {
	var bytes int64
	for _, rc := range cases {
		bytes += int64(len(rc.json))
	}
	b.Run(name, func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		cpu := processCPU()
		for b.Loop() {
			for _, rc := range cases {
				n, err := read(rc)
				if err != nil {
					b.Fatal(err)
				}
				sink += n
			}
		}
		reportCPU(b, cpu)
		b.ReportMetric(float64(len(cases)), "reads/op")
	})
}

// reportCPU reports the process's CPU time per op since cpu (cpu-ns/op,
// garbage collection included) beside the wall-clock ns/op: on a shared
// machine it is the steadier measure of the work done, though not of the
// latency, which adds the waits for a core.
func reportCPU(b *testing.B, cpu time.Duration) {
	if cpu > 0 && b.N > 0 {
		b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
	}
}
