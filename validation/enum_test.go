package validation_test

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// enumList returns a schema {l: [string with an n-value enum]} and an
// object whose list holds m values that are not in it.
func enumList(t testing.TB, n, m int) (*structural.Schema, map[string]any) {
	t.Helper()
	vals := make([]string, n)
	for i := range vals {
		vals[i] = fmt.Sprintf("%q", fmt.Sprintf("e%d", i))
	}
	p := &model.Props{}
	if err := model.DecodeProps([]byte(`{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","enum":[`+strings.Join(vals, ",")+`]}}}}`), p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(p)
	if err != nil {
		t.Fatal(err)
	}
	l := make([]any, m)
	for i := range l {
		l[i] = "zz"
	}
	return s, map[string]any{"l": l}
}

// TestEnumErrorsAsTheApiserver: NotSupported errors carry the apiserver's
// detail, every value listed, for any realistic number of them.
func TestEnumErrorsAsTheApiserver(t *testing.T) {
	s, obj := enumList(t, 400, 1000)
	errs := validation.New(s).Validate(obj)
	if len(errs) != 1000 {
		t.Fatalf("%d errors, want 1000", len(errs))
	}
	want := make([]string, 400)
	for i := range want {
		want[i] = fmt.Sprintf("e%d", i)
	}
	detail := field.NotSupported(nil, "zz", want).Detail
	for _, e := range errs {
		if e.Type != field.ErrorTypeNotSupported || e.BadValue != "zz" || e.Detail != detail {
			t.Fatalf("%s: %s %v %.80q", e.Field, e.Type, e.BadValue, e.Detail)
		}
	}
}

// TestEnumErrorsBounded: 20,000 values failing a 20,000-value enum (the
// shape of ../shared/findings/hostile/13-enum-20k) once ran out of memory,
// each error holding the whole list. The list is now written in full up to
// 4 MiB per object and referred to after that.
func TestEnumErrorsBounded(t *testing.T) {
	s, obj := enumList(t, 20000, 20000)
	errs := validation.New(s).Validate(obj)
	if len(errs) != 20000 {
		t.Fatalf("%d errors, want 20000", len(errs))
	}
	total, full := 0, 0
	for _, e := range errs {
		total += len(e.Detail)
		if strings.HasPrefix(e.Detail, `supported values: "e0", "e1", `) {
			full++
		} else if e.Detail != "supported values: the 20000 values listed at l[0] (lists of supported values repeated beyond 4 MiB per object are abbreviated)" {
			t.Fatalf("%s: %.200q", e.Field, e.Detail)
		}
	}
	if full == 0 || total > 8<<20 {
		t.Errorf("%d errors listing the values in full, %d bytes of details", full, total)
	}
}
