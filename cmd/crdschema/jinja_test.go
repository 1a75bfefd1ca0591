package main

import "testing"

func TestRenderedJinja(t *testing.T) {
	for _, c := range []struct {
		text, want string
		ok         bool
	}{
		// mkdocs-macros' wrapper: the tags go, lines and columns stay.
		{"{% raw %}\nkind: A\nv: '{{ .x }}'\n{% endraw %}\n", "         \nkind: A\nv: '{{ .x }}'\n            \n", true},
		{"{%- raw -%}\nkind: A\n{%- endraw %}", "           \nkind: A\n             ", true},
		// A file wrapped whole, read one document at a time: the first
		// document opens the block, the last closes it.
		{"{% raw %}\nkind: A\nv: '{{ .x }}'\n", "         \nkind: A\nv: '{{ .x }}'\n", true},
		{"kind: B\nv: '{{ .y }}'\n{% endraw %}\n", "kind: B\nv: '{{ .y }}'\n            \n", true},
		// Inside a raw block everything is text, statements included.
		{"{% raw %}{% if x %}{# c #}{% endraw %}", "         {% if x %}{# c #}            ", true},
		// A comment, and a tag over two lines.
		{"{# a\nb #}kind: A", "    \n    kind: A", true},
		{"{% raw\n%}kind: A", "      \n  kind: A", true},
		// Other markup renders to what the data says: not known.
		{"{% if x %}\nkind: A\n{% endif %}\n", "", false},
		{"kind: {{ kind }}\n", "", false},
		{"{% raw %}a{% endraw %}{{ x }}", "", false},
		{"{% include 'x.yaml' %}", "", false},
		{"{% raw %}\n{% raw %}", "", true},
		// No markup, or markup that does not end.
		{"kind: A\nv: {a: 1}\n", "", false},
		{"{# never ends", "", false},
		{"{% raw", "", false},
		{"{%}0", "", false}, // FuzzRenderedJinja: the tag's end overlapped its start
		{"{#}x", "", false},
		{"", "", false},
	} {
		got, ok := renderedJinja([]byte(c.text))
		if ok != c.ok || (ok && c.want != "" && string(got) != c.want) {
			t.Errorf("RenderedJinja(%q) = %q, %v; want %q, %v", c.text, got, ok, c.want, c.ok)
		}
	}
	text := []byte("{% raw %}kind: A")
	if _, ok := renderedJinja(text); !ok || string(text) != "{% raw %}kind: A" {
		t.Errorf("the text given was changed: %q", text)
	}
}

// Whatever the text, RenderedJinja does not panic, and what it renders
// keeps every line and column: the same length, newlines where they were,
// only spaces where the text changed.
func FuzzRenderedJinja(f *testing.F) {
	for _, s := range []string{"{% raw %}\nkind: A\nv: '{{ .x }}'\n{% endraw %}\n", "a\n{% endraw %}", "{# c #}{% raw %}{% if %}", "{%- raw\n-%}", "{{", "{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		out, ok := renderedJinja([]byte(text))
		if !ok {
			return
		}
		if len(out) != len(text) {
			t.Fatalf("length %d, want %d", len(out), len(text))
		}
		for i := range out {
			if out[i] != text[i] && (out[i] != ' ' || text[i] == '\n') {
				t.Fatalf("byte %d: %q became %q", i, text[i], out[i])
			}
		}
	})
}
