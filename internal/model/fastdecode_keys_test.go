package model

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// jsonKeys returns the JSON keys of every struct reachable from t (through
// pointers, slices, maps and struct fields), by struct type.
func jsonKeys(t reflect.Type, out map[reflect.Type][]string) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || (t.Name() != "" && t.PkgPath() != reflect.TypeOf(Props{}).PkgPath() && t.PkgPath() != reflect.TypeOf(CRD{}).PkgPath()) {
		return
	}
	if _, seen := out[t]; seen {
		return
	}
	out[t] = nil
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out[t] = append(out[t], name)
		}
		jsonKeys(f.Type, out)
	}
}

// fastDecoderKeys returns the string literals the fast decoder looks keys
// up with: its case labels, == operands, map indices and call arguments.
func fastDecoderKeys(t *testing.T) map[string]bool {
	f, err := parser.ParseFile(token.NewFileSet(), "fastdecode.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	add := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				keys[s] = true
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CaseClause:
			for _, e := range x.List {
				add(e)
			}
		case *ast.BinaryExpr:
			if x.Op == token.EQL {
				add(x.X)
				add(x.Y)
			}
		case *ast.IndexExpr: // m["key"]
			add(x.Index)
		case *ast.CallExpr: // a key passed to a helper, d.column(e, out, "jsonPath")
			for _, a := range x.Args {
				add(a)
			}
		}
		return true
	})
	return keys
}

// TestFastDecoderHasEveryKey: every JSON key of the wire structs the exact
// decoder fills (v1 and v1beta1 CRDs, schemas) has a case in the fast
// decoder, which ignores keys it does not know; a forgotten one would
// otherwise show only if the corpus happened to use it.
func TestFastDecoderHasEveryKey(t *testing.T) {
	byType := map[reflect.Type][]string{}
	for _, v := range []any{v1CRD{}, v1beta1CRD{}, Props{}} {
		jsonKeys(reflect.TypeOf(v), byType)
	}
	known := fastDecoderKeys(t)
	var missing []string
	n := 0
	for typ, keys := range byType {
		for _, k := range keys {
			n++
			if !known[k] {
				missing = append(missing, fmt.Sprintf("%s: JSON key %q has no case in fastdecode.go", typ, k))
			}
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Error(m)
	}
	if n < 100 {
		t.Errorf("only %d JSON keys found in %d types: the walk is broken", n, len(byType))
	}
}

// everyKeyword is a schema that uses every keyword Props has, each with a
// value other than its zero value, nested keywords included. (A dependency
// given as a list of names is left to the exact decoder: see
// TestFastDecoderDeclinesDependencyLists.)
const everyKeyword = `{
	"id": "i", "$schema": "s", "$ref": "#/r", "description": "d", "type": "object",
	"format": "f", "title": "t", "default": {"a": 1},
	"maximum": 1.5, "exclusiveMaximum": true, "minimum": -1.5, "exclusiveMinimum": true,
	"maxLength": 5, "minLength": 1, "pattern": "^a$", "maxItems": 4, "minItems": 2,
	"uniqueItems": true, "multipleOf": 0.5, "enum": [1, "x", null, {"k": [true]}],
	"maxProperties": 9, "minProperties": 1, "required": ["a", "b"],
	"items": {"type": "string"},
	"allOf": [{"minLength": 1}], "oneOf": [{"maxLength": 2}], "anyOf": [{"pattern": "b"}],
	"not": {"type": "integer"},
	"properties": {"a": {"type": "integer", "format": "int32"}, "b": {"type": "string"}},
	"additionalProperties": {"type": "boolean"},
	"patternProperties": {"^x-": {"type": "number"}},
	"dependencies": {"b": {"required": ["a"]}},
	"additionalItems": false,
	"definitions": {"d": {"type": "array"}},
	"externalDocs": {"description": "docs", "url": "https://example.com"},
	"example": [1, 2],
	"nullable": true,
	"x-kubernetes-preserve-unknown-fields": true,
	"x-kubernetes-embedded-resource": true,
	"x-kubernetes-int-or-string": true,
	"x-kubernetes-list-map-keys": ["k"],
	"x-kubernetes-list-type": "map",
	"x-kubernetes-map-type": "granular",
	"x-kubernetes-validations": [{"rule": "self.a > 0", "message": "m", "messageExpression": "'m'",
		"reason": "FieldValueInvalid", "fieldPath": ".a", "optionalOldSelf": true}]
}`

// TestFastDecoderAgreesOnEveryKeyword decodes a schema using every keyword
// with both decoders; the results must be identical, and the schema must
// indeed use every key of Props, ValidationRule and ExternalDocs.
func TestFastDecoderAgreesOnEveryKeyword(t *testing.T) {
	var raw map[string]any
	if err := json.Unmarshal([]byte(everyKeyword), &raw); err != nil {
		t.Fatal(err)
	}
	byType := map[reflect.Type][]string{}
	jsonKeys(reflect.TypeOf(Props{}), byType)
	used := map[reflect.Type]map[string]bool{
		reflect.TypeOf(Props{}):          keysOf(raw),
		reflect.TypeOf(ValidationRule{}): keysOf(raw["x-kubernetes-validations"].([]any)[0].(map[string]any)),
		reflect.TypeOf(ExternalDocs{}):   keysOf(raw["externalDocs"].(map[string]any)),
	}
	for typ, keys := range used {
		for _, k := range byType[typ] {
			if !keys[k] {
				t.Errorf("everyKeyword does not use %s key %q: add it", typ, k)
			}
		}
	}

	fast, ok := fastDecodeProps([]byte(everyKeyword))
	if !ok {
		t.Fatal("the fast decoder declined the schema")
	}
	var exact Props
	if err := decodePropsExact([]byte(everyKeyword), &exact); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*fast, exact) {
		a, _ := json.Marshal(fast)
		b, _ := json.Marshal(&exact)
		t.Errorf("fast and exact decoders differ:\nfast  %s\nexact %s", a, b)
	}
}

func keysOf(m map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// TestFastDecoderDeclinesDependencyLists: the one value form the fast
// decoder leaves to the exact decoder, which must then be used.
func TestFastDecoderDeclinesDependencyLists(t *testing.T) {
	data := []byte(`{"dependencies": {"a": ["b"]}}`)
	if _, ok := fastDecodeProps(data); ok {
		t.Error("the fast decoder took a dependency list")
	}
	var p Props
	if err := DecodeProps(data, &p); err != nil {
		t.Fatal(err)
	}
	if got := p.Dependencies["a"].Property; !reflect.DeepEqual(got, []string{"b"}) {
		t.Errorf("DecodeProps: dependencies.a = %v, want [b]", got)
	}
}
