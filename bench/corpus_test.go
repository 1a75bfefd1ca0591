package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	apiextcel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/check"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// corpusDir finds the shared corpus: $CRDSCHEMA_CORPUS, or ../shared/corpus
// beside the checkout.
func corpusDir() string {
	if d := os.Getenv("CRDSCHEMA_CORPUS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "corpus")
}

// crdFile is one corpus CRD file, with both sides' inputs prepared.
type crdFile struct {
	project string
	name    string // file name without .yaml
	yaml    []byte
	json    []byte // the document as kubectl sends it
	// noCEL is json with every x-kubernetes-validations removed.
	noCEL []byte
	// noCELYAML is noCEL as YAML.
	noCELYAML []byte
}

// corpus is everything the object benchmarks need, loaded once.
type corpus struct {
	crds    []*crdFile
	byName  map[string]*crdFile
	objects []*routed
	bytes   int64 // total JSON bytes of objects
}

// routed is one example object and the CRD version serving it, compiled
// on both sides.
type routed struct {
	file string
	obj  map[string]any
	json []byte
	v    *version
	// clean is obj after crdschema's create pipeline: nothing to prune,
	// no null to drop, nothing to default.
	clean map[string]any
}

// version is one served CRD version, compiled on both sides.
type version struct {
	cs       *crdschema.Schema
	csServed *structural.Schema // defaults pruned, as served
	csValues *validation.Validator
	csRules  *cel.Validator // nil without rules

	ref       *structuralschema.Structural
	refServed *structuralschema.Structural
	refProps  *apiextensions.JSONSchemaProps
	refValid  apiservervalidation.SchemaValidator
	refRules  *apiextcel.Validator // nil without rules
	gk        [2]string
	namespace bool
}

var (
	corpusOnce sync.Once
	corpusVal  *corpus
	corpusErr  error
)

// corpusMissing skips tb for want of the corpus, or fails it when
// CRDSCHEMA_REQUIRE_SHARED=1 (CI sets it: a pin or benchmark that skips
// there would vanish silently).
func corpusMissing(tb testing.TB, err error) {
	tb.Helper()
	msg := fmt.Sprintf("corpus not found at %s (set CRDSCHEMA_CORPUS or put ../shared beside the checkout): %v", corpusDir(), err)
	if os.Getenv("CRDSCHEMA_REQUIRE_SHARED") == "1" {
		tb.Fatal(msg + " (CRDSCHEMA_REQUIRE_SHARED=1: it must be present)")
	}
	tb.Skip(msg)
}

// loadCorpus loads the corpus once, or skips b when it is absent.
func loadCorpus(tb testing.TB) *corpus {
	tb.Helper()
	if _, err := os.Stat(corpusDir()); err != nil {
		corpusMissing(tb, err)
	}
	corpusOnce.Do(func() { corpusVal, corpusErr = readCorpus(corpusDir()) })
	if corpusErr != nil {
		tb.Fatal(corpusErr)
	}
	return corpusVal
}

// refCodec decodes apiextensions.k8s.io objects as the apiserver does: into
// the internal version, with the defaults of the request's version.
type refCodec struct {
	scheme  *runtime.Scheme
	decoder runtime.Decoder
}

var refCodecVal = sync.OnceValue(func() *refCodec {
	s := runtime.NewScheme()
	install.Install(s)
	return &refCodec{scheme: s, decoder: serializer.NewCodecFactory(s).UniversalDecoder()}
})

// decodeCRD is the reference's decode of a CRD request body.
func (c *refCodec) decodeCRD(data []byte) (*apiextensions.CustomResourceDefinition, error) {
	obj, _, err := c.decoder.Decode(data, nil, nil)
	if err != nil {
		return nil, err
	}
	crd, ok := obj.(*apiextensions.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("decoded %T", obj)
	}
	return crd, nil
}

// refCheck is what the reference does with a decoded CRD on create
// (ValidateCustomResourceDefinition), plus building and validating the
// structural schema of every version, as crdschema's structural.New does.
func refCheck(crd *apiextensions.CustomResourceDefinition) int {
	crd.Namespace = ""
	errs := apiextensionsvalidation.ValidateCustomResourceDefinition(context.Background(), crd)
	n := len(errs)
	each := func(p *field.Path, v *apiextensions.CustomResourceValidation) {
		if v == nil || v.OpenAPIV3Schema == nil {
			return
		}
		s, err := structuralschema.NewStructural(v.OpenAPIV3Schema)
		if err != nil {
			n++
			return
		}
		n += len(structuralschema.ValidateStructural(p, s))
	}
	each(field.NewPath("spec", "validation"), crd.Spec.Validation)
	for i := range crd.Spec.Versions {
		each(field.NewPath("spec", "versions").Index(i), crd.Spec.Versions[i].Schema)
	}
	return n
}

// csCheck is crdschema's decode + check + build of a CRD document's JSON.
func csCheck(data []byte) (int, error) {
	crd, err := model.DecodeCRD(data)
	if err != nil {
		return 0, err
	}
	return csCheckCRD(crd), nil
}

// csCheckCRD checks a decoded CRD and builds every version's structural
// schema; it returns the number of errors.
func csCheckCRD(crd *model.CRD) int {
	errs, built := check.CRD(crd)
	n := len(errs)
	for _, v := range crd.Spec.Versions {
		// As CRD.Version does when it runs the check (a CRD whose Errors
		// ran first builds them again): the structural model the check
		// built, if any.
		if p := crd.SchemaFor(v.Name); p != nil && built.Structural(p) == nil {
			if _, err := structural.New(p); err != nil {
				n++
			}
		}
	}
	return n
}

// csFromYAML is crdschema's read + decode + check + build of a CRD file.
func csFromYAML(data []byte) (int, error) {
	docs, err := schema.ReadDocuments("crd", data)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, d := range docs {
		// As the command and LoadCRD do: convert the value already read
		// instead of decoding the document's JSON again.
		crd, err := model.DecodeCRDDocument(d)
		if err != nil {
			return 0, err
		}
		n += csCheckCRD(crd)
	}
	return n, nil
}

// refFromYAML is the reference's: sigs.k8s.io/yaml to JSON (as kubectl
// does), decode, validate.
func refFromYAML(data []byte) (int, error) {
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return 0, err
	}
	return refFromJSON(j)
}

// refFromJSON is the reference's decode + validate of a CRD's JSON.
func refFromJSON(data []byte) (int, error) {
	crd, err := refCodecVal().decodeCRD(data)
	if err != nil {
		return 0, err
	}
	return refCheck(crd), nil
}

// stripCEL removes every x-kubernetes-validations key.
func stripCEL(v any) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "x-kubernetes-validations")
		for _, e := range x {
			stripCEL(e)
		}
	case []any:
		for _, e := range x {
			stripCEL(e)
		}
	}
}

func readCorpus(dir string) (*corpus, error) {
	c := &corpus{byName: map[string]*crdFile{}}
	files, err := filepath.Glob(filepath.Join(dir, "*", "crds", "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	type key struct{ project, group, kind string }
	type loaded struct {
		crd  *crdschema.CRD
		json []byte
	}
	crdsByKind := map[key]*loaded{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		docs, err := schema.ReadDocuments(f, data)
		if err != nil || len(docs) != 1 {
			return nil, fmt.Errorf("%s: %d documents, %v", f, len(docs), err)
		}
		project := filepath.Base(filepath.Dir(filepath.Dir(f)))
		cf := &crdFile{project: project, name: strings.TrimSuffix(filepath.Base(f), ".yaml"), yaml: data, json: docs[0].JSON()}
		var m map[string]any
		if err := json.Unmarshal(docs[0].JSON(), &m); err != nil {
			return nil, err
		}
		stripCEL(m)
		if cf.noCEL, err = json.Marshal(m); err != nil {
			return nil, err
		}
		if cf.noCELYAML, err = yaml.JSONToYAML(cf.noCEL); err != nil {
			return nil, err
		}
		c.crds = append(c.crds, cf)
		c.byName[project+"/"+cf.name] = cf

		crd, err := crdschema.LoadCRD(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		if len(crd.Errors()) > 0 {
			continue
		}
		gk := crd.GroupKind()
		k := key{project, gk.Group, gk.Kind}
		if _, ok := crdsByKind[k]; !ok {
			crdsByKind[k] = &loaded{crd, docs[0].JSON()}
		}
	}

	// Compile both sides for every served version used by an example.
	versions := map[*crdschema.CRD]map[string]*version{}
	compile := func(l *loaded, name string) (*version, error) {
		crd := l.crd
		if versions[crd] == nil {
			versions[crd] = map[string]*version{}
		}
		if v, ok := versions[crd][name]; ok {
			return v, nil
		}
		versions[crd][name] = nil
		in, err := model.DecodeCRD(l.json)
		if err != nil {
			return nil, err
		}
		if in.Spec.PreserveUnknownFields != nil && *in.Spec.PreserveUnknownFields {
			return nil, nil // nothing is pruned: left out
		}
		cs, err := crd.Version(name)
		if err != nil || cs.Structural() == nil {
			return nil, err
		}
		refCRD, err := refCodecVal().decodeCRD(l.json)
		if err != nil {
			return nil, err
		}
		val, err := apiextensions.GetSchemaForVersion(refCRD, name)
		if err != nil || val == nil || val.OpenAPIV3Schema == nil {
			return nil, err
		}
		ref, err := structuralschema.NewStructural(val.OpenAPIV3Schema)
		if err != nil {
			return nil, err
		}
		served := ref.DeepCopy()
		if err := structuraldefaulting.PruneDefaults(served); err != nil {
			return nil, err
		}
		refValid, _, err := apiservervalidation.NewSchemaValidator(val.OpenAPIV3Schema)
		if err != nil {
			return nil, err
		}
		v := &version{
			cs: cs, csServed: defaulting.PruneDefaults(cs.Structural(), nil), csValues: validation.New(cs.Structural()),
			csRules: cel.NewValidator(cs.Structural(), true, nil),
			ref:     ref, refServed: served, refProps: val.OpenAPIV3Schema, refValid: refValid,
			refRules: apiextcel.NewValidator(ref, true, celconfig.PerCallLimit),
			gk:       [2]string{in.Spec.Group, in.Spec.Names.Kind}, namespace: in.Spec.Scope != "Cluster",
		}
		versions[crd][name] = v
		return v, nil
	}

	examples, err := filepath.Glob(filepath.Join(dir, "*", "examples", "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(examples)
	for _, f := range examples {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		docs, err := schema.ReadDocuments(f, data)
		if err != nil {
			continue
		}
		project := filepath.Base(filepath.Dir(filepath.Dir(f)))
		for _, d := range docs {
			if d.Object == nil {
				continue
			}
			apiVersion, _ := d.Object["apiVersion"].(string)
			kind, _ := d.Object["kind"].(string)
			group, ver, ok := strings.Cut(apiVersion, "/")
			if !ok {
				continue
			}
			l := crdsByKind[key{project, group, kind}]
			if l == nil {
				continue
			}
			v, err := compile(l, ver)
			if err != nil || v == nil {
				continue
			}
			clean := v.cs.Apply(d.Object)
			if clean.Object == nil {
				continue
			}
			c.objects = append(c.objects, &routed{file: f, obj: d.Object, json: d.JSON(), v: v, clean: clean.Object})
			c.bytes += int64(len(d.JSON()))
		}
	}
	if len(c.objects) == 0 {
		return nil, fmt.Errorf("no routable example in %s", dir)
	}
	return c, nil
}
