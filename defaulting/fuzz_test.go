package defaulting

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

// FuzzDefault defaults arbitrary JSON objects with arbitrary schemas: no
// panic, the schema never changes (nor through the defaulted object),
// DropNullsAndDefault is DropNulls then Default, Default and DropNulls are
// idempotent, and so is the whole pipeline
// unless a default itself holds a null that DropNulls removes.
// Seeds are in testdata/fuzz/FuzzDefault.
func FuzzDefault(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{"foo":{"type":"string","default":"default"},"bar":{"type":"string","nullable":true},"baz":{"type":"string"}}}}}`),
		[]byte(`{"spec":{"foo":null,"bar":null,"baz":null}}`))
	f.Add([]byte(`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"object","default":{"a":null,"b":1},"properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"array","items":{"type":"string","default":"x"}}}}},"l":{"type":"array","items":{"type":"object","nullable":true,"properties":{"d":{"type":"object","default":{"e":null},"properties":{"e":{"type":"string"}}}}}}}}`),
		[]byte(`{"m":{"k":null,"j":{"a":null,"c":[null,"y"]}},"l":[null,{},{"d":null},{"d":{"e":null}}],"z":null}`))
	f.Fuzz(func(t *testing.T, schemaJSON, objJSON []byte) {
		p := &model.Props{}
		if model.DecodeProps(schemaJSON, p) != nil {
			return
		}
		s, err := structural.New(p)
		if err != nil || s == nil {
			return
		}
		before := snapshot(t, s)

		obj, ok := decodeFuzzObject(objJSON)
		if !ok {
			return
		}
		ps := PruneDefaults(s, nil)
		combined := jsonvalue.DeepCopy(obj)
		unpruned, unprunedCombined := jsonvalue.DeepCopy(obj), jsonvalue.DeepCopy(obj)
		prune.DropNulls(obj, ps)
		Default(obj, ps)
		once := jsonvalue.DeepCopy(obj)

		// The one-walk form gives the two walks' result, with the served
		// schema and with the schema as written.
		DropNullsAndDefault(combined, ps)
		if !reflect.DeepEqual(combined, once) {
			t.Fatalf("DropNullsAndDefault differs from DropNulls + Default:\n got %v\nwant %v", combined, once)
		}
		prune.DropNulls(unpruned, s)
		Default(unpruned, s)
		DropNullsAndDefault(unprunedCombined, s)
		if !reflect.DeepEqual(unprunedCombined, unpruned) {
			t.Fatalf("DropNullsAndDefault differs from DropNulls + Default (unpruned schema):\n got %v\nwant %v", unprunedCombined, unpruned)
		}
		mutateAll(combined)
		mutateAll(unpruned)
		mutateAll(unprunedCombined)

		Default(obj, ps)
		if !reflect.DeepEqual(obj, once) {
			t.Fatalf("Default is not idempotent:\n once %v\ntwice %v", once, obj)
		}
		prune.DropNulls(obj, ps)
		if !nullInDefaults(ps) && !reflect.DeepEqual(obj, once) {
			t.Fatalf("pipeline is not idempotent:\n once %v\ntwice %v", once, obj)
		}
		dropped := jsonvalue.DeepCopy(obj)
		prune.DropNulls(obj, ps)
		if !reflect.DeepEqual(obj, dropped) {
			t.Fatalf("DropNulls is not idempotent:\n once %v\ntwice %v", dropped, obj)
		}

		mutateAll(obj)
		mutateAll(once)
		if after := snapshot(t, s); after != before {
			t.Fatalf("schema changed:\n%s\nwant\n%s", after, before)
		}
	})
}

// decodeFuzzObject decodes JSON with numbers in all the forms walkers
// accept: json.Number for some inputs, float64 for others.
func decodeFuzzObject(data []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(data))
	if len(data) > 0 && data[len(data)-1]%2 == 0 {
		d.UseNumber()
	}
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	return v, true
}

// nullInDefaults reports whether any default of s holds a null.
func nullInDefaults(s *structural.Schema) bool {
	if s == nil {
		return false
	}
	if s.HasDefault && hasNull(s.Default) {
		return true
	}
	for _, c := range s.Properties {
		if nullInDefaults(c) {
			return true
		}
	}
	if s.AdditionalProperties != nil && nullInDefaults(s.AdditionalProperties.Schema) {
		return true
	}
	return nullInDefaults(s.Items)
}

func hasNull(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, e := range x {
			if hasNull(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasNull(e) {
				return true
			}
		}
	}
	return false
}
