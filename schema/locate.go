package schema

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/crdschema/crdschema/internal/objpath"
)

// Locator returns a function that finds a field of the document in its
// Text: given a field path as the apiserver writes it in an error's Field
// (spec.list[2].name, metadata.labels[app.kubernetes.io/name]; see
// field.Path), it returns the 1-based line and column in the file of the
// field's key, or of the nearest ancestor present when the field is
// missing (the document's first key for the root, or a list item's
// value). When the text cannot be read with positions (no Text, text
// go.yaml.in/yaml/v3 cannot parse, a document the reader could not read),
// every field is at the document's Line, column 0. An item of a List is
// found within its item.
//
// The text is parsed once, by Locator, so that one document's many errors
// cost one parse: call it only for documents with errors to place. This
// is what a CI tool needs to annotate an input (a GitHub annotation takes
// line and column); the command places its errors with it.
func (d *Document) Locator() func(fieldPath string) (line, column int) {
	root, start := d.textRoot(), d.Line
	return func(fieldPath string) (int, int) {
		if root == nil {
			return start, 0
		}
		n, best := root, root
		for _, e := range objpath.ParseField(fieldPath) {
			if n = step(resolve(n), e.Name()); n == nil {
				break
			}
			best = n
		}
		return start + best.Line - 1, best.Column
	}
}

// textRoot is the node of the document in its Text (its item, for an item
// of a List); nil when there is none.
func (d *Document) textRoot() *yaml.Node {
	if len(d.Text) == 0 || d.item < 0 {
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(d.Text, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	if d.item > 0 {
		return listItem(doc.Content[0], int(d.item-1))
	}
	return doc.Content[0]
}

// listItem is the i-th item of the List n; nil when it has none.
func listItem(n *yaml.Node, i int) *yaml.Node {
	items := resolve(child(n, "items"))
	if items == nil || items.Kind != yaml.SequenceNode || i >= len(items.Content) {
		return nil
	}
	return items.Content[i]
}

// step goes from n to its child seg: a mapping's key (a copy of the value
// at the key's position, which holds the field's name; the first of a key
// written twice) or a sequence's item (seg all digits); nil when n has no
// such child.
func step(n *yaml.Node, seg string) *yaml.Node {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == seg {
				c := *n.Content[i+1]
				c.Line, c.Column = n.Content[i].Line, n.Content[i].Column
				return &c
			}
		}
	case yaml.SequenceNode:
		i := 0
		for _, c := range seg {
			if c < '0' || c > '9' {
				return nil
			}
			i = i*10 + int(c-'0')
			if i > len(n.Content) {
				return nil
			}
		}
		if seg != "" && i < len(n.Content) {
			return n.Content[i]
		}
	}
	return nil
}

// child is the value of key in the mapping n.
func child(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// resolve follows aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}
