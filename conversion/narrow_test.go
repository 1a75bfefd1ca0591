package conversion

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/internal/jsonfast"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// narrowSeeds are pairs of schemas (the version read from, the one read
// at) and objects stored at the first, where narrowing must not change a
// read: subtrees alike and not, embedded resources (whose metadata is
// looked at again), nulls dropped, defaults, lists and maps, and a
// nullable field alike at both under a map whose values differ.
var narrowSeeds = [][3]string{
	{`{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"string"}}},"b":{"type":"string"}}}}}`,
		`{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"string"}}},"c":{"type":"string"}}}}}`,
		`{"spec":{"a":{"x":"1","y":2},"b":"z","c":"w"}}`},
	{`{"type":"object","properties":{"spec":{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},"n":{"type":"object","properties":{"m":{"type":"string"}}}}},"status":{"type":"object"}}}`,
		`{"type":"object","properties":{"spec":{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},"n":{"type":"object","properties":{"m":{"type":"string"}}}}}}}`,
		`{"spec":{"e":{"apiVersion":"v1","kind":"K","metadata":{"name":"a","labels":null,"x":1},"y":null},"n":{"m":null}},"status":{"s":1}}`},
	{`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string","default":"d"},"b":{"type":"integer"}}}},"m":{"type":"object","additionalProperties":{"type":"object","properties":{"k":{"type":"string","nullable":true}}}}}}`,
		`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string","default":"d"}}}},"m":{"type":"object","additionalProperties":{"type":"object","properties":{"k":{"type":"string","nullable":true}}}},"o":{"type":"string"}}}`,
		`{"l":[{"a":null,"b":1},{"b":null},null],"m":{"p":{"k":null,"q":1}},"o":null}`},
	{`{"type":"object","properties":{"metadata":{"type":"object"},"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"a":{"type":"string"}}}}}`,
		`{"type":"object","properties":{"metadata":{"type":"object"},"spec":{"type":"object","properties":{"a":{"type":"string"}}}}}`,
		`{"spec":{"a":"x","b":{"c":null}}}`},
	{`{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"}}}}}`,
		`{"type":"object","properties":{"spec":{"type":"object","properties":{"b":{"type":"string"}}}}}`,
		`{"metadata":{"name":"a","generation":0,"labels":{"a":"b"},"bogus":1,"creationTimestamp":null,"annotations":null,"finalizers":["x"],"resourceVersion":7},"spec":{"a":"x"}}`},
	{`{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","default":"d"}}},"spec":{"type":"object"}}}`,
		`{"type":"object","properties":{"spec":{"type":"object"}}}`,
		`{"metadata":{"generateName":"g-","uid":5},"spec":{}}`},
	{`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"object","properties":{"k":{"type":"string","nullable":true}}}}}}`,
		`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"object","properties":{"k":{"type":"string","nullable":true},"j":{"type":"string"}}}}}}`,
		`{"m":{"p":{"k":null,"j":null}}}`},
}

// FuzzNarrowed checks that a read pruning at the version read at with the
// narrowed schema (narrowed) serves what pruning with its whole schema
// serves: the same object, paths and errors.
func FuzzNarrowed(f *testing.F) {
	for _, s := range narrowSeeds {
		f.Add([]byte(s[0]), []byte(s[1]), []byte(s[2]))
		f.Add([]byte(s[1]), []byte(s[0]), []byte(s[2]))
	}
	f.Fuzz(func(t *testing.T, fromJSON, toJSON, objJSON []byte) {
		from, to := narrowSchema(fromJSON), narrowSchema(toJSON)
		if from == nil || to == nil {
			return
		}
		checkNarrowed(t, from, to, objJSON)
	})
}

func TestNarrowedSeeds(t *testing.T) {
	for i, s := range narrowSeeds {
		from, to := narrowSchema([]byte(s[0])), narrowSchema([]byte(s[1]))
		if from == nil || to == nil {
			t.Fatalf("seed schemas do not build: %s %s", s[0], s[1])
		}
		// The first four have subtrees alike; the others, metadata to coerce.
		if n := narrowed2(from, to); i < 4 && n == to {
			t.Errorf("%s: nothing narrowed", s[1])
		}
		checkNarrowed(t, from, to, []byte(s[2]))
		checkNarrowed(t, to, from, []byte(s[2]))
	}
}

// narrowed2 is the schema a storage of the two versions narrows to.
func narrowed2(from, to *structural.Schema) *structural.Schema {
	return NewStorage("k", "g", map[string]Version{"v1": {Schema: from}, "v2": {Schema: to}}, false, false).step4("v1", "v2").pruneWith
}

func narrowSchema(data []byte) *structural.Schema {
	var p model.Props
	if err := model.DecodeProps(data, &p); err != nil {
		return nil
	}
	s, err := structural.New(&p)
	if err != nil {
		return nil
	}
	return s
}

func checkNarrowed(t *testing.T, from, to *structural.Schema, objJSON []byte) {
	t.Helper()
	if v, _ := jsonfast.Decode(objJSON); v == nil || reflect.TypeOf(v).Kind() != reflect.Map {
		return
	}
	versions := map[string]Version{
		"v1": {Schema: from, Defaults: defaulting.PruneDefaults(from, nil)},
		"v2": {Schema: to, Defaults: defaulting.PruneDefaults(to, nil)},
	}
	read := func(whole bool) (map[string]any, []string, any) {
		s := NewStorage("k", "g", versions, false, false)
		if whole {
			s.narrow[[2]string{"v1", "v2"}] = coercion{prune: true, pruneWith: to, rootMeta: true}
		}
		in, _ := jsonfast.Decode(objJSON)
		m := in.(map[string]any)
		m["apiVersion"], m["kind"] = "g/v1", "K"
		if _, ok := m["metadata"].(map[string]any); !ok {
			m["metadata"] = map[string]any{"name": "n"}
		}
		out, pruned, errs := s.Read(context.Background(), m, "v2", nil)
		slices.Sort(pruned)
		return out, slices.Compact(pruned), errs
	}
	got, gotPaths, gotErrs := read(false)
	want, wantPaths, wantErrs := read(true)
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotPaths, wantPaths) || !reflect.DeepEqual(gotErrs, wantErrs) {
		t.Fatalf("%s: narrowed\n got %v %v %v\nwant %v %v %v", objJSON, got, gotPaths, gotErrs, want, wantPaths, wantErrs)
	}
}
