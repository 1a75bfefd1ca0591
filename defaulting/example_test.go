package defaulting_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// Defaulting an object as the apiserver does after pruning: drop the
// non-nullable nulls without default, then apply the defaults, in place.
func Example() {
	p, err := schema.Parse([]byte(`{
	  "type": "object",
	  "properties": {"spec": {"type": "object", "properties": {
	    "cronSpec": {"type": "string", "default": "5 0 * * *"},
	    "replicas": {"type": "integer", "default": 1},
	    "image":    {"type": "string"},
	    "note":     {"type": "string", "nullable": true}}}}}`))
	if err != nil {
		log.Fatal(err)
	}
	s, err := structural.New(p) // rules 1–4: structural.Validate
	if err != nil {
		panic(err)
	}
	s = defaulting.PruneDefaults(s, nil) // once per schema, as the apiserver does

	obj := map[string]any{"spec": map[string]any{"image": nil, "note": nil, "replicas": int64(3)}}
	defaulting.DropNullsAndDefault(obj, s)

	out, _ := json.Marshal(obj)
	fmt.Println(string(out))
	// Output: {"spec":{"cronSpec":"5 0 * * *","note":null,"replicas":3}}
}

// List items are defaulted one by one; a null field inside an item is
// dropped before the item is defaulted.
func ExampleDropNullsAndDefault() {
	p, err := schema.Parse([]byte(`{
	  "type": "object",
	  "properties": {"spec": {"type": "object", "properties": {
	    "ports": {"type": "array", "items": {"type": "object", "properties": {
	      "port":     {"type": "integer"},
	      "protocol": {"type": "string", "default": "TCP"}}}},
	    "image": {"type": "string"},
	    "note":  {"type": "string", "nullable": true}}}}}`))
	if err != nil {
		log.Fatal(err)
	}
	s, err := structural.New(p) // rules 1–4: structural.Validate
	if err != nil {
		panic(err)
	}
	s = defaulting.PruneDefaults(s, nil)

	obj := map[string]any{"spec": map[string]any{
		"image": nil, "note": nil,
		"ports": []any{map[string]any{"port": int64(80)}, map[string]any{"port": nil, "protocol": "UDP"}},
	}}
	defaulting.DropNullsAndDefault(obj, s)

	out, _ := json.Marshal(obj)
	fmt.Println(string(out))
	// Output: {"spec":{"note":null,"ports":[{"port":80,"protocol":"TCP"},{"protocol":"UDP"}]}}
}
