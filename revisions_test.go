package crdschema

import (
	"strings"
	"sync"
	"testing"
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
	if got := crd.UpdateErrors(nil); len(got) != 1 || got[0].Field != "metadata.name" {
		t.Errorf("UpdateErrors(nil) = %v, want the create's name error", got)
	}
	ok := mustLoad(t, revisionsCRD)
	if got := ok.UpdateWarnings(nil); len(got) != 1 || got[0] != `unrecognized format "cron"` {
		t.Errorf("UpdateWarnings(nil) = %q", got)
	}
}

// TestUpdateConcurrent checks an update from many goroutines against
// different stored CRDs (the last pair is cached) and that the caller may
// change the returned list.
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
			errs := crd.UpdateErrors(old)
			if len(errs) != want {
				t.Errorf("%d errors, want %d: %v", len(errs), want, errs)
			}
			if len(errs) > 0 {
				errs[0] = nil
			}
			if ws := crd.UpdateWarnings(old); len(ws) != 0 {
				t.Errorf("warnings %q: the format is not new", ws)
			}
		}()
	}
	wg.Wait()
	if errs := crd.UpdateErrors(stored); len(errs) != 1 || errs[0] == nil || errs[0].Field != "spec.scope" {
		t.Errorf("after changes by callers: %v", errs)
	}
}
