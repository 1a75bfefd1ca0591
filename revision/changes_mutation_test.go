package revision_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/revision"
)

// mutation is one edit of a schema node that TestChangesCorpusMutations
// makes: which nodes it applies to, how it changes one, and the change
// kind it must produce there.
type mutation struct {
	kind    string
	applies func(node map[string]any, required bool) bool
	edit    func(parent, node map[string]any, name string)
}

func isLeaf(node map[string]any, typ string) bool {
	if node["type"] != typ {
		return false
	}
	for _, k := range []string{"enum", "format", "pattern", "maxLength", "maximum", "x-kubernetes-validations", "x-kubernetes-int-or-string", "default", "allOf", "anyOf", "oneOf", "not"} {
		if _, ok := node[k]; ok {
			return false
		}
	}
	return true
}

func mutations() []mutation {
	return []mutation{
		{"bounds-tightened", func(n map[string]any, _ bool) bool { return isLeaf(n, "string") },
			func(_, n map[string]any, _ string) { n["maxLength"] = 1 }},
		{"field-removed", func(n map[string]any, req bool) bool { return !req && isLeaf(n, "boolean") },
			func(p, _ map[string]any, name string) { delete(p["properties"].(map[string]any), name) }},
		{"enum-narrowed", func(n map[string]any, _ bool) bool { return isLeaf(n, "string") },
			func(_, n map[string]any, _ string) { n["enum"] = []any{"crdschema-only"} }},
		{"bounds-tightened", func(n map[string]any, _ bool) bool { return isLeaf(n, "integer") },
			func(_, n map[string]any, _ string) { n["maximum"] = -1000 }},
		{"preserve-unknown-fields-removed", func(n map[string]any, _ bool) bool {
			_, props := n["properties"]
			return n["x-kubernetes-preserve-unknown-fields"] == true && !props && n["x-kubernetes-embedded-resource"] == nil
		}, func(_, n map[string]any, _ string) { delete(n, "x-kubernetes-preserve-unknown-fields") }},
		{"rule-added", func(n map[string]any, _ bool) bool { return isLeaf(n, "string") },
			func(_, n map[string]any, _ string) {
				n["x-kubernetes-validations"] = []any{map[string]any{"rule": "self == 'crdschema'"}}
			}},
	}
}

// findNode walks a schema's properties depth first, in key order, below
// spec and status, and returns the first node (not yet used) a
// mutation applies to, its parent, name and field path.
func findNode(root map[string]any, m mutation, used map[string]bool) (parent, node map[string]any, name, path string) {
	var walk func(s map[string]any, prefix string, depth int) bool
	walk = func(s map[string]any, prefix string, depth int) bool {
		props, _ := s["properties"].(map[string]any)
		req := map[string]bool{}
		if r, ok := s["required"].([]any); ok {
			for _, k := range r {
				if k, ok := k.(string); ok {
					req[k] = true
				}
			}
		}
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if depth == 0 && k != "spec" && k != "status" {
				continue
			}
			child, ok := props[k].(map[string]any)
			if !ok || strings.ContainsAny(k, ".[]") {
				continue
			}
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			if depth > 0 && !used[p] && m.applies(child, req[k]) {
				parent, node, name, path = s, child, k, p
				return true
			}
			if depth < 6 && walk(child, p, depth+1) {
				return true
			}
		}
		return false
	}
	walk(root, "", 0)
	return parent, node, name, path
}

// TestChangesCorpusMutations edits every corpus CRD's storage version in
// up to six places at once (a maxLength on a string, a boolean field
// removed, an enum on a string, a maximum on an integer, a
// preserve-unknown-fields removed, a CEL rule on a string) and checks
// that Changes reports each edit at its path with a class, and how many
// classes it computes with probes rather than statically.
func TestChangesCorpusMutations(t *testing.T) {
	dir := shareddata.Dir(t, "corpus")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "crds", "*.yaml"))
	if len(files) == 0 {
		shareddata.Missing(t, filepath.Join(dir, "*", "crds"))
	}
	var edits, probed, crds, rejected int
	classes := map[string]int{}
	var slowest time.Duration
	var slowestName string
	start := time.Now()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := crdschema.ReadDocuments(f, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			if !d.IsCRD() {
				continue
			}
			oldJSON, _ := json.Marshal(d.Object)
			root, version := storageSchema(d.Object)
			if root == nil {
				continue
			}
			used := map[string]bool{}
			want := map[string]string{}
			for _, m := range mutations() {
				parent, node, name, path := findNode(root, m, used)
				if node == nil {
					continue
				}
				m.edit(parent, node, name)
				used[path] = true
				want[path+" "+m.kind] = m.kind
			}
			if len(want) == 0 {
				continue
			}
			newJSON, _ := json.Marshal(d.Object)
			old, err := crdschema.LoadCRD(oldJSON)
			if err != nil {
				t.Fatal(err)
			}
			next, err := crdschema.LoadCRD(newJSON)
			if err != nil {
				t.Fatal(err)
			}
			crds++
			t0 := time.Now()
			got := revision.Changes(old, next)
			if el := time.Since(t0); el > slowest {
				slowest, slowestName = el, old.Name()
			}
			if len(next.Errors()) > 0 {
				rejected++
			}
			for _, c := range got {
				if c.Class == "" || c.Detail == "" || c.Kind == "" {
					t.Errorf("%s: incomplete change %+v", old.Name(), c)
				}
				if c.Class == "rejected" {
					continue
				}
				key := c.Path + " " + c.Kind
				if _, ok := want[key]; !ok || c.Version != version {
					continue
				}
				delete(want, key)
				edits++
				classes[c.Class]++
				if !c.Static {
					probed++
				}
				if c.Static || c.Class == "safe" {
					t.Logf("%s: %s", old.Name(), line(c))
				}
			}
			for k := range want {
				t.Errorf("%s %s: edit %s not reported; got %v", old.Name(), version, k, lines(got))
			}
		}
	}
	t.Logf("%d CRDs (%d edited into one the apiserver would not create), %d edits reported, %d classified by probes (%d static), classes %v, in %v (slowest %s: %v)",
		crds, rejected, edits, probed, edits-probed, classes, time.Since(start), slowestName, slowest)
	// 211 CRDs, 712 edits, 74 static (63 of them in the 15 revisions the
	// apiserver would not create: an enum or maxLength that a default
	// breaks).
	if crds < 211 || edits < 712 {
		t.Errorf("only %d CRDs and %d edits", crds, edits)
	}
	if edits-probed > 74 {
		t.Errorf("%d edits classified statically, want at most 74", edits-probed)
	}
}

// storageSchema is the openAPIV3Schema of a v1 CRD document's storage
// version, and the version's name (nil for a CRD without one).
func storageSchema(obj map[string]any) (map[string]any, string) {
	spec, _ := obj["spec"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	for _, v := range versions {
		v, _ := v.(map[string]any)
		if v["storage"] != true {
			continue
		}
		s, _ := v["schema"].(map[string]any)
		root, _ := s["openAPIV3Schema"].(map[string]any)
		name, _ := v["name"].(string)
		return root, name
	}
	return nil, ""
}
