package revdiff

import (
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"k8s.io/kube-openapi/pkg/validation/strfmt"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// enumAdmits says why a constraint added or tightened on a node refuses
// no value the old schema accepts, when the old node has an enum: the
// old schema accepts no value outside it, and admits holds for each of
// its values (the new constraint passes it, checked as the engine checks
// it). "" when the old node has no enum or a value fails.
func enumAdmits(o *structural.Schema, constraint string, admits func(v any) bool) string {
	oe := props(o).Enum
	if len(oe) == 0 {
		return ""
	}
	names := make([]string, 0, min(len(oe), 4))
	for i, e := range oe {
		if !admits(e.Value) {
			return ""
		}
		if i < 4 {
			names = append(names, quote(e.Value))
		}
	}
	if len(oe) > 4 {
		names = append(names, "...")
	}
	return "every value of the old enum (" + strings.Join(names, ", ") + ") passes " + constraint + ", and the old schema accepts no other value"
}

// lengthAdmits reports whether v is a string of the length the new
// schema's maxLength (isMax) or minLength allows, counted in runes as
// the engine counts it.
func lengthAdmits(np *schema.Props, isMax bool) func(v any) bool {
	return func(v any) bool {
		s, ok := v.(string)
		if !ok {
			return false
		}
		n := int64(utf8.RuneCountInString(s))
		if isMax {
			return np.MaxLength == nil || n <= *np.MaxLength
		}
		return np.MinLength == nil || n >= *np.MinLength
	}
}

// numberAdmits reports whether v is a number within the new schema's
// maximum (isMax) or minimum, with its exclusive flag; numbers beyond
// 2^53, which a float64 does not hold exactly, never are.
func numberAdmits(np *schema.Props, isMax bool) func(v any) bool {
	return func(v any) bool {
		var f float64
		switch x := v.(type) {
		case int64:
			f = float64(x)
		case float64:
			f = x
		default:
			return false
		}
		if math.Abs(f) > 1<<53 {
			return false
		}
		lim, ex, dir := np.Minimum, np.ExclusiveMinimum, -1.0
		if isMax {
			lim, ex, dir = np.Maximum, np.ExclusiveMaximum, 1
		}
		if lim == nil {
			return true
		}
		return f*dir < *lim*dir || (!ex && f == *lim)
	}
}

// patternAdmits reports whether v is a string the compiled pattern
// matches (Go's RE2 regexp, as the engine matches patterns).
func patternAdmits(re *regexp.Regexp) func(v any) bool {
	return func(v any) bool {
		s, ok := v.(string)
		return ok && re.MatchString(s)
	}
}

// formatAdmits reports whether v is a string of the format, as the
// engine checks formats: one strfmt.Default does not know checks
// nothing.
func formatAdmits(format string) func(v any) bool {
	return func(v any) bool {
		s, ok := v.(string)
		return ok && (!strfmt.Default.ContainsName(format) || strfmt.Default.Validates(format, s))
	}
}
