package golden

import (
	"strings"
	"testing"
)

func TestDiffShowsOnlyTheChange(t *testing.T) {
	want := "a\nb\nc\nd\n"
	got := "a\nb\nX\nd\n"
	d := Diff(want, got)
	var removed, added bool
	for _, l := range strings.Split(d, "\n") {
		l = strings.TrimSpace(l)
		removed = removed || (strings.HasPrefix(l, "-") && strings.Contains(l, `"c\n"`))
		added = added || (strings.HasPrefix(l, "+") && strings.Contains(l, `"X\n"`))
		if strings.HasPrefix(l, "-") && strings.Contains(l, `"a\n"`) {
			t.Errorf("an unchanged line is marked: %q", l)
		}
	}
	if !removed || !added {
		t.Errorf("diff does not show the changed line:\n%s", d)
	}
	if Diff(want, want) != "" {
		t.Error("equal renderings must give no diff")
	}
}
