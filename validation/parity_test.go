package validation_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/internal/cel"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// The parity test replays the apiserver's answers for apply: each expected
// resulting object (already pruned and defaulted) is validated again, and the
// (type, field) pairs of the errors this package and embedded's metadata
// validation are responsible for must be the expected ones.

type expectedLine struct {
	File     string         `json:"file"`
	Document int            `json:"document"`
	Object   map[string]any `json:"-"`
	Errors   []struct {
		Type   string `json:"type"`
		Field  string `json:"field"`
		Detail string `json:"detail"`
	} `json:"errors"`
}

var withDetail = flag.Bool("detail", true, "parity tests also compare error details")

type crdIndex map[string]*model.CRD // group/kind → CRD

func loadCRDs(t testing.TB, paths ...string) crdIndex {
	idx := crdIndex{}
	for _, root := range paths {
		eachDocumentJSON(root, func(j []byte) {
			crd, err := model.DecodeCRD(j)
			if err != nil || crd == nil {
				return
			}
			key := crd.Spec.Group + "/" + crd.Spec.Names.Kind
			if _, ok := idx[key]; !ok {
				idx[key] = crd
			}
		})
	}
	return idx
}

// eachDocumentJSON calls fn with the JSON of every YAML or JSON document
// in the files below root (as kubectl would send it), skipping empty and
// unreadable ones.
func eachDocumentJSON(root string, fn func(j []byte)) {
	_ = filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for _, doc := range strings.Split(string(data), "\n---") {
			j, err := yaml.YAMLToJSON([]byte(doc))
			if err != nil || len(j) == 0 || string(j) == "null" {
				continue
			}
			fn(j)
		}
		return nil
	})
}

type compiled struct {
	s     *structural.Schema
	v     *validation.Validator
	rules *cel.Validator
}

// celAside counts the expected errors that come from x-kubernetes-validations
// rules (and the root error saying they were skipped): this package has no
// CEL by design; the errors are compared where the pipeline evaluates rules,
// in cmd/crdschema's TestConformanceApply and TestCorpusApply.
var celAside int

// check validates obj and returns the (type, field) pairs got and wanted
// that differ.
func check(t *testing.T, idx crdIndex, cache map[*model.Props]compiled, line expectedLine) (missing, extra []string, ok bool) {
	obj := line.Object
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group, version := "", apiVersion
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		group, version = apiVersion[:i], apiVersion[i+1:]
	}
	crd := idx[group+"/"+kind]
	if crd == nil {
		return nil, nil, false
	}
	p := crd.SchemaFor(version)
	c, found := cache[p]
	if !found {
		s, err := structural.New(p)
		if err != nil {
			return nil, nil, false
		}
		c = compiled{s, validation.New(s), cel.NewValidator(s, true, nil)}
		cache[p] = c
	}
	var errs field.ErrorList
	namespaced := crd.Spec.Scope != "Cluster"
	meta, _ := obj["metadata"].(map[string]any)
	vobj := make(map[string]any, len(obj)+1)
	for k, v := range obj {
		vobj[k] = v
	}
	vobj["metadata"] = embedded.MetaForCreate(meta, namespaced)
	obj = vobj
	errs = append(errs, embedded.ValidateResourceMeta(meta, namespaced)...)
	errs = append(errs, c.v.Validate(obj)...)
	errs = append(errs, embedded.Validate(nil, obj, c.s, false)...)

	var celErrs field.ErrorList
	if c.rules != nil {
		if e := cel.BlockingError(errs); e != nil {
			celErrs = field.ErrorList{e}
		} else {
			celErrs, _ = c.rules.Validate(context.Background(), obj, nil, cel.Options{})
		}
	}
	fromCEL := map[string]int{}
	for _, e := range celErrs {
		fromCEL[string(e.Type)+" "+e.Field+": "+e.Detail]++
	}

	got := map[string]bool{}
	for _, e := range errs {
		got[string(e.Type)+" "+e.Field] = true
		if *withDetail {
			got[string(e.Type)+" "+e.Field+": "+e.Detail] = true
		}
	}
	want := map[string]bool{}
	for _, e := range line.Errors {
		if e.Type == "FieldValueNotFound" || strings.HasSuffix(e.Field, "replicas") && strings.Contains(e.Detail, "accessor error") {
			continue // routing and scale: not ours
		}
		if k := e.Type + " " + e.Field + ": " + e.Detail; fromCEL[k] > 0 {
			fromCEL[k]--
			celAside++
			continue
		}
		want[e.Type+" "+e.Field] = true
		if *withDetail {
			want[e.Type+" "+e.Field+": "+e.Detail] = true
		}
	}
	for k := range want {
		if !got[k] {
			missing = append(missing, k)
		}
	}
	for k := range got {
		if !want[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return missing, extra, true
}

func readExpected(t *testing.T, path string) []expectedLine {
	f, err := os.Open(path)
	if err != nil {
		shareddata.Missing(t, path)
	}
	defer f.Close()
	var lines []expectedLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<20), 64<<20)
	for sc.Scan() {
		var l expectedLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		var raw struct {
			Object json.RawMessage `json:"object"`
		}
		_ = json.Unmarshal(sc.Bytes(), &raw)
		if len(raw.Object) == 0 || string(raw.Object) == "null" {
			continue
		}
		if err := kjson.Unmarshal(raw.Object, &l.Object); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	return lines
}

func TestParityConformanceApply(t *testing.T) {
	batches, _ := filepath.Glob(filepath.Join(shareddata.Dir(t, "conformance"), "random-*", "apply-*"))
	if len(batches) == 0 {
		shareddata.Missing(t, "conformance/random-*/apply-*")
	}
	total, bad := 0, 0
	for _, b := range batches {
		idx := loadCRDs(t, filepath.Join(b, "crds"))
		cache := map[*model.Props]compiled{}
		for _, l := range readExpected(t, filepath.Join(b, "expected.jsonl")) {
			missing, extra, ok := check(t, idx, cache, l)
			if !ok {
				continue
			}
			total++
			if len(missing)+len(extra) > 0 {
				bad++
				t.Logf("%s %s#%d: missing %v, extra %v", filepath.Base(b), l.File, l.Document, missing, extra)
			}
		}
	}
	t.Logf("conformance apply: %d objects, %d with differing errors; %d expected errors from CEL rules set aside (compared in cmd/crdschema)", total, bad, celAside)
	if bad > 0 {
		t.Errorf("%d mismatches", bad)
	}
}

func TestParityCorpusApplyNoCEL(t *testing.T) {
	corpus := shareddata.Dir(t, "corpus")
	lines := readExpected(t, filepath.Join(corpus, "expected", "apply-nocel.jsonl"))
	byProject := map[string]crdIndex{}
	cache := map[*model.Props]compiled{}
	total, bad := 0, 0
	for _, l := range lines {
		project := strings.SplitN(l.File, "/", 2)[0]
		idx, ok := byProject[project]
		if !ok {
			idx = loadCRDs(t, filepath.Join(corpus, project, "crds"))
			byProject[project] = idx
		}
		missing, extra, ok := check(t, idx, cache, l)
		if !ok {
			continue
		}
		total++
		if len(missing)+len(extra) > 0 {
			bad++
			t.Logf("%s#%d: missing %v, extra %v", l.File, l.Document, missing, extra)
		}
	}
	t.Logf("corpus apply-nocel: %d objects, %d with differing errors", total, bad)
	if bad > 0 {
		t.Errorf("%d mismatches", bad)
	}
}
