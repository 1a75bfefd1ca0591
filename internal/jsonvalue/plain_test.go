package jsonvalue

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

type quantity int

func (q quantity) MarshalJSON() ([]byte, error) { return json.Marshal(fmt.Sprintf("%dGi", int(q))) }

// TestPlain: plain values stay as they are (a whole float64 too), every
// other Go value becomes its JSON form, a nil map or slice null.
func TestPlain(t *testing.T) {
	in := map[string]any{
		"whole":  2.0,
		"labels": map[string]string{"a": "b"},
		"list":   []string{"x"},
		"n":      int32(3),
		"num":    json.Number("4.0"),
		"nil":    []any(nil),
		"nilmap": map[string]any(nil),
		"q":      quantity(1),
		"deep":   []any{map[string]any{"f": 1.5, "typed": []int{1}}},
		"inside": []map[string]any{{"w": 2.0}}, // inside a typed value: its JSON text "2"
	}
	want := map[string]any{
		"whole":  2.0,
		"labels": map[string]any{"a": "b"},
		"list":   []any{"x"},
		"n":      int64(3),
		"num":    4.0,
		"nil":    nil,
		"nilmap": nil,
		"q":      "1Gi",
		"deep":   []any{map[string]any{"f": 1.5, "typed": []any{int64(1)}}},
		"inside": []any{map[string]any{"w": int64(2)}},
	}
	if IsPlain(in, MaxDepth) {
		t.Error("IsPlain(typed) = true")
	}
	got, err := Plain(in, MaxDepth)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Plain = %#v, %v; want %#v", got, err, want)
	}
	if !IsPlain(got, MaxDepth) {
		t.Error("IsPlain(Plain(v)) = false")
	}
	if _, ok := in["labels"].(map[string]string); !ok {
		t.Error("Plain changed its input")
	}
	if _, err := Plain(map[string]any{"spec": map[string]any{"x": []any{math.NaN()}}}, MaxDepth); err == nil || err.Error() != "spec.x[0]: a value of Go type float64 cannot be handled as JSON: NaN has no JSON form" {
		t.Errorf("Plain(NaN) error %v", err)
	}
}

// TestContainer: only non-plain values whose JSON form is an object, a
// list or null are read by the in-place walkers.
func TestContainer(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{map[string]any{}, "<nil> false <nil>"},
		{map[string]any(nil), "<nil> true <nil>"},
		{[]any(nil), "<nil> true <nil>"},
		{(*string)(nil), "<nil> true <nil>"},
		{map[string]string{"a": "b"}, "map[a:b] true <nil>"},
		{[]string{"a"}, "[a] true <nil>"},
		{int32(1), "<nil> false <nil>"},
		{json.Number("1"), "<nil> false <nil>"},
		{quantity(1), "<nil> false <nil>"},
		{make(chan int), "<nil> false the object: a value of Go type chan int cannot be handled as JSON: it has no JSON form"},
	} {
		n, ok, err := Container(c.v)
		if got := fmt.Sprint(n, " ", ok, " ", err); got != c.want {
			t.Errorf("Container(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
}

// TestInputError: the path of the value below the base, its Go type named.
func TestInputError(t *testing.T) {
	_, err := Plain(map[string]any{"x": []any{make(chan int)}}, MaxDepth)
	for _, c := range []struct {
		base *field.Path
		want string
	}{
		{nil, "x[0]: Invalid value: x[0]: a value of Go type chan int cannot be handled as JSON: it has no JSON form"},
		{field.NewPath("spec"), "spec.x[0]: Invalid value: spec.x[0]: a value of Go type chan int cannot be handled as JSON: it has no JSON form"},
	} {
		if got := InputError(err, c.base).Error(); got != c.want {
			t.Errorf("InputError(base %v) = %q, want %q", c.base, got, c.want)
		}
	}
	if got := InputError(ErrTooDeep, nil).Error(); got != ": Invalid value: the object is nested more than 10000 levels deep, or contains itself" {
		t.Errorf("InputError(ErrTooDeep) = %q", got)
	}
}
