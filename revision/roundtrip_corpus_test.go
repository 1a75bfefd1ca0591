package revision_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/shareddata"
	"github.com/crdschema/crdschema/revision"
)

// TestCorpusRoundTrips runs the round trip on every corpus example of a
// multi-version CRD (strategy None), to each other served version, and
// pins a few real losses: fields one version declares and the other does
// not vanish when an object created at one is written back at the other.
func TestCorpusRoundTrips(t *testing.T) {
	corpus := shareddata.Dir(t, "corpus")
	projects, _ := filepath.Glob(filepath.Join(corpus, "*", "examples"))
	losses := map[string]bool{}
	trips, lossy := 0, 0
	// At most two examples per kind and stored version keep the test
	// quick (every write is validated, CEL rules included).
	seen := map[string]int{}
	for _, ex := range projects {
		project := filepath.Base(filepath.Dir(ex))
		var crds []*crdschema.CRD
		for _, d := range loadDir(t, filepath.Join(filepath.Dir(ex), "crds"), true) {
			if c, err := d.CRD(); err == nil {
				crds = append(crds, c)
			}
		}
		for _, d := range loadDir(t, ex, false) {
			crd := owner(crds, d.Object)
			if crd == nil || len(crd.ServedVersions()) < 2 {
				continue
			}
			_, from, _ := strings.Cut(d.Object["apiVersion"].(string), "/")
			if k := crd.Name() + " " + from; seen[k] < 2 {
				seen[k]++
			} else {
				continue
			}
			for _, to := range crd.ServedVersions() {
				if to == from {
					continue
				}
				ls, errs := revision.RoundTrip(context.Background(), crd, d.Object, to)
				if len(errs) > 0 {
					continue // a create the apiserver rejects, a Webhook CRD
				}
				trips++
				if len(ls) > 0 {
					lossy++
				}
				for _, l := range ls {
					losses[project+" "+d.Object["kind"].(string)+" "+from+"->"+to+" "+l.Path+" ("+l.Step+")"] = true
				}
			}
		}
	}
	var all []string
	for l := range losses {
		all = append(all, l)
	}
	sort.Strings(all)
	t.Logf("%d round trips, %d lose or change fields; %d distinct losses", trips, lossy, len(all))
	for _, l := range all {
		t.Log(l)
	}
	if trips == 0 {
		t.Fatal("no round trip ran")
	}
	for _, want := range pinnedLosses {
		if !losses[want] {
			t.Errorf("missing pinned loss %q", want)
		}
	}
}

// loadDir reads the documents (or only the CRDs) of a directory.
func loadDir(t *testing.T, dir string, crdsOnly bool) []crdschema.Document {
	t.Helper()
	var out []crdschema.Document
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := crdschema.ReadDocuments(f, data)
		if err != nil {
			continue
		}
		for _, d := range docs {
			if d.Object != nil && d.IsCRD() == crdsOnly {
				out = append(out, d)
			}
		}
	}
	return out
}

// owner is the accepted CRD of an object's group and kind.
func owner(crds []*crdschema.CRD, obj map[string]any) *crdschema.CRD {
	av, _ := obj["apiVersion"].(string)
	group, _, _ := strings.Cut(av, "/")
	for _, c := range crds {
		if c.GroupKind().Group == group && c.GroupKind().Kind == obj["kind"] && len(c.Errors()) == 0 {
			return c
		}
	}
	return nil
}

// pinnedLosses are real losses the round trip must find.
var pinnedLosses = []string{
	"cluster-api Machine v1beta2->v1beta1 spec.infrastructureRef.apiGroup (read at v1beta1)",
	"kueue ClusterQueue v1beta2->v1beta1 spec.cohortName (read at v1beta1)",
	"opentelemetry-operator OpenTelemetryCollector v1beta1->v1alpha1 spec.config.exporters (read at v1alpha1)",
}
