package crdschema

import (
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestErrorSteps: an error's field is split as field.Path writes it; a
// key holding dots stays one step (it was split at every dot before).
func TestErrorSteps(t *testing.T) {
	for in, want := range map[string][]string{
		"spec.tasks[1].hooks[key-0]":                {"spec", "tasks", "[1", "hooks", "[key-0"},
		"metadata.annotations[app.kubernetes.io/x]": {"metadata", "annotations", "[app.kubernetes.io/x"},
		"spec.m[a][b]":                              {"spec", "m", "[a", "[b"},
	} {
		if got := errorSteps(field.Invalid(nil, nil, "")); got != nil {
			t.Fatalf("nil path: %q", got)
		}
		if got := errorSteps(&field.Error{Field: in}); !slices.Equal(got, want) {
			t.Errorf("errorSteps(%q) = %q, want %q", in, got, want)
		}
	}
}
