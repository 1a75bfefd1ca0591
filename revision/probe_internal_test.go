package revision

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/revision/internal/revdiff"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
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

// TestNeedsWebhook: a Webhook CRD's probe needs the webhook only where a
// conversion happens: between the probed version and the version probes
// are stored at (storageVersion), and on the new revision's writes
// to its storage version. Stored at the probed version (the new revision
// dropped the old storage version), none happens.
func TestNeedsWebhook(t *testing.T) {
	const webhook = "  conversion: {strategy: Webhook, webhook: {conversionReviewVersions: [v1], clientConfig: {url: \"https://conv.example.com/convert\"}}}\n"
	crd := func(conv string, storage string, versions ...string) *crdschema.CRD {
		doc := "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {plural: widgets, singular: widget, kind: Widget}\n" + conv + "  versions:\n"
		for _, v := range versions {
			doc += fmt.Sprintf("  - {name: %s, served: true, storage: %t, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {name: {type: string}}}}}}}\n", v, v == storage)
		}
		c, err := crdschema.LoadCRD([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	tests := []struct {
		name     string
		old, new *crdschema.CRD
		want     bool
	}{
		{"storage version kept, probed at another", crd(webhook, "v1beta1", "v1beta1", "v1"), crd(webhook, "v1beta1", "v1beta1", "v1"), true},
		{"probed at the storage version of both", crd(webhook, "v1", "v1beta1", "v1"), crd(webhook, "v1", "v1beta1", "v1"), false},
		{"old storage version dropped: stored at the probed one", crd(webhook, "v1beta1", "v1beta1", "v1"), crd(webhook, "v1", "v1"), false},
		{"old storage version dropped, new writes converted", crd(webhook, "v1beta1", "v1beta1", "v1"), crd(webhook, "v2", "v1", "v2"), true},
		{"strategy None before: stored at v1beta1, read at v1 by the new webhook", crd("", "v1beta1", "v1beta1", "v1"), crd(webhook, "v1", "v1beta1", "v1"), true},
		{"no webhook", crd("", "v1beta1", "v1beta1", "v1"), crd("", "v1", "v1"), false},
	}
	for _, tt := range tests {
		p := newProber(context.Background(), tt.old, tt.new, "v1", nil, nil)
		if got := p.needsWebhook(); got != tt.want {
			t.Errorf("%s: needsWebhook = %t, want %t (stored at %s)", tt.name, got, tt.want, p.storedAt)
		}
	}
}

// TestUnspecifiedField: the field named as what defeats ratcheting is one
// without a schema in an object or in a map list's items; an atomic
// list's or a set's items are compared as one value (reflect.DeepEqual
// in the apiserver's CorrelatedObject), so nothing in them is named.
func TestUnspecifiedField(t *testing.T) {
	embedded := &structural.Schema{Type: "object"}
	item := &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{"name": {Type: "string"}, "input": embedded}}
	list := func(listType string) *structural.Schema {
		return &structural.Schema{Type: "array", Items: item, ListType: listType, ListMapKeys: []string{"name"}}
	}
	value := []any{map[string]any{"name": "a"}, map[string]any{"name": "b", "input": map[string]any{"kind": "K", "apiVersion": "v1"}}}
	for _, tt := range []struct{ listType, want string }{{"map", "spec.steps[1].input.apiVersion"}, {"atomic", ""}, {"", ""}, {"set", ""}} {
		if got := unspecifiedField(value, list(tt.listType), "spec.steps"); got != tt.want {
			t.Errorf("list type %q: %q, want %q", tt.listType, got, tt.want)
		}
	}
	extra := &structural.Schema{Type: "object", Properties: map[string]*structural.Schema{"a": {Type: "string"}},
		AdditionalProperties: &structural.AdditionalProperties{Allows: true}}
	if got := unspecifiedField(map[string]any{"a": "x", "b": "y"}, extra, "spec"); got != "spec.b" {
		t.Errorf("additionalProperties: true: %q, want spec.b", got)
	}
}
