package jsonvalue

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"
)

type node struct {
	Name string `json:"name"`
	Next *node  `json:"next,omitempty"`
}

func TestNormalize(t *testing.T) {
	three := 3
	for _, tc := range []struct {
		name string
		in   any
		want any
	}{
		{"whole float64", 3.0, int64(3)},
		{"fraction", 1.5, 1.5},
		{"float32 through its text", float32(0.1), 0.1},
		{"beyond int64", 1e19, 1e19},
		{"uint64 beyond int64", uint64(math.MaxUint64), float64(math.MaxUint64)},
		{"json.Number integer", json.Number("12345678901234567"), int64(12345678901234567)},
		{"json.Number fraction", json.Number("3.0"), 3.0},
		{"typed map and slice", map[string][]int8{"a": {1, 2}}, map[string]any{"a": []any{int64(1), int64(2)}}},
		{"pointer", &three, int64(3)},
		{"nil pointer", (*int)(nil), nil},
		{"nil typed map", map[string]string(nil), nil},
		{"bytes as base64", []byte("hi"), "aGk="},
		{"struct through JSON", node{Name: "a", Next: &node{Name: "b"}}, map[string]any{"name": "a", "next": map[string]any{"name": "b"}}},
		{"array", [2]bool{true, false}, []any{true, false}},
	} {
		got, err := Normalize(tc.in, MaxDepth)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Normalize(%#v) = %#v, %v; want %#v", tc.name, tc.in, got, err, tc.want)
		}
		if IsNormal(tc.in, MaxDepth) && !reflect.DeepEqual(tc.in, tc.want) {
			t.Errorf("%s: IsNormal true for a value Normalize changes", tc.name)
		}
	}
}

func TestNormalizeErrorPaths(t *testing.T) {
	for _, tc := range []struct {
		in   any
		path string
	}{
		{map[string]any{"spec": map[string]any{"list": []any{1, map[string]any{"c": make(chan int)}}}}, "spec.list[1].c"},
		{map[string]any{"spec": map[string][]any{"l": {complex(1, 2)}}}, "spec.l[0]"},
		{[]any{math.Inf(1)}, "[0]"},
		{map[string]any{"n": json.Number("1e999")}, "n"},
		{map[int]int{1: 1}, ""},
	} {
		_, err := Normalize(tc.in, MaxDepth)
		var te *TypeError
		if !errors.As(err, &te) || te.Path != tc.path {
			t.Errorf("Normalize(%#v): %v, want a TypeError at %q", tc.in, err, tc.path)
		}
	}
}

func TestNormalizeCycles(t *testing.T) {
	m := map[string]any{}
	m["self"] = m
	if _, err := Normalize(m, MaxDepth); !errors.Is(err, ErrTooDeep) {
		t.Errorf("a map holding itself: %v", err)
	}
	typed := map[string]any{}
	typed["next"] = []map[string]any{typed}
	if _, err := Normalize(typed, MaxDepth); !errors.Is(err, ErrTooDeep) {
		t.Errorf("a map holding itself through a typed slice: %v", err)
	}
	n := &node{Name: "loop"}
	n.Next = n
	var te *TypeError
	if _, err := Normalize(map[string]any{"n": n}, MaxDepth); !errors.As(err, &te) || te.Path != "n" {
		t.Errorf("a struct holding itself: %v", err)
	}
}

// TestKeepFloats: after KeepFloats, Normalize keeps the whole floats of a
// decoded value (written "3.0") floats, at every level, and leaves integers,
// fractions, floats beyond int64 and negative zero as they were.
func TestKeepFloats(t *testing.T) {
	v := map[string]any{
		"replicas": 3.0,
		"int":      int64(3),
		"half":     0.5,
		"big":      1e20,
		"negzero":  math.Copysign(0, -1),
		"list":     []any{2.0, int64(2), map[string]any{"n": -7.0}},
	}
	KeepFloats(v)
	if n, ok := v["replicas"].(json.Number); !ok || n != "3.0" {
		t.Fatalf("replicas = %#v, want json.Number(\"3.0\")", v["replicas"])
	}
	got, err := Normalize(v, MaxDepth)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"replicas": 3.0,
		"int":      int64(3),
		"half":     0.5,
		"big":      1e20,
		"negzero":  math.Copysign(0, -1),
		"list":     []any{2.0, int64(2), map[string]any{"n": -7.0}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Normalize(KeepFloats(v)) = %#v, want %#v", got, want)
	}
	if z := got.(map[string]any)["negzero"].(float64); !math.Signbit(z) {
		t.Errorf("negative zero lost its sign")
	}
}

// TestIsNormalDepth: IsNormal is false, without a stack overflow, for a
// value deeper than its bound and for one that holds itself.
func TestIsNormalDepth(t *testing.T) {
	var v any = "leaf"
	for i := 0; i < 3; i++ {
		v = []any{v}
	}
	if !IsNormal(v, 3) || IsNormal(v, 2) {
		t.Errorf("IsNormal of 3 nested lists: bound 3 %v, bound 2 %v; want true, false", IsNormal(v, 3), IsNormal(v, 2))
	}
	self := map[string]any{}
	self["self"] = self
	if IsNormal(self, MaxDepth) {
		t.Errorf("IsNormal true for a map that holds itself")
	}
}
