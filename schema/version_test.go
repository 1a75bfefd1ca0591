package schema

import (
	"slices"
	"testing"
)

func TestCompareKubeAwareVersions(t *testing.T) {
	// Highest priority first.
	ordered := []string{"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2", "foo1", "foo10"}
	for i, a := range ordered {
		for j, b := range ordered {
			got := CompareKubeAwareVersions(a, b)
			switch {
			case i < j && got <= 0:
				t.Errorf("CompareKubeAwareVersions(%q, %q) = %d, want > 0", a, b, got)
			case i > j && got >= 0:
				t.Errorf("CompareKubeAwareVersions(%q, %q) = %d, want < 0", a, b, got)
			case i == j && got != 0:
				t.Errorf("CompareKubeAwareVersions(%q, %q) = %d, want 0", a, b, got)
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
		got := CompareKubeAwareVersions(tt.a, tt.b)
		if sign(got) != sign(tt.want) {
			t.Errorf("CompareKubeAwareVersions(%q, %q) = %d, want sign %d", tt.a, tt.b, got, sign(tt.want))
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

func TestSortKubeAwareVersions(t *testing.T) {
	in := []string{"foo10", "v1", "v11alpha2", "v2", "foo1", "v3beta1", "v10", "v12alpha1", "v10beta3", "v11beta2"}
	want := []string{"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2", "foo1", "foo10"}
	SortKubeAwareVersions(in)
	if !slices.Equal(in, want) {
		t.Errorf("got %v, want %v", in, want)
	}
}

func TestPreferredVersion(t *testing.T) {
	tests := []struct {
		versions []Version
		want     string
	}{
		{nil, ""},
		{[]Version{{Name: "v1", Served: false}}, ""},
		{[]Version{{Name: "v1beta1", Served: true}, {Name: "v1", Served: true}}, "v1"},
		{[]Version{{Name: "v1beta1", Served: true}, {Name: "v1", Served: false}}, "v1beta1"},
		{[]Version{{Name: "v2alpha1", Served: true}, {Name: "v1beta2", Served: true}, {Name: "foo", Served: true}}, "v1beta2"},
	}
	for _, tt := range tests {
		c := &CRD{Spec: CRDSpec{Versions: tt.versions}}
		if got := c.PreferredVersion(); got != tt.want {
			t.Errorf("PreferredVersion(%v) = %q, want %q", tt.versions, got, tt.want)
		}
	}
}
