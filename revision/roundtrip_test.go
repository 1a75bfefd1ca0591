package revision_test

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/revision"
)

// TestRoundTrip: a Gadget created at v1 (storage), read at v2, written
// back at v2 and read at v1 loses color (v2 does not declare it): the
// write at v2 prunes nothing, the read at v2 did. A version the CRD does
// not serve fails the read at it.
func TestRoundTrip(t *testing.T) {
	crd, err := crdschema.LoadCRD([]byte(gadgetVersions))
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(`{apiVersion: example.com/v1, kind: Gadget, metadata: {name: g1, namespace: default}, spec: {size: 3, color: red}}`), &obj); err != nil {
		t.Fatal(err)
	}
	losses, errs := revision.RoundTrip(context.Background(), crd, obj, "v2")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []revision.Loss{{Path: "spec.color", Step: "read at v2"}}
	if !reflect.DeepEqual(losses, want) {
		t.Errorf("got %+v, want %+v", losses, want)
	}
	losses, errs = revision.RoundTrip(context.Background(), crd, obj, "v3")
	if len(errs) != 1 || errs[0].Field != "apiVersion" || !strings.HasPrefix(errs[0].Detail, "read at v3: ") || losses != nil {
		t.Errorf("not served: %v %v", losses, errs)
	}
}

func loadSampleCRD(t testing.TB) *crdschema.CRD {
	t.Helper()
	data, err := os.ReadFile("../testdata/sample/widgets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crd, err := crdschema.LoadCRD(data)
	if err != nil {
		t.Fatal(err)
	}
	if errs := crd.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	return crd
}

// TestRoundTripsFindLosses checks that fields only v1 declares are lost
// on the way through v2, at the step that prunes them, and that v2's
// objects survive a trip through v1.
func TestRoundTripsFindLosses(t *testing.T) {
	crd := loadSampleCRD(t)
	trips, err := revision.RoundTrips(context.Background(), crd, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	lost := map[string]string{}
	for _, tr := range trips {
		if len(tr.Errors) > 0 {
			t.Errorf("%s->%s: %v", tr.From, tr.To, tr.Errors)
		}
		if tr.From == "v2" && len(tr.Losses) > 0 {
			t.Errorf("v2->v1 lost %v", tr.Losses)
		}
		for _, l := range tr.Losses {
			lost[tr.From+"->"+tr.To+" "+l.Path] = l.Step
		}
	}
	if got := lost["v1->v2 spec.ports"]; got != "read at v2" {
		t.Errorf("spec.ports lost at %q, want read at v2 (all: %v)", got, lost)
	}
}

// FuzzRoundTrips runs the round trips of the test CRD for any seed: the
// create of every sample succeeds (Schema.Samples keeps only objects the
// create accepts), and a seed gives the same trips twice. A later step may be
// rejected: v1's rule on spec.color fails on a v2 object without color
// written back at v1 (seed 45).
func FuzzRoundTrips(f *testing.F) {
	crd := loadSampleCRD(f)
	f.Add(uint64(0))
	f.Add(uint64(42))
	f.Add(uint64(45))
	f.Fuzz(func(t *testing.T, seed uint64) {
		trips, err := revision.RoundTrips(context.Background(), crd, seed, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range trips {
			for _, e := range tr.Errors {
				if strings.HasPrefix(e.Detail, "create: ") {
					t.Errorf("seed %d %s->%s: a sample's create fails: %v", seed, tr.From, tr.To, e)
				}
			}
		}
		again, _ := revision.RoundTrips(context.Background(), crd, seed, 2)
		if !reflect.DeepEqual(trips, again) {
			t.Errorf("seed %d: two runs differ", seed)
		}
	})
}

// TestRoundTripRejected pins a rejected write-back: a v2 object without
// spec.color, read at v1 and written back there, fails v1's CEL rule.
func TestRoundTripRejected(t *testing.T) {
	trips, err := revision.RoundTrips(context.Background(), loadSampleCRD(t), 45, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range trips {
		for _, e := range tr.Errors {
			if tr.From == "v2" && strings.HasPrefix(e.Detail, "write at v1: no such key: color") {
				return
			}
		}
	}
	t.Errorf("no write-back at v1 rejected: %+v", trips)
}

// TestRoundTripsBadCRD: a CRD that serves nothing, or that the apiserver
// would reject, has no round trips.
func TestRoundTripsBadCRD(t *testing.T) {
	none, err := crdschema.LoadCRD([]byte(strings.ReplaceAll(gadgetVersions, "served: true", "served: false")))
	if err != nil {
		t.Fatal(err)
	}
	if trips, err := revision.RoundTrips(context.Background(), none, 1, 1); err == nil || trips != nil {
		t.Errorf("no served version: %v, %v", trips, err)
	}
	bad, err := crdschema.LoadCRD([]byte(strings.Replace(gadgetVersions, "size: {type: integer}", "size: {type: integer, default: red}", 1)))
	if err != nil {
		t.Fatal(err)
	}
	var rejected *crdschema.RejectedError
	if trips, err := revision.RoundTrips(context.Background(), bad, 1, 1); !errors.As(err, &rejected) || trips != nil {
		t.Errorf("rejected CRD: %v, %v", trips, err)
	}
}
