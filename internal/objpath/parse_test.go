package objpath

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// render is elems as a readable list: name for a Child, [key] for a Key.
func render(elems []Element) string {
	var b strings.Builder
	for _, e := range elems {
		switch {
		case e.IsKey():
			fmt.Fprintf(&b, "[%s]", e.Name())
		case e.IsIndex():
			fmt.Fprintf(&b, "#%d", e.Position())
		default:
			fmt.Fprintf(&b, "<%s>", e.Name())
		}
	}
	return b.String()
}

// TestParseField: the hard cases of field.Path strings. Brackets hold map
// keys and list indices alike; a key may hold '.', '[' and ']' unless it
// holds "]." or "][" or ends the path with more brackets.
func TestParseField(t *testing.T) {
	for in, want := range map[string]string{
		"":                  "",
		"<nil>":             "",
		"spec":              "<spec>",
		"spec.list[0].name": "<spec><list>[0]<name>",
		"[0].x":             "[0]<x>",
		"[k]":               "[k]",
		"metadata.annotations[kubernetes.io/x.y]": "<metadata><annotations>[kubernetes.io/x.y]",
		"m[a]b]":   "<m>[a]b]",
		"m[a]b].c": "<m>[a]b]<c>",
		"m[a]]":    "<m>[a]]",
		"m[[x]]":   "<m>[[x]]",
		"m[a[b]":   "<m>[a[b]",
		"m[]":      "<m>[]",
		"m[][0]":   "<m>[][0]",
		"m['q']":   "<m>['q']",
		`m["a.b"]`: `<m>["a.b"]`,
		"m[open":   "<m>[open]",
		"m[open.x": "<m>[open.x]",
		"it's.x":   "<it's><x>",
		// Ambiguous: read as the shorter steps.
		"a.b":       "<a><b>",
		"m[a].b]":   "<m>[a]<b]>",
		"m[a][b]":   "<m>[a][b]",
		"x.y[1][2]": "<x><y>[1][2]",
	} {
		if got := render(ParseField(in)); got != want {
			t.Errorf("ParseField(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestParseFieldRoundTrip: every field.Path whose names hold neither '.'
// nor '[' and whose keys hold neither "]." nor "][" nor end in ']' reads
// back as the steps it was built from.
func TestParseFieldRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const nameChars, keyChars = "ab]'\" /_-0", "ab.[]'\" /_-0"
	word := func(chars string) string {
		b := make([]byte, 1+r.IntN(5))
		for i := range b {
			b[i] = chars[r.IntN(len(chars))]
		}
		return string(b)
	}
	for range 2000 {
		var fp *field.Path
		var want []Element
		for i := range 1 + r.IntN(5) {
			switch r.IntN(3) {
			case 0:
				k := word(keyChars)
				if strings.Contains(k, "].") || strings.Contains(k, "][") || strings.HasSuffix(k, "]") {
					continue
				}
				fp, want = fp.Key(k), append(want, Key(k))
			case 1:
				n := r.IntN(20)
				fp, want = fp.Index(n), append(want, Key(fmt.Sprint(n)))
			default:
				n := word(nameChars)
				if i == 0 && strings.HasPrefix(n, "]") {
					continue
				}
				fp, want = fp.Child(n), append(want, Child(n))
			}
		}
		if got := ParseField(fp.String()); render(got) != render(want) {
			t.Fatalf("ParseField(%q) = %s, want %s", fp.String(), render(got), render(want))
		}
		if fp != nil && NewPath(want...).String() != fp.String() {
			t.Fatalf("NewPath(%s) = %q, field.Path %q", render(want), NewPath(want...).String(), fp.String())
		}
	}
}

// TestParseJSONPath: the apiserver's reading of fieldPath and selectable
// field paths, with the names read before an error.
func TestParseJSONPath(t *testing.T) {
	for _, c := range []struct {
		in     string
		arrays bool
		names  string
		err    string
	}{
		{"", true, "[]", ""},
		{".a.b", true, "[a b]", ""},
		{"['a.b'].c", true, "[a.b c]", ""},
		{`['it\'s']`, true, "[it's]", ""},
		{`['tab\there']`, true, "[tab\there]", ""},
		{`['a\\'].b`, true, "[]", `expected single quoted string but got 'a\\'].b`}, // the quote after \\ does not end it
		{"['open", true, "[]", "expected single quoted string but got 'open"},
		{"[']", true, "[]", "expected single quoted string but got ']"},
		{".a[", true, "[a]", "unexpected end of JSON path"},
		{".a['b'", true, "[a b]", "unexpected end of JSON path"},
		{".a['b'x", true, "[a b]", "expected ] but got x"},
		{".a[b]", true, "[a]", "expected single quoted string but got b"},
		{`.a['\q']`, true, "[a]", `invalid string literal: invalid escape char \q`},
		{`.a['\q\n\z']`, true, "[a]", `invalid string literal: invalid escape char \z`},
		{"['a\\\nb']", true, "[a\\\nb]", ""}, // a backslash before a newline stays
		{"x'y.z", true, "[]", "expected [ or . but got: x'y"},
		{"..", true, "[.]", ""},
		{".[", true, "[[]", ""},
		{"[]", true, "[]", "expected single quoted string but got ]"},
		{".spec.x['y'][0", true, "[spec x y]", "expected single quoted string but got 0"},
		{".spec", false, "[spec]", ""},
		{".spec['s']", false, "[spec]", "array notation is not allowed"},
		{"spec.s", false, "[]", "expected [ or . but got: spec"},
		{".spec.", false, "[spec]", "unexpected end of JSON path"},
	} {
		names, err := ParseJSONPath(c.in, c.arrays)
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if fmt.Sprint(names) != c.names || errText != c.err {
			t.Errorf("ParseJSONPath(%q, %v) = %q, %q; want %s, %q", c.in, c.arrays, names, errText, c.names, c.err)
		}
	}
}
