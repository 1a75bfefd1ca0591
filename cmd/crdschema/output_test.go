package main

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestDuplicateValue: a Duplicate error's detail in the contract is the
// value as kubectl prints it after "Duplicate value: ": strings quoted,
// numbers and booleans plain, objects and lists as JSON; nothing for an
// omitted value.
func TestDuplicateValue(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{"a", `"a"`},
		{int64(3), `3`},
		{1.5, `1.5`},
		{true, `true`},
		{map[string]any{"name": "x", "port": int64(80)}, `{"name":"x","port":80}`},
		{[]any{"a", int64(1)}, `["a",1]`},
		{field.OmitValueType{}, ``},
	} {
		if got := duplicateValue(tc.v); got != tc.want {
			t.Errorf("duplicateValue(%#v) = %s, want %s", tc.v, got, tc.want)
		}
		if tc.want == "" {
			continue
		}
		if got, want := field.Duplicate(field.NewPath("spec", "l").Index(1), tc.v).Error(), "spec.l[1]: Duplicate value: "+tc.want; got != want {
			t.Errorf("kubectl prints %s, want %s", got, want)
		}
	}
}

// TestToJSONErrorsDuplicateDetail: only a Duplicate error without a detail
// of its own (the apiserver's) gets the value as detail; --strict's
// duplicate fields keep theirs.
func TestToJSONErrorsDuplicateDetail(t *testing.T) {
	got := toJSONErrors(field.ErrorList{
		field.Duplicate(field.NewPath("spec", "tags").Index(2), "a"),
		{Type: field.ErrorTypeDuplicate, Field: "metadata.labels.a", BadValue: field.OmitValueType{}, Detail: `duplicate field "metadata.labels.a"`},
	})
	want := []jsonError{
		{Type: "FieldValueDuplicate", Field: "metadata.labels.a", Detail: `duplicate field "metadata.labels.a"`},
		{Type: "FieldValueDuplicate", Field: "spec.tags[2]", Detail: `"a"`},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("toJSONErrors = %+v, want %+v", got, want)
	}
}

// TestMultiLineDetailIndented: a detail spanning several lines (a CEL
// compile error shows the expression and a caret) stays one error per
// line in -o text: every line after the first is an indented
// continuation line.
func TestMultiLineDetailIndented(t *testing.T) {
	var b strings.Builder
	oc := outcome{file: "f.yaml", line: 3, kind: "Thing", name: "t", errs: field.ErrorList{
		field.Invalid(field.NewPath("spec", "rule"), "x >", "compilation failed: ERROR: <input>:1:4: Syntax error\n | x >\n | ...^"),
	}}
	if err := (textPrinter{&b}).print(oc, nil); err != nil {
		t.Fatal(err)
	}
	want := "f.yaml:3: Thing/t: spec.rule: Invalid value: \"x >\": compilation failed: ERROR: <input>:1:4: Syntax error\n" +
		"     | x >\n" +
		"     | ...^\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
