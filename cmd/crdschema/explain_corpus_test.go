package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/serving"
)

// The two real CRDs whose explain sections are checked here, read from the
// shared corpus at test time (they are not ours to copy into the
// repository; testdata/cli/explain holds CRDs we wrote with the same
// shapes for the golden cases).
var (
	kueueTopologies = []string{"kueue", "crds", "topologies.kueue.x-k8s.io.yaml"}
	pinnedImageSets = []string{"openshift-api", "crds", "pinnedimagesets.machineconfiguration.openshift.io.yaml"}
)

// corpusCRD is the path of a corpus CRD file; the test skips saying so
// when it is absent (fails under CRDSCHEMA_REQUIRE_SHARED=1).
func corpusCRD(t *testing.T, elem []string) string {
	t.Helper()
	p, ok := shareddata.Path(append([]string{"corpus"}, elem...)...)
	if !ok {
		shareddata.Missing(t, p)
	}
	return p
}

// TestExplainCorpusSection runs explain on real CRDs of the corpus (kueue's
// Topology, OpenShift's PinnedImageSet) at a CEL-guarded list, a list
// immutable in one version (--api-version), through PLURAL.GROUP and
// recursively, and at a list map, and checks the lines the section after
// kubectl's text gives each field: the rules' messages, immutability,
// the list type and map keys, value validations.
func TestExplainCorpusSection(t *testing.T) {
	topologies := corpusCRD(t, kueueTopologies)
	pinned := corpusCRD(t, pinnedImageSets)
	hostnameLowest := "      message: the kubernetes.io/hostname label can only be used at the lowest level of topology"
	v1beta2Levels := []string{
		"    maxItems: 16",
		"    minItems: 1",
		"    list type: atomic",
		"      message: levels are mutable only when kubernetes.io/hostname is the lowest level both before and after the change",
		"      message: must be unique",
		hostnameLowest,
	}
	for _, c := range []struct {
		name    string
		args    []string
		version string
		want    map[string][]string // field path -> lines of its block, in order
		absent  []string            // lines no block has
	}{{
		name:    "CEL-guarded list",
		args:    []string{"--crd", topologies, "topology.spec.levels"},
		version: "v1beta2",
		want: map[string][]string{
			"spec.levels":           v1beta2Levels,
			"spec.levels.nodeLabel": {"    maxLength: 316", "    minLength: 1"},
		},
		absent: []string{"    immutable: a rule self == oldSelf refuses any change once set"},
	}, {
		name:    "immutable in v1beta1",
		args:    []string{"--crd", topologies, "--api-version", "kueue.x-k8s.io/v1beta1", "topologies.spec.levels"},
		version: "v1beta1",
		want: map[string][]string{
			"spec.levels": {
				"    list type: atomic",
				"    immutable: a rule self == oldSelf refuses any change once set",
				"    rule: self == oldSelf",
				"      message: field is immutable",
				"      message: must be unique",
				hostnameLowest,
			},
			"spec.levels.nodeLabel": {"    maxLength: 316", "    minLength: 1"},
		},
	}, {
		name:    "plural.group",
		args:    []string{"--crd", topologies, "topologies.kueue.x-k8s.io.spec"},
		version: "v1beta2",
		want:    map[string][]string{"spec.levels": v1beta2Levels},
	}, {
		name:    "recursive",
		args:    []string{"--crd", topologies, "topo.spec", "--recursive"},
		version: "v1beta2",
		want: map[string][]string{
			"spec.levels":           v1beta2Levels,
			"spec.levels.nodeLabel": {"    maxLength: 316", "    minLength: 1"},
		},
	}, {
		name:    "list map",
		args:    []string{"--crd", pinned, "pinnedimageset.spec.pinnedImages"},
		version: "v1",
		want: map[string][]string{
			"spec.pinnedImages": {"    maxItems: 500", "    minItems: 1", "    list type: map, keys: name"},
			"spec.pinnedImages.name": {
				"    maxLength: 447",
				"    minLength: 1",
				"      message: the OCI Image reference must end with a valid '@sha256:<digest>' suffix, where '<digest>' is 64 characters long",
				"      message: the OCI Image name should follow the host[:port][/namespace]/name format, resembling a valid URL without the scheme",
			},
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			out := explainOK(t, c.args...)
			if !strings.Contains(out, "\nVERSION:    "+c.version+"\n") {
				t.Errorf("not explained at version %s:\n%s", c.version, out)
			}
			blocks := sectionBlocks(t, out)
			if got, want := slices.Sorted(maps.Keys(blocks)), slices.Sorted(maps.Keys(c.want)); !slices.Equal(got, want) {
				t.Errorf("fields in the section: %q, want %q", got, want)
			}
			for path, want := range c.want {
				if !inOrder(blocks[path], want) {
					t.Errorf("%s: block\n%s\nlacks, in this order:\n%s", path, strings.Join(blocks[path], "\n"), strings.Join(want, "\n"))
				}
			}
			for path, lines := range blocks {
				for _, a := range c.absent {
					if slices.Contains(lines, a) {
						t.Errorf("%s: has %q", path, a)
					}
				}
			}
		})
	}
}

// TestExplainCorpusJSON: the same facts in -o json, as a program reads
// them (immutable, list type and map keys, rules with their messages).
func TestExplainCorpusJSON(t *testing.T) {
	topologies := corpusCRD(t, kueueTopologies)
	pinned := corpusCRD(t, pinnedImageSets)
	levels := explainField(t, "spec.levels", "--crd", topologies, "--api-version", "kueue.x-k8s.io/v1beta1", "-o", "json", "topology.spec.levels")
	if !levels.Immutable || levels.ListType != "atomic" || len(levels.Rules) != 3 || levels.Rules[0].Message != "field is immutable" {
		t.Errorf("v1beta1 spec.levels: immutable %v, list type %q, rules %+v", levels.Immutable, levels.ListType, levels.Rules)
	}
	levels = explainField(t, "spec.levels", "--crd", topologies, "-o", "json", "topology.spec.levels")
	if levels.Immutable || len(levels.Rules) != 3 {
		t.Errorf("v1beta2 spec.levels: immutable %v, rules %+v", levels.Immutable, levels.Rules)
	}
	images := explainField(t, "spec.pinnedImages", "--crd", pinned, "-o", "json", "pinnedimageset.spec.pinnedImages")
	if images.ListType != "map" || !slices.Equal(images.ListMapKeys, []string{"name"}) {
		t.Errorf("spec.pinnedImages: list type %q, keys %q", images.ListType, images.ListMapKeys)
	}
}

// explainOK is explain's standard output for args, which must succeed.
func explainOK(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if status := run(append([]string{"explain"}, args...), strings.NewReader(""), &out, &errb); status != 0 || errb.Len() > 0 {
		t.Fatalf("explain %q: exit %d; stderr:\n%s", args, status, errb.String())
	}
	return out.String()
}

// explainField is the field at path of explain -o json's line for args.
func explainField(t *testing.T, path string, args ...string) serving.ExplainedField {
	t.Helper()
	var line explainLine
	if err := json.Unmarshal([]byte(explainOK(t, args...)), &line); err != nil {
		t.Fatal(err)
	}
	for _, f := range line.Fields {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("explain %q: no field %s in %+v", args, path, line.Fields)
	return serving.ExplainedField{}
}

// sectionBlocks splits the section after kubectl's text into the lines of
// each field, by path.
func sectionBlocks(t *testing.T, out string) map[string][]string {
	t.Helper()
	const head = "FROM THE CRD (not shown by kubectl explain):\n"
	_, section, ok := strings.Cut(out, head)
	if !ok {
		t.Fatalf("no %q in:\n%s", head, out)
	}
	blocks := map[string][]string{}
	var at string
	for _, l := range strings.Split(strings.TrimSuffix(section, "\n"), "\n") {
		if name, ok := strings.CutPrefix(l, "  "); ok && !strings.HasPrefix(name, " ") {
			at = name
			blocks[at] = nil
			continue
		}
		if at == "" {
			t.Fatalf("line %q before any field in:\n%s", l, section)
		}
		blocks[at] = append(blocks[at], l)
	}
	return blocks
}

// inOrder reports whether want's lines are among have's, in order.
func inOrder(have, want []string) bool {
	i := 0
	for _, l := range have {
		if i < len(want) && l == want[i] {
			i++
		}
	}
	return i == len(want)
}
