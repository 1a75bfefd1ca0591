package validation_test

import (
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// The differential tests validate the same values with the compiled walk
// (ValidateValue) and with kube-openapi's engine (the oracle) and require
// the same errors: type, field, bad value and detail, as multisets.

var mutationsPerObject = flag.Int("mutations", 6, "differential tests: mutated copies validated per object")

// errorKeys renders errors for comparison, sorted.
func errorKeys(errs field.ErrorList) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, fmt.Sprintf("%s|%s|%#v|%s", e.Type, e.Field, e.BadValue, e.Detail))
	}
	sort.Strings(out)
	return out
}

// sameAsEngine validates value both ways and describes any difference.
func sameAsEngine(v *validation.Validator, fldPath *field.Path, value any) (string, bool) {
	got := errorKeys(v.ValidateValue(fldPath, value))
	want := errorKeys(v.ValidateValueByEngine(fldPath, value))
	if strings.Join(got, "\n") == strings.Join(want, "\n") {
		return "", true
	}
	return fmt.Sprintf("compiled:\n  %s\nengine:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  ")), false
}

// readObjects reads every YAML or JSON document below root.
func readObjects(root string) []map[string]any {
	var objs []map[string]any
	eachDocumentJSON(root, func(j []byte) {
		var obj map[string]any
		if kjson.Unmarshal(j, &obj) == nil && obj != nil {
			objs = append(objs, obj)
		}
	})
	return objs
}

// engines are the validators of one CRD version.
type engines struct {
	resource, defaults *validation.Validator
}

// differential runs the compiled walk and the engine on objects (each
// routed to its CRD version in idx) and on mutated copies of them.
type differential struct {
	t          *testing.T
	idx        crdIndex
	cache      map[*model.Props]*engines
	objects    int
	values     int
	mismatches int
}

func (d *differential) route(obj map[string]any) *engines {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group, version := "", apiVersion
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		group, version = apiVersion[:i], apiVersion[i+1:]
	}
	crd := d.idx[group+"/"+kind]
	if crd == nil {
		return nil
	}
	p := crd.SchemaFor(version)
	if p == nil {
		return nil
	}
	if e, ok := d.cache[p]; ok {
		return e
	}
	var e *engines
	if s, err := structural.New(p); err == nil {
		e = &engines{resource: validation.New(s), defaults: validation.NewForDefaults(s)}
	} else {
		e = &engines{resource: validation.NewFromProps(p)}
	}
	d.cache[p] = e
	return e
}

func (d *differential) compare(label string, e *engines, value any) {
	if obj, ok := value.(map[string]any); ok && e.resource.Structural() != nil {
		d.values++
		s := e.resource.Structural()
		got := errorKeys(e.resource.Validate(obj)[len(e.resource.ValidateValue(nil, obj)):])
		want := errorKeys(validation.ListSetsAndMapsByHashing(nil, s, obj))
		also := errorKeys(validation.ValidateListSetsAndMaps(nil, s, obj))
		if g, w, a := strings.Join(got, "\n"), strings.Join(want, "\n"), strings.Join(also, "\n"); g != w || a != w {
			d.mismatches++
			d.t.Errorf("%s: list types:\nValidate:\n  %s\nValidateListSetsAndMaps:\n  %s\nhashing:\n  %s", label, g, a, w)
		}
	}
	for _, v := range []*validation.Validator{e.resource, e.defaults} {
		if v == nil {
			continue
		}
		d.values++
		if diff, ok := sameAsEngine(v, nil, value); !ok {
			d.mismatches++
			if d.mismatches <= 20 {
				j, _ := kjson.Marshal(value)
				if len(j) > 4000 {
					j = append(j[:4000], "…"...)
				}
				d.t.Errorf("%s: %s\nvalue: %s", label, diff, j)
			}
		}
	}
}

func (d *differential) run(label string, obj map[string]any) {
	e := d.route(obj)
	if e == nil {
		return
	}
	d.objects++
	d.compare(label, e, obj)
	h := fnv.New64a()
	h.Write([]byte(label))
	rng := rand.New(rand.NewSource(int64(h.Sum64())))
	for i := 0; i < *mutationsPerObject; i++ {
		m := jsonvalue.DeepCopy(obj).(map[string]any)
		for j := 0; j <= rng.Intn(3); j++ {
			mutate(rng, m)
		}
		d.compare(fmt.Sprintf("%s mutation %d", label, i), e, m)
	}
}

// slot is a place in a JSON value: a map key or a list index.
type slot struct {
	m   map[string]any
	l   []any
	key string
	i   int
}

func (s slot) get() any {
	if s.m != nil {
		return s.m[s.key]
	}
	return s.l[s.i]
}

func (s slot) set(v any) {
	if s.m != nil {
		s.m[s.key] = v
	} else {
		s.l[s.i] = v
	}
}

func collectSlots(v any, out []slot) []slot {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, slot{m: x, key: k})
			out = collectSlots(x[k], out)
		}
	case []any:
		for i := range x {
			out = append(out, slot{l: x, i: i})
			out = collectSlots(x[i], out)
		}
	}
	return out
}

// palette holds replacement values: wrong types, nulls, boundary numbers,
// long and multi-byte strings, format and pattern breakers, 1.0 vs 1.
var palette = []any{
	nil, true, false, "", "x", "Ab-9", strings.Repeat("ab", 300), strings.Repeat("ü", 70),
	"not a date", "2024-02-30", "2024-01-01T00:00:00Z", "10.0.0.1", "::1", "10.0.0.0/8", "1h30m", "PT5M",
	"aGVsbG8=", "not base64!", "user@example.com", "https://example.com/x", "DEADBEEF-0000",
	int64(0), int64(-1), int64(1), int64(2), int64(3), int64(65), int64(100), int64(65535), int64(65536),
	int64(1 << 31), int64(-1 << 31), int64(1<<31 - 1), int64(1 << 40), int64(math.MaxInt64), int64(math.MinInt64),
	float64(0), float64(1), float64(1.5), float64(-2.5), float64(1e10), float64(1 << 53), float64(1e300), math.Copysign(0, -1),
	map[string]any{}, []any{}, map[string]any{"zz-extra": "v"}, []any{"a", "a"}, []any{int64(1), float64(1)},
	[]any{map[string]any{"name": "a"}, map[string]any{"name": "a"}},
}

// mutate changes one random place of obj.
func mutate(rng *rand.Rand, obj map[string]any) {
	slots := collectSlots(obj, nil)
	if len(slots) == 0 {
		obj["zz-extra"] = palette[rng.Intn(len(palette))]
		return
	}
	s := slots[rng.Intn(len(slots))]
	switch x := s.get().(type) {
	case map[string]any:
		switch rng.Intn(4) {
		case 0:
			for k := range x {
				delete(x, k) // drop one key (maybe required)
				return
			}
		case 1:
			x["zz-extra"] = palette[rng.Intn(len(palette))]
			return
		}
	case []any:
		switch rng.Intn(4) {
		case 0:
			if len(x) > 0 {
				s.set(append(append([]any{}, x...), jsonvalue.DeepCopy(x[0]))) // duplicate
				return
			}
		case 1:
			if len(x) == 0 || len(x) > 8 {
				break
			}
			big := make([]any, 0, 20)
			for len(big) < 20 {
				big = append(big, jsonvalue.DeepCopy(x[len(big)%len(x)]))
			}
			s.set(big) // oversized
			return
		}
	case string:
		switch rng.Intn(4) {
		case 0:
			s.set(x + "!")
			return
		case 1:
			if len(x) <= 64 {
				s.set(strings.Repeat(x+"é", 40))
				return
			}
		}
	case int64:
		switch rng.Intn(4) {
		case 0:
			s.set(float64(x)) // 1 vs 1.0
			return
		case 1:
			s.set(x*1000003 + 1)
			return
		case 2:
			s.set(-x - 1)
			return
		}
	case float64:
		if rng.Intn(2) == 0 {
			s.set(x + 0.5)
			return
		}
	}
	s.set(jsonvalue.DeepCopy(palette[rng.Intn(len(palette))]))
}

func TestDifferentialCorpus(t *testing.T) {
	corpus := shareddata.Dir(t, "corpus")
	projects, _ := filepath.Glob(filepath.Join(corpus, "*", "crds"))
	if len(projects) == 0 {
		shareddata.Missing(t, filepath.Join(corpus, "*", "crds"))
	}
	if testing.Short() {
		*mutationsPerObject = 2
	}
	d := &differential{t: t, cache: map[*model.Props]*engines{}}
	// The resulting objects of the apply pipeline, as the apiserver answered.
	byProject := map[string]crdIndex{}
	for _, l := range readExpected(t, filepath.Join(corpus, "expected", "apply-nocel.jsonl")) {
		project := strings.SplitN(l.File, "/", 2)[0]
		if _, ok := byProject[project]; !ok {
			byProject[project] = loadCRDs(t, filepath.Join(corpus, project, "crds"))
		}
		d.idx = byProject[project]
		d.run(fmt.Sprintf("%s#%d", l.File, l.Document), l.Object)
	}
	// The examples as written (unknown fields and all).
	for _, crds := range projects {
		project := filepath.Dir(crds)
		d.idx = byProject[filepath.Base(project)]
		if d.idx == nil {
			d.idx = loadCRDs(t, crds)
		}
		for i, obj := range readObjects(filepath.Join(project, "examples")) {
			d.run(fmt.Sprintf("%s/examples#%d", filepath.Base(project), i), obj)
		}
	}
	t.Logf("corpus: %d objects, %d validations compared, %d mismatches", d.objects, d.values, d.mismatches)
}

func TestDifferentialConformance(t *testing.T) {
	batches, _ := filepath.Glob(filepath.Join(shareddata.Dir(t, "conformance"), "random-*", "apply-*"))
	if len(batches) == 0 {
		shareddata.Missing(t, "conformance/random-*/apply-*")
	}
	if testing.Short() {
		*mutationsPerObject = 2
	}
	d := &differential{t: t, cache: map[*model.Props]*engines{}}
	for _, b := range batches {
		d.idx = loadCRDs(t, filepath.Join(b, "crds"))
		objs, _ := filepath.Glob(filepath.Join(b, "objs*.yaml"))
		for _, f := range objs {
			for i, obj := range readObjects(f) {
				d.run(fmt.Sprintf("%s/%s#%d", filepath.Base(b), filepath.Base(f), i), obj)
			}
		}
		for _, l := range readExpected(t, filepath.Join(b, "expected.jsonl")) {
			d.run(fmt.Sprintf("%s expected %s#%d", filepath.Base(b), l.File, l.Document), l.Object)
		}
	}
	t.Logf("conformance: %d objects, %d validations compared, %d mismatches", d.objects, d.values, d.mismatches)
}
