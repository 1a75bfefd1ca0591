package kubeversion

import (
	"slices"
	"testing"
)

func TestCompare(t *testing.T) {
	// Highest priority first.
	ordered := []string{"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2", "foo1", "foo10"}
	for i, a := range ordered {
		for j, b := range ordered {
			got := Compare(a, b)
			switch {
			case i < j && got <= 0:
				t.Errorf("Compare(%q, %q) = %d, want > 0", a, b, got)
			case i > j && got >= 0:
				t.Errorf("Compare(%q, %q) = %d, want < 0", a, b, got)
			case i == j && got != 0:
				t.Errorf("Compare(%q, %q) = %d, want 0", a, b, got)
			}
		}
	}

	tests := []struct {
		a, b string
		want int // sign only
	}{
		{"v1", "v1beta1", 1},
		{"v1beta1", "v1alpha1", 1},
		{"v1beta10", "v1beta9", 1},
		{"v1", "V1", 1},            // "V1" is not Kubernetes-style
		{"v1beta", "v1alpha1", -1}, // "v1beta" lacks a minor number
		{"v1beta1x", "z", 1},       // neither is Kubernetes-style: ascending lexical order
		{"v", "v1", -1},
		{"v1", "v01", 0}, // same priority
		{"v99999999999999999999", "v1", -1},
		{"vÙ¡", "v1", -1}, // non-ASCII digits are not digits
	}
	for _, tt := range tests {
		got := Compare(tt.a, tt.b)
		if sign(got) != sign(tt.want) {
			t.Errorf("Compare(%q, %q) = %d, want sign %d", tt.a, tt.b, got, sign(tt.want))
		}
	}
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

func TestSort(t *testing.T) {
	in := []string{"foo10", "v1", "v11alpha2", "v2", "foo1", "v3beta1", "v10", "v12alpha1", "v10beta3", "v11beta2"}
	want := []string{"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2", "foo1", "foo10"}
	Sort(in)
	if !slices.Equal(in, want) {
		t.Errorf("got %v, want %v", in, want)
	}
}
