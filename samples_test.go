package crdschema_test

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"

	crdschema "github.com/crdschema/crdschema"
)

func loadSampleCRD(t testing.TB) *crdschema.CRD {
	t.Helper()
	data, err := os.ReadFile("testdata/sample/widgets.yaml")
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

// TestSamplesAreValidAndDeterministic checks that every sample passes the
// create validation of its version, CEL rule included, and that a seed
// gives the same objects twice.
func TestSamplesAreValidAndDeterministic(t *testing.T) {
	crd := loadSampleCRD(t)
	objs, err := crd.Samples("v1", 7, 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 20 {
		t.Fatalf("got %d samples, want 20", len(objs))
	}
	s, _ := crd.Version("v1")
	fields := map[string]bool{}
	for _, obj := range objs {
		r := s.Apply(obj)
		if len(r.Errors) > 0 || len(r.Pruned) > 0 {
			t.Errorf("sample %v: errors %v, pruned %v", obj, r.Errors, r.Pruned)
		}
		spec, _ := obj["spec"].(map[string]any)
		for k := range spec {
			fields[k] = true
		}
	}
	for _, k := range []string{"size", "ratio", "name", "color", "id", "when", "address", "port", "tags", "ports", "labels", "template", "extra", "note"} {
		if !fields[k] {
			t.Errorf("no sample has spec.%s", k)
		}
	}
	again, _ := crd.Samples("v1", 7, 20)
	if !reflect.DeepEqual(objs, again) {
		t.Error("same seed, different samples")
	}
	other, _ := crd.Samples("v1", 8, 20)
	if reflect.DeepEqual(objs, other) {
		t.Error("another seed, same samples")
	}
	if _, err := crd.Samples("v9", 1, 1); err == nil {
		t.Error("Samples at an unserved version: no error")
	}
}

// TestRoundTripsFindLosses checks that fields only v1 declares are lost
// on the way through v2, at the step that prunes them, and that v2's
// objects survive a trip through v1.
func TestRoundTripsFindLosses(t *testing.T) {
	crd := loadSampleCRD(t)
	trips, err := crd.RoundTrips(context.Background(), 1, 10, nil)
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
// create of every sample succeeds (Samples keeps only objects the create
// accepts), and a seed gives the same trips twice. A later step may be
// rejected: v1's rule on spec.color fails on a v2 object without color
// written back at v1 (seed 45).
func FuzzRoundTrips(f *testing.F) {
	crd := loadSampleCRD(f)
	f.Add(uint64(0))
	f.Add(uint64(42))
	f.Add(uint64(45))
	f.Fuzz(func(t *testing.T, seed uint64) {
		trips, err := crd.RoundTrips(context.Background(), seed, 2, nil)
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
		again, _ := crd.RoundTrips(context.Background(), seed, 2, nil)
		if !reflect.DeepEqual(trips, again) {
			t.Errorf("seed %d: two runs differ", seed)
		}
	})
}

// TestRoundTripRejected pins a rejected write-back: a v2 object without
// spec.color, read at v1 and written back there, fails v1's CEL rule.
func TestRoundTripRejected(t *testing.T) {
	trips, err := loadSampleCRD(t).RoundTrips(context.Background(), 45, 2, nil)
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
