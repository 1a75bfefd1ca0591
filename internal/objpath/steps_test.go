package objpath

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Steps render as the OpenAPI engine writes value paths and as field.Path
// writes them; Dotted keeps its leading dot at the root in both renderings
// of a path.
func TestSteps(t *testing.T) {
	for _, c := range []struct {
		s        Steps
		str, fld string
		path     string
	}{
		{nil, "", "<nil>", ""},
		{Steps{Field("spec"), Field("a")}, "spec.a", "spec.a", "spec.a"},
		{Steps{Dotted("k")}, ".k", "[k]", ".k"},
		{Steps{Field("spec"), Dotted("a.b"), Index(2)}, "spec.a.b[2]", "spec[a.b][2]", "spec.a.b[2]"},
		{Steps{Index(0), Field("x")}, "[0].x", "[0].x", "[0].x"},
		{Steps{Field("spec"), Key("m"), Child("")}, "spec.m.", "spec[m][]", "spec[m][]"},
	} {
		if got := c.s.String(); got != c.str {
			t.Errorf("%v.String() = %q, want %q", c.s, got, c.str)
		}
		if got := c.s.Field(nil).String(); got != c.fld {
			t.Errorf("%v.Field(nil) = %q, want %q", c.s, got, c.fld)
		}
		if got := NewPath(c.s...).String(); got != c.path {
			t.Errorf("NewPath(%v).String() = %q, want %q", c.s, got, c.path)
		}
	}
	if got := (Steps{Index(1)}).Field(field.NewPath("spec", "l")).String(); got != "spec.l[1]" {
		t.Errorf("Field(spec.l) = %q", got)
	}
}

// TestStepsStringAllocatesOnce: width bounds the rendered length, so a
// path is written into one allocation, whatever its indices.
func TestStepsStringAllocatesOnce(t *testing.T) {
	for _, s := range []Steps{
		{Field("spec"), Index(0)},
		{Field("a"), Index(9), Index(10), Index(99), Index(100), Index(123456789)},
		{Index(-1), Index(-10), Dotted("x.y"), Child("z"), Key("k")},
	} {
		if n := len(s.String()); n > s.width() {
			t.Errorf("%q: width %d, length %d", s.String(), s.width(), n)
		}
		if a := testing.AllocsPerRun(10, func() { _ = s.String() }); a != 1 {
			t.Errorf("%q: %v allocations, want 1", s.String(), a)
		}
	}
}
