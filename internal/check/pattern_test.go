package check

import (
	"regexp"
	"testing"

	"github.com/crdschema/crdschema/internal/model"
)

// patternSeeds are valid and invalid patterns, of every error code the
// regexp parser has.
var patternSeeds = []string{
	`^[a-z]+$`, `a(b`, `a)b`, `[z-a]`, `x**`, `\8`, `a{1001}`, `(?<name>x)(?P<name>y)`, `(?i`, `[[:foo:]]`,
	`\p{Foo}`, `(?P<>x)`, `a{2,1}`, "\xff", `[a`, `\`, `(?z)`, `((((((((((x))))))))))`, `x{1000}{1000}`, `\Q*`,
}

// agreePattern checks that a schema with pattern p gets, from Schema,
// exactly the error regexp.Compile's error gives (or none).
func agreePattern(t *testing.T, p string) {
	t.Helper()
	var want string
	if _, err := regexp.Compile(p); err != nil {
		want = "must be a valid regular expression, but isn't: " + err.Error()
	}
	var got string
	for _, e := range BareSchema(&model.Props{Type: "string", Pattern: p}) {
		if e.Field == "pattern" {
			got = e.Detail
		}
	}
	if got != want {
		t.Errorf("pattern %q: got %q, want %q", p, got, want)
	}
}

func TestPatternErrors(t *testing.T) {
	for _, p := range patternSeeds {
		agreePattern(t, p)
	}
}

func FuzzPatternErrors(f *testing.F) {
	for _, p := range patternSeeds {
		f.Add(p)
	}
	f.Fuzz(agreePattern)
}
