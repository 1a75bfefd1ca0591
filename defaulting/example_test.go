package defaulting_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// Defaulting an object as the apiserver does after pruning: drop the
// non-nullable nulls without default, then apply the defaults, in place.
func Example() {
	var p schema.Props
	_ = schema.DecodeProps([]byte(`{
	  "type": "object",
	  "properties": {"spec": {"type": "object", "properties": {
	    "cronSpec": {"type": "string", "default": "5 0 * * *"},
	    "replicas": {"type": "integer", "default": 1},
	    "image":    {"type": "string"},
	    "note":     {"type": "string", "nullable": true}}}}}`), &p)
	s, _ := structural.New(&p)
	s = defaulting.PruneDefaults(s) // once per schema, as the apiserver does

	obj := map[string]any{"spec": map[string]any{"image": nil, "note": nil, "replicas": int64(3)}}
	defaulting.DropNulls(obj, s)
	defaulting.Default(obj, s)

	out, _ := json.Marshal(obj)
	fmt.Println(string(out))
	// Output: {"spec":{"cronSpec":"5 0 * * *","note":null,"replicas":3}}
}

// DropNullsAndDefault does what DropNulls and Default do, in one walk over
// the object.
func ExampleDropNullsAndDefault() {
	var p schema.Props
	_ = schema.DecodeProps([]byte(`{
	  "type": "object",
	  "properties": {"spec": {"type": "object", "properties": {
	    "ports": {"type": "array", "items": {"type": "object", "properties": {
	      "port":     {"type": "integer"},
	      "protocol": {"type": "string", "default": "TCP"}}}},
	    "image": {"type": "string"},
	    "note":  {"type": "string", "nullable": true}}}}}`), &p)
	s, _ := structural.New(&p)
	s = defaulting.PruneDefaults(s)

	obj := map[string]any{"spec": map[string]any{
		"image": nil, "note": nil,
		"ports": []any{map[string]any{"port": int64(80)}, map[string]any{"port": nil, "protocol": "UDP"}},
	}}
	defaulting.DropNullsAndDefault(obj, s)

	out, _ := json.Marshal(obj)
	fmt.Println(string(out))
	// Output: {"spec":{"note":null,"ports":[{"port":80,"protocol":"TCP"},{"protocol":"UDP"}]}}
}
