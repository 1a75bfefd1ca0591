package revision

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/revision/internal/revdiff"
	"github.com/crdschema/crdschema/schema"
)

// TestRuleOwns: the errors counted for a rule added or changed are the
// errors the engine reports for that rule only.
func TestRuleOwns(t *testing.T) {
	forbidden := "FieldValueForbidden"
	p := field.NewPath("spec", "name")
	plain := schema.ValidationRule{Rule: "self.startsWith('x')"}
	msg := schema.ValidationRule{Rule: "self == oldSelf", Message: " name is immutable "}
	expr := schema.ValidationRule{Rule: "self.size() < 3", MessageExpression: "'too long: ' + self", Reason: &forbidden}
	tests := []struct {
		e    *field.Error
		r    schema.ValidationRule
		want bool
	}{
		{field.Invalid(p, "y", "failed rule: self.startsWith('x')"), plain, true},
		{field.Invalid(p, "y", "failed rule: self.startsWith('y')"), plain, false},
		{field.TooLong(p, "", 4), plain, false},
		{field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"), plain, false},
		{field.Invalid(p, "y", "no such key: x evaluating rule: self.startsWith('x')"), plain, true},
		{field.Invalid(p, "y", "name is immutable"), msg, true},
		{field.Invalid(p, "y", "failed rule: self == oldSelf"), msg, false},
		{field.Invalid(p, "y", "validation failed due to running out of cost budget, no further validation rules will be run"), plain, false},
		{field.Forbidden(p, "too long: abcd"), expr, true},
		{field.Invalid(p, "abcd", "too long: abcd"), expr, false},
		{field.Forbidden(p, "failed rule: self.size() < 3"), expr, true},
		{field.Forbidden(p, "failed rule: other"), expr, false},
		{field.Invalid(p, "abcd", `no further validation rules will be run due to call cost exceeds limit for messageExpression: "'too long: ' + self"`), expr, true},
	}
	for _, tt := range tests {
		if got := ruleOwns(tt.e, tt.r); got != tt.want {
			t.Errorf("ruleOwns(%q, %q) = %t, want %t", tt.e.Error(), tt.r.Rule, got, tt.want)
		}
	}
}

// TestCanPrune: only the kinds whose schema change the read path prunes
// or drops nulls by count a lost field.
func TestCanPrune(t *testing.T) {
	for kind, want := range map[string]bool{
		"field-removed": true, "preserve-unknown-fields-removed": true, "embedded-resource-changed": true,
		"type-changed": true, "nullable-removed": true,
		"rule-added": false, "rule-changed": false, "bounds-tightened": false, "default-changed": false,
		"enum-narrowed": false, "required-added": false, "list-type-changed": false, "int-or-string-changed": false,
	} {
		if got := canPrune(kind); got != want {
			t.Errorf("canPrune(%s) = %t, want %t", kind, got, want)
		}
	}
}

// TestFieldPathSteps: the field paths of errors are read by the one
// parser (objpath.ParseField): a map key holding ']' is one step, a
// bracketed step matches a list's items and never a property.
func TestFieldPathSteps(t *testing.T) {
	list := revdiff.Path{{Kind: revdiff.Prop, Name: "spec"}, {Kind: revdiff.Prop, Name: "list"}, {Kind: revdiff.Item}, {Kind: revdiff.Prop, Name: "name"}}
	for f, want := range map[string]bool{
		"<nil>":               false,
		"spec":                true,
		"spec.list[3]":        true,
		"spec.list[3].name":   true,
		"spec.list[3].other":  false,
		"spec.list.x":         false, // a name where the path has items
		"spec[list]":          false, // a key where the path has a property
		"spec.list[a]b].name": true,  // one key holding ']'
		"status":              false,
	} {
		if got := relates(f, list); got != want {
			t.Errorf("relates(%q) = %t, want %t", f, got, want)
		}
	}
	obj := map[string]any{"spec": map[string]any{"labels": map[string]any{}, "list": []any{map[string]any{}}}}
	if !setAt(obj, objpath.ParseField("spec.labels[a]b]"), "x") || !setAt(obj, objpath.ParseField("spec.list[0].n"), int64(1)) {
		t.Fatal("setAt failed")
	}
	if setAt(obj, objpath.ParseField("spec.list[1].n"), 1) || setAt(obj, objpath.ParseField("spec.missing.n"), 1) {
		t.Error("setAt set a value whose containers do not exist")
	}
	want := map[string]any{"spec": map[string]any{"labels": map[string]any{"a]b": "x"}, "list": []any{map[string]any{"n": int64(1)}}}}
	if !reflect.DeepEqual(obj, want) {
		t.Errorf("setAt: %v, want %v", obj, want)
	}
}
