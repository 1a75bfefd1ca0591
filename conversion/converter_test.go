package conversion_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crdschema/crdschema/conversion"
)

// sizeFromReplicas is a correct conversion from v1 (spec.replicas) to v2
// (spec.size).
func sizeFromReplicas(_ context.Context, objects []map[string]any, desired string) ([]any, error) {
	out := make([]any, len(objects))
	for i, o := range objects {
		spec, _ := o["spec"].(map[string]any)
		if r, ok := spec["replicas"]; ok {
			spec["size"] = r
			delete(spec, "replicas")
		}
		o["apiVersion"] = desired
		out[i] = o
	}
	return out, nil
}

func cronTab(name string) map[string]any {
	return map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": name, "namespace": "default", "uid": "u-" + name, "generation": int64(2), "labels": map[string]any{"app": "web"}},
		"spec":     map[string]any{"replicas": int64(3)},
	}
}

// TestConverters converts through a Go func, an http.Handler (v1 and
// v1beta1 reviews) and a URL: the same answer, metadata restored.
func TestConverters(t *testing.T) {
	changeMeta := func(ctx context.Context, objects []map[string]any, desired string) ([]any, error) {
		out, _ := sizeFromReplicas(ctx, objects, desired)
		for _, o := range out {
			meta := o.(map[string]any)["metadata"].(map[string]any)
			meta["generation"] = int64(99)                          // reverted
			meta["labels"] = map[string]any{"app": "web", "v": "2"} // kept
		}
		return out, nil
	}
	srv := httptest.NewServer(conversion.Handler(changeMeta))
	defer srv.Close()
	converters := map[string]*conversion.Converter{
		"func":            conversion.FromFunc(changeMeta),
		"handler v1":      conversion.FromHandler(conversion.Handler(changeMeta), "v1"),
		"handler v1beta1": conversion.FromHandler(conversion.Handler(changeMeta), "v1beta1"),
		"url":             conversion.FromURL(srv.URL, srv.Client(), "v1"),
	}
	want := cronTab("a")
	want["apiVersion"] = "stable.example.com/v2"
	want["spec"] = map[string]any{"size": int64(3)}
	want["metadata"].(map[string]any)["labels"] = map[string]any{"app": "web", "v": "2"}
	for name, c := range converters {
		t.Run(name, func(t *testing.T) {
			in := cronTab("a")
			out, err := c.Convert(context.Background(), []map[string]any{in}, "stable.example.com/v2")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(out[0], want) {
				t.Errorf("got %v\nwant %v", out[0], want)
			}
			if !reflect.DeepEqual(in, cronTab("a")) {
				t.Errorf("the input changed: %v", in)
			}
		})
	}
}

// TestConverterFaults pins the error of each fault of a converter: the
// apiserver's message, where it lies, and the object named.
func TestConverterFaults(t *testing.T) {
	hang := make(chan struct{})
	defer close(hang)
	cases := []struct {
		name    string
		f       conversion.Func
		timeout time.Duration
		field   string
		detail  string
	}{
		{"error", func(context.Context, []map[string]any, string) ([]any, error) { return nil, errors.New("boom") },
			0, "response.result", "conversion webhook for stable.example.com/v1, Kind=CronTab failed: boom"},
		{"panic", func(context.Context, []map[string]any, string) ([]any, error) { panic("oops") },
			0, "response", `conversion webhook for stable.example.com/v1, Kind=CronTab failed: the converter panicked converting "default/a": oops`},
		{"hang", func(context.Context, []map[string]any, string) ([]any, error) { <-hang; return nil, nil },
			20 * time.Millisecond, "response", `conversion webhook for stable.example.com/v1, Kind=CronTab failed: no answer converting "default/a": context deadline exceeded`},
		{"wrong count", func(context.Context, []map[string]any, string) ([]any, error) { return []any{}, nil },
			0, "response.convertedObjects", "conversion webhook for stable.example.com/v1, Kind=CronTab returned 0 objects, expected 1"},
		{"garbage", func(context.Context, []map[string]any, string) ([]any, error) { return []any{"x"}, nil },
			0, "response.convertedObjects[0]", "json: cannot unmarshal string into Go value of type map[string]interface {}"},
		{"not converted", func(_ context.Context, o []map[string]any, _ string) ([]any, error) { return []any{o[0]}, nil },
			0, "response.convertedObjects[0].apiVersion", "conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object at index 0: invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v1)"},
		{"renamed", func(ctx context.Context, o []map[string]any, d string) ([]any, error) {
			out, _ := sizeFromReplicas(ctx, o, d)
			out[0].(map[string]any)["metadata"].(map[string]any)["name"] = "b"
			return out, nil
		}, 0, "response.convertedObjects[0].metadata.name", "conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object: must have the same name: a != b"},
		{"bad label", func(ctx context.Context, o []map[string]any, d string) ([]any, error) {
			out, _ := sizeFromReplicas(ctx, o, d)
			out[0].(map[string]any)["metadata"].(map[string]any)["labels"] = map[string]any{"bad key!": "x"}
			return out, nil
		}, 0, "response.convertedObjects[0].metadata.labels", `conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid metadata: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conv := conversion.FromFunc(c.f)
			conv.Timeout = c.timeout
			out, err := conv.Convert(context.Background(), []map[string]any{cronTab("a")}, "stable.example.com/v2")
			if err == nil {
				t.Fatalf("no error, got %v", out)
			}
			if err.Field != c.field || err.Detail != c.detail {
				t.Errorf("got %s: %s\nwant %s: %s", err.Field, err.Detail, c.field, c.detail)
			}
		})
	}
}

// TestHandlerChecksItsAnswer: an answer the apiserver would reject is
// answered as a Failure naming the apiserver's error.
func TestHandlerChecksItsAnswer(t *testing.T) {
	rename := func(ctx context.Context, o []map[string]any, d string) ([]any, error) {
		out, _ := sizeFromReplicas(ctx, o, d)
		out[0].(map[string]any)["metadata"].(map[string]any)["namespace"] = "elsewhere"
		return out, nil
	}
	_, err := conversion.FromHandler(conversion.Handler(rename), "v1").Convert(context.Background(), []map[string]any{cronTab("a")}, "stable.example.com/v2")
	if err == nil || err.Field != "response.result" || !strings.Contains(err.Detail, "the apiserver would reject this answer: conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object: must have the same namespace: default != elsewhere") {
		t.Fatalf("got %v", err)
	}
	rec := httptest.NewRecorder()
	conversion.Handler(rename).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader("not json")))
	if rec.Code != http.StatusBadRequest {
		t.Errorf("undecodable review: status %d", rec.Code)
	}
}

// TestConvertSkips: objects already at the desired version are not sent
// (and stay in place in a list); an empty object is not sent either.
func TestConvertSkips(t *testing.T) {
	calls := 0
	count := func(ctx context.Context, o []map[string]any, d string) ([]any, error) {
		calls++
		return sizeFromReplicas(ctx, o, d)
	}
	c := conversion.FromFunc(count)
	at := cronTab("b")
	at["apiVersion"] = "stable.example.com/v2"
	out, err := c.Convert(context.Background(), []map[string]any{cronTab("a"), at}, "stable.example.com/v2")
	if err != nil || calls != 1 || !reflect.DeepEqual(out[1], at) || out[0]["spec"].(map[string]any)["size"] != int64(3) {
		t.Fatalf("list: calls %d, out %v, err %v", calls, out, err)
	}
	empty := map[string]any{"apiVersion": "stable.example.com/v1", "kind": "CronTab"}
	out, err = c.Convert(context.Background(), []map[string]any{empty}, "stable.example.com/v2")
	if err != nil || calls != 1 || out[0]["apiVersion"] != "stable.example.com/v2" {
		t.Fatalf("empty: calls %d, out %v, err %v", calls, out, err)
	}
}
