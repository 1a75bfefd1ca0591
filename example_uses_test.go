package crdschema_test

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"

	crdschema "github.com/crdschema/crdschema"
)

// The CRD ships inside the binary.
//
//go:embed testdata/examples/crds/crontab-crd.yaml
var cronTabCRDYAML []byte

// cronTabs is compiled once, at start-up, and shared by every request:
// a compiled Schema is immutable and safe for concurrent use.
var cronTabs = mustCompile(cronTabCRDYAML, "v1")

func mustCompile(crdYAML []byte, version string) *crdschema.Schema {
	crd, err := crdschema.LoadCRD(crdYAML)
	if err != nil {
		log.Fatal(err)
	}
	if errs := crd.Errors(); len(errs) > 0 {
		log.Fatalf("the apiserver would reject %s: %v", crd.Name(), errs)
	}
	s, err := crd.Version(version)
	if err != nil {
		log.Fatal(err)
	}
	return s
}

// An admission webhook (or any HTTP service) answers each request body with
// what the apiserver would make of it. The schema is compiled once; the
// handler runs on many goroutines at once.
func Example_admissionWebhook() {
	handler := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r, err := cronTabs.ApplyJSON(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var answer struct {
			Allowed  bool     `json:"allowed"`
			Warnings []string `json:"warnings,omitempty"`
			Message  string   `json:"message,omitempty"`
		}
		answer.Allowed = len(r.Errors) == 0
		for _, p := range r.Pruned {
			answer.Warnings = append(answer.Warnings, fmt.Sprintf("unknown field %q", p))
		}
		if !answer.Allowed {
			answer.Message = r.Errors.ToAggregate().Error()
		}
		if err := json.NewEncoder(w).Encode(answer); err != nil {
			log.Print(err)
		}
	})
	srv := httptest.NewServer(handler)
	defer srv.Close()

	objects := []string{
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{"image":"nginx"}}`,
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"b"},"spec":{"image":"nginx","replicas":15}}`,
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c"},"spec":{"image":"nginx","colour":"red"}}`,
	}
	answers := make([]string, len(objects))
	var wg sync.WaitGroup
	for i, obj := range objects {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(srv.URL, "application/json", bytes.NewReader([]byte(obj)))
			if err != nil {
				answers[i] = err.Error()
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			answers[i] = string(b)
		}()
	}
	wg.Wait()
	for _, a := range answers {
		fmt.Print(a)
	}
	// Output:
	// {"allowed":true}
	// {"allowed":false,"message":"spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10"}
	// {"allowed":true,"warnings":["unknown field \"spec.colour\""]}
}

// An operator's unit test checks that the objects its controller builds are
// what the cluster would accept and store: no unknown fields, no errors,
// the defaults it relies on filled in.
func Example_operatorUnitTest() {
	// In a test: s := mustCompile(crdYAML, "v1") once, at package level.
	built := map[string]any{ // what the controller under test would create
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": "nightly", "namespace": "batch"},
		"spec":       map[string]any{"image": "backup:1.2", "cronSpec": "0 3 * * *"},
	}
	r := cronTabs.Apply(built)
	if len(r.Pruned) > 0 || len(r.Errors) > 0 {
		fmt.Println("t.Errorf: pruned", r.Pruned, "errors", r.Errors)
	}
	spec := r.Object["spec"].(map[string]any)
	fmt.Println("stored replicas:", spec["replicas"]) // the CRD's default
	// Output:
	// stored replicas: 1
}

// A CI lint reads a repository's manifests, checks the CRDs among them and
// validates every custom resource against the CRD that serves it, skipping
// what no CRD defines (Deployments, ConfigMaps, ...). Each problem names
// file and line. (The crdschema command does this: crdschema apply
// --skip-unknown-kinds -o github DIR.)
func Example_ciLint() {
	files := map[string]string{
		"crds/crontab.yaml": string(cronTabCRDYAML),
		"crds/pool.yaml": `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: pools.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: pools, kind: Pool}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      scale: {specReplicasPath: .spec.count, statusReplicasPath: .status.count}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              count: {type: integer}
`,
		// 2.0 is a float to the apiserver's JSON decoder, which a scale
		// path refuses; the reader keeps it one. The repeated key is
		// warned about, as the apiserver does under fieldValidation=Warn.
		"apps/pool.json": `{"apiVersion": "example.com/v1", "kind": "Pool", "metadata": {"name": "web"}, "spec": {"count": 1, "count": 2.0}}`,
		"apps/jobs.yaml": `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: ok}
spec: {image: nginx}
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: too-many}
spec: {image: nginx, replicas: 11}
---
apiVersion: stable.example.com/v2
kind: CronTab
metadata: {name: unserved}
`,
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)

	var crds []*crdschema.CRD
	var objects []crdschema.Document
	for _, name := range names {
		docs, err := crdschema.ReadDocuments(name, []byte(files[name]))
		if err != nil {
			fmt.Println(err) // unreadable documents; the readable ones go on
		}
		for _, d := range docs {
			if !d.IsCRD() {
				objects = append(objects, d)
				continue
			}
			crd, err := d.CRD()
			if err != nil {
				fmt.Println(err)
				continue
			}
			for _, e := range crd.Errors() {
				fmt.Printf("%s:%d: %s: %v\n", d.File, d.Line, crd.Name(), e)
			}
			crds = append(crds, crd)
		}
	}
	for _, d := range objects {
		s, err := crdschema.Route(crds, d.Object)
		var unknown *crdschema.UnknownKindError
		switch {
		case errors.As(err, &unknown):
			continue // not a custom resource of ours
		case err != nil:
			fmt.Printf("%s:%d: %v\n", d.File, d.Line, err)
			continue
		}
		r := s.Apply(d.Object)
		r.Duplicates = d.Duplicates // keys a JSON document repeats: warned about
		for _, w := range r.Warnings() {
			fmt.Printf("%s:%d: warning: %s\n", d.File, d.Line, w)
		}
		if len(r.Errors) == 0 {
			continue
		}
		at := d.Locator() // line and column of each field, as annotations want them
		for _, e := range r.Errors {
			line, column := at(e.Field)
			fmt.Printf("%s:%d:%d: %v\n", d.File, line, column, e)
		}
	}
	// Output:
	// apps/jobs.yaml:13:22: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10
	// apps/jobs.yaml:15: no matches for kind "CronTab" in version "stable.example.com/v2": CustomResourceDefinition "crontabs.stable.example.com" serves v1
	// apps/pool.json:1: warning: duplicate field "spec.count"
	// apps/pool.json:1:88: .spec.count: Invalid value: 0: .spec.count accessor error: 2 is of the type float64, expected int64
}

// Documents reads a stream one document at a time (memory holds one
// document), each with its position; a document that cannot be read is
// reported beside its position and the others go on. Here the stream is a
// string; a cluster dump would be a file or kubectl's standard output.
func ExampleDocuments() {
	dump := strings.NewReader(`apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: nightly}
spec: {image: nginx, replicas: 11}
---
- not a mapping
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: hourly}
spec: {image: nginx}
`)
	crd, err := crdschema.LoadCRD(cronTabCRDYAML)
	if err != nil {
		log.Fatal(err)
	}
	for d, err := range crdschema.Documents("dump.yaml", dump) {
		if err != nil {
			fmt.Println(err)
			continue
		}
		s, err := crdschema.Route([]*crdschema.CRD{crd}, d.Object)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s:%d: document %d: %d errors\n", d.File, d.Line, d.Index, len(s.Apply(d.Object).Errors))
	}
	// Output:
	// dump.yaml:1: document 0: 1 errors
	// dump.yaml:6: document 1: expected a mapping, got an array
	// dump.yaml:8: document 2: 0 errors
}
