package prune_test

import (
	"encoding/json"
	"reflect"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

// FuzzPrune prunes arbitrary objects against arbitrary schemas: no panic,
// pruning twice is pruning once, every reported path existed in the input
// and is gone from the output, Options.DropNulls gives Prune followed by
// defaulting.DropNulls, and the schema is never changed. It also
// runs the prune verb's metadata coercion for resource roots.
func FuzzPrune(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"}}}}}`),
		[]byte(`{"apiVersion":"v1","kind":"K","metadata":{"name":"x","foo":1},"spec":{"a":"b","c":"d"}}`), true)
	f.Add([]byte(`{"type":"object","properties":{"json":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"spec":{"type":"object","properties":{"foo":{"type":"string"}}}}}}}`),
		[]byte(`{"json":{"spec":{"foo":"a","x":1},"status":{"y":2}}}`), true)
	f.Add([]byte(`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}`),
		[]byte(`{"m":{"a.b":{"apiVersion":1,"metadata":{"labels":{"a":1},"x":2}},"":{"metadata":"s"}}}`), true)
	f.Add([]byte(`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","additionalProperties":false}}}}`),
		[]byte(`{"apiVersion":"v1","l":[{"a":{"b":1}},[{"c":1}],null,3]}`), false)
	f.Add([]byte(`{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string"}}},"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"a":{"type":"string"},"l":{"type":"array","items":{"type":"object","properties":{"b":{"type":"string"},"d":{"type":"string","default":"x"}}}}}}}}`),
		[]byte(`{"metadata":{"name":null},"kind":null,"spec":{"a":null,"u":null,"l":[null,{"b":null,"c":null,"d":null}]}}`), true)
	f.Add([]byte(`{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"additionalProperties":{"type":"object","properties":{"n":{"type":"string"}}}}}}`),
		[]byte(`{"e":{"metadata":{"n":null},"kind":null,"x":{"n":null,"m":null}},"z":null}`), false)
	f.Fuzz(func(t *testing.T, schemaJSON, objectJSON []byte, root bool) {
		var p model.Props
		if err := model.DecodeProps(schemaJSON, &p); err != nil {
			return
		}
		s, err := structural.New(&p)
		if err != nil {
			return
		}
		pristine, _ := structural.New(&p)
		var obj any
		if err := utiljson.Unmarshal(objectJSON, &obj); err != nil {
			return
		}
		in := jsonvalue.DeepCopy(obj)

		paths := prune.PrunePaths(obj, s, prune.Options{ResourceRoot: root, ReturnPaths: true})
		for _, path := range paths {
			if _, ok := path.Lookup(in); !ok {
				t.Fatalf("reported %s, not in the input", path)
			}
			if _, ok := path.Lookup(obj); ok {
				t.Fatalf("reported %s, still in the output", path)
			}
		}
		once := jsonvalue.DeepCopy(obj)
		if again := prune.Prune(obj, s, prune.Options{ResourceRoot: root, ReturnPaths: true}); len(again) > 0 || !reflect.DeepEqual(obj, once) {
			t.Fatalf("pruning twice differs from pruning once: %v", again)
		}
		silent := jsonvalue.DeepCopy(in)
		if ps := prune.Prune(silent, s, prune.Options{ResourceRoot: root}); ps != nil || !reflect.DeepEqual(silent, obj) {
			t.Fatal("pruning without paths differs")
		}

		// Dropping nulls in the pruning walk is pruning, then DropNulls.
		want := jsonvalue.DeepCopy(obj)
		prune.DropNulls(want, s)
		for _, track := range []bool{false, true} {
			got := jsonvalue.DeepCopy(in)
			ps := prune.Prune(got, s, prune.Options{ResourceRoot: root, ReturnPaths: track, DropNulls: true})
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("pruning with DropNulls (paths %v) differs from Prune + DropNulls:\n got %v\nwant %v", track, got, want)
			}
			if track && !reflect.DeepEqual(ps, objpath.Strings(paths)) && !(len(ps) == 0 && len(paths) == 0) {
				t.Fatalf("pruning with DropNulls reports %v, want %v", ps, paths)
			}
		}

		if m, ok := obj.(map[string]any); ok && root {
			opts := embedded.CoerceOptions{DropMalformed: true, ReturnPaths: true}
			if _, err := embedded.CoerceResourceMeta(m, opts); err == nil {
				embedded.CoerceEmbedded(m, s, opts)
				b, err := json.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				var twice map[string]any
				if err := utiljson.Unmarshal(b, &twice); err != nil {
					t.Fatal(err)
				}
				embedded.CoerceResourceMeta(twice, opts)
				ps, errs := embedded.CoerceEmbedded(twice, s, opts)
				b2, _ := json.Marshal(twice)
				if len(ps) > 0 || len(errs) > 0 || string(b) != string(b2) {
					t.Fatalf("coercing twice differs: %v %v\n%s\n%s", ps, errs, b, b2)
				}
			}
			coerced := jsonvalue.DeepCopy(in).(map[string]any)
			if _, err := embedded.CoerceResourceMeta(coerced, embedded.CoerceOptions{ReturnPaths: true}); err == nil {
				embedded.CoerceEmbedded(coerced, s, embedded.CoerceOptions{ReturnPaths: true})
			}
		}
		if !reflect.DeepEqual(s, pristine) {
			t.Fatal("the schema changed")
		}
	})
}
