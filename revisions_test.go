package crdschema

import (
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

const revisionsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              schedule: {type: string, format: cron}
`

func mustLoad(t *testing.T, s string) *CRD {
	t.Helper()
	c, err := LoadCRD([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestUpdateOfNil: no stored CRD is a create.
func TestUpdateOfNil(t *testing.T) {
	crd := mustLoad(t, strings.Replace(revisionsCRD, "name: crontabs.stable.example.com", "name: wrong.example.com", 1))
	if got, _ := CheckUpdate(nil, crd); len(got) != 1 || got[0].Field != "metadata.name" {
		t.Errorf("CheckUpdate(nil, crd) = %v, want the create's name error", got)
	}
	ok := mustLoad(t, revisionsCRD)
	if errs, got := CheckUpdate(nil, ok); errs != nil || len(got) != 1 || got[0] != `unrecognized format "cron"` {
		t.Errorf("CheckUpdate(nil, ok) = %v, %q", errs, got)
	}
	if errs, ws := CheckUpdate(ok, nil); len(errs) != 1 || errs[0].Type != field.ErrorTypeInternal || ws != nil {
		t.Errorf("CheckUpdate(ok, nil) = %v, %q, want one internal error", errs, ws)
	}
}

// TestUpdateConcurrent checks an update from many goroutines against
// different stored CRDs and that the caller may change the returned list.
func TestUpdateConcurrent(t *testing.T) {
	crd := mustLoad(t, strings.Replace(revisionsCRD, "Namespaced", "Cluster", 1))
	same := mustLoad(t, strings.Replace(revisionsCRD, "Namespaced", "Cluster", 1))
	stored := mustLoad(t, revisionsCRD)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			old, want := stored, 1
			if i%2 == 1 {
				old, want = same, 0
			}
			errs, ws := CheckUpdate(old, crd)
			if len(errs) != want {
				t.Errorf("%d errors, want %d: %v", len(errs), want, errs)
			}
			if len(errs) > 0 {
				errs[0] = nil
			}
			if len(ws) != 0 {
				t.Errorf("warnings %q: the format is not new", ws)
			}
		}()
	}
	wg.Wait()
	if errs, _ := CheckUpdate(stored, crd); len(errs) != 1 || errs[0] == nil || errs[0].Field != "spec.scope" {
		t.Errorf("after changes by callers: %v", errs)
	}
}

// TestUpdateWarnings: an update warns of what it introduces only: a new
// unrecognized format, not the one the stored CRD already has; a stored
// CRD with the format and a new revision without any warns of nothing.
func TestUpdateWarnings(t *testing.T) {
	stored := mustLoad(t, revisionsCRD)
	next := mustLoad(t, strings.Replace(revisionsCRD, "schedule: {type: string, format: cron}", "schedule: {type: string, format: cron}\n              at: {type: string, format: clock}", 1))
	if errs, ws := CheckUpdate(stored, next); errs != nil || len(ws) != 1 || ws[0] != `unrecognized format "clock"` {
		t.Errorf("new format: %v, %q", errs, ws)
	}
	plain := mustLoad(t, strings.Replace(revisionsCRD, ", format: cron", "", 1))
	if errs, ws := CheckUpdate(stored, plain); errs != nil || ws != nil {
		t.Errorf("no format: %v, %q", errs, ws)
	}
	if ws := next.Warnings(); len(ws) != 2 {
		t.Errorf("create warnings %q, want both formats", ws)
	} else {
		ws[0] = "changed by the caller"
		if again := next.Warnings(); again[0] == ws[0] {
			t.Error("the caller's change of Warnings shows")
		}
	}
}
