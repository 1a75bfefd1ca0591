package prune_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

func mustStructural(t testing.TB, text string) *structural.Schema {
	t.Helper()
	p, err := schema.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// suggestSchema has the shapes a path goes through: nested objects, a
// list of objects, a map (additionalProperties) whose keys hold dots, an
// embedded resource, and siblings that compete for one misspelling.
const suggestSchema = `{"type": "object", "properties": {
	"spec": {"type": "object", "properties": {
		"replicas": {"type": "integer"},
		"port": {"type": "integer"},
		"ports": {"type": "array", "items": {"type": "object", "properties": {
			"containerPort": {"type": "integer"}, "protocol": {"type": "string"}}}},
		"resourceIgnoreDifferences": {"type": "object", "properties": {
			"managedFieldsManagers": {"type": "array", "items": {"type": "string"}}}},
		"byHost": {"type": "object", "additionalProperties": {"type": "object", "properties": {
			"weight": {"type": "integer"}}}},
		"template": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
			"spec": {"type": "object"}}},
		"nodeSelector": {"type": "string"},
		"Selector": {"type": "string"}}}}}`

func TestSuggest(t *testing.T) {
	s := mustStructural(t, suggestSchema)
	for _, c := range []struct{ path, want string }{
		{"spec.replica", "spec.replicas"},  // one letter missing
		{"spec.repilcas", "spec.replicas"}, // two neighbours swapped
		{"spec.Replicas", "spec.replicas"}, // letter case only
		{"spec.resourceIgnoreDifferences.managedFieldManagers", "spec.resourceIgnoreDifferences.managedFieldsManagers"},
		{"spec.ports[3].containerport", "spec.ports[3].containerPort"},
		{"spec.ports[0].protocl", "spec.ports[0].protocol"},
		{"spec.byHost.a.example.com.wieght", "spec.byHost.a.example.com.weight"}, // a map key with dots
		{"spec.template.kindd", "spec.template.kind"},                            // implicit field of an embedded resource
		{"spc", "spec"},
		{"kindd", "kind"},           // implicit at the resource root
		{"spec.prts", "spec.ports"}, // 1 from ports, 2 from port
		{"spec.selector", "spec.Selector"},
		{"spec.image", ""},          // nothing close
		{"spec.re", ""},             // too short to be a misspelling of replicas
		{"spec.replicas.extra", ""}, // not under a declared object: no sibling
		{"status.foo", ""},          // no status declared: foo has no siblings
		{"spec.ports[x].protocl", ""},
		{"spec.ports[0]", ""},
		{"", ""},
	} {
		if got := prune.Suggest(s, c.path, true); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.path, got, c.want)
		}
	}
	if got := prune.Suggest(s, "kindd", false); got != "" {
		t.Errorf("Suggest(kindd) outside a resource root = %q, want none", got)
	}
	if got := prune.Suggest(nil, "kindd", true); got != "kind" {
		t.Errorf("Suggest(kindd) with no schema at a resource root = %q, want kind", got)
	}
	if got := prune.Suggest(nil, "spec", false); got != "" {
		t.Errorf("Suggest with no schema = %q, want none", got)
	}
}

// Every path Prune reports leads through the schema: Suggest finds the
// misspelt fields of a pruned object at their exact paths.
func TestSuggestPrunedPaths(t *testing.T) {
	s := mustStructural(t, suggestSchema)
	var obj map[string]any
	if err := json.Unmarshal([]byte(`{"apiVersion": "v1", "kind": "X", "metadata": {},
		"spec": {"replica": 3, "ports": [{"containerPort": 80}, {"protocl": "TCP"}],
			"byHost": {"x.y": {"wieght": 2}}, "unrelatedThing": true}}`), &obj); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range prune.Prune(obj, s, prune.Options{ResourceRoot: true, ReturnPaths: true}) {
		got = append(got, p+" -> "+prune.Suggest(s, p, true))
	}
	want := `[spec.byHost.x.y.wieght -> spec.byHost.x.y.weight spec.ports[1].protocl -> spec.ports[1].protocol spec.replica -> spec.replicas spec.unrelatedThing -> ]`
	if fmt.Sprint(got) != want {
		t.Errorf("got  %v\nwant %s", got, want)
	}
}

func ExampleSuggest() {
	p, _ := schema.Parse([]byte(`{"type": "object", "properties": {"spec": {"type": "object", "properties": {
		"replicas": {"type": "integer"}, "image": {"type": "string"}}}}}`))
	s, _ := structural.New(p)
	obj := map[string]any{"spec": map[string]any{"replica": 3}}
	for _, path := range prune.Prune(obj, s, prune.Options{ResourceRoot: true, ReturnPaths: true}) {
		fmt.Printf("unknown field %q, did you mean %q?\n", path, prune.Suggest(s, path, true))
	}
	// Output:
	// unknown field "spec.replica", did you mean "spec.replicas"?
}

// Equally close names: the longer common prefix wins, then sorted order.
func TestSuggestTies(t *testing.T) {
	s := mustStructural(t, `{"type": "object", "properties": {"xbcd": {"type": "string"}, "abce": {"type": "string"}, "abcf": {"type": "string"}}}`)
	if got := prune.Suggest(s, "abcd", false); got != "abce" {
		t.Errorf("Suggest(abcd) = %q, want abce (prefix abc, before abcf)", got)
	}
}

// A path of many dots under nested maps is read in time proportional to
// its separators and the schema's nodes, not to the ways of splitting it.
func TestSuggestManyDots(t *testing.T) {
	nested := `{"type": "object", "properties": {"leaf": {"type": "string"}}}`
	for range 6 {
		nested = `{"type": "object", "additionalProperties": ` + nested + `}`
	}
	s := mustStructural(t, nested)
	path := strings.Repeat("a.", 2000) + "laef"
	if got := prune.Suggest(s, path, false); !strings.HasSuffix(got, ".leaf") {
		t.Errorf("Suggest = %q, want a path ending in .leaf", got)
	}
}

// Any path, however malformed, gets an answer and no panic; an answer is a
// path ending in a declared name.
func FuzzSuggest(f *testing.F) {
	for _, p := range []string{"spec.replica", "spec.ports[3].protocl", "spec.byHost.a.b.wieght", "[", "spec.ports[", "spec..x", ".", "spec.ports[0]]."} {
		f.Add(p)
	}
	s := mustStructural(f, suggestSchema)
	f.Fuzz(func(t *testing.T, path string) {
		got := prune.Suggest(s, path, true)
		if got != "" && got == path {
			t.Errorf("Suggest(%q) suggests the path itself", path)
		}
	})
}
