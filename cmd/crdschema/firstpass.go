package main

import (
	"bytes"
	"os"

	crdschema "github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/schema"
)

// firstPass is what the first pass over the objects' files (finding the
// CRDs among them) read of a file holding CRDs only, kept so that the
// second pass replays it instead of reading and decoding every CRD again:
// the file's documents and errors in order, each CRD reduced to what the
// second pass shows of it (it skips CRDs: their position, kind, name and
// rendered source), and the error that ended the read.
type firstPass struct {
	events []docEvent
	err    error
}

// docEvent is a document of a file, or derr, the error of one that cannot
// be read.
type docEvent struct {
	d    crdschema.Document
	derr *schema.InputError
}

// replay hands the recorded documents to visit as inputs.read does.
func (fp *firstPass) replay(visit func(crdschema.Document, *schema.InputError) error) error {
	for _, e := range fp.events {
		if err := visit(e.d, e.derr); err != nil {
			return err
		}
	}
	return fp.err
}

// maxSniffed is the size of the largest file sniffed for holding CRDs
// only; larger files are read as any other.
const maxSniffed = 64 << 20

// onlyCRDs returns the file's text when every "---"-separated part of it
// that is not blank mentions CustomResourceDefinition: a file of CRDs (a
// kubebuilder config/crd/bases file, a chart's crds/), which the first
// pass then reads from that text (not from the file a second time) and
// keeps for the second. Whatever it answers, both passes see the same
// documents.
func onlyCRDs(name string, in *inputs) ([]byte, bool) {
	if name == "-" {
		return nil, false
	}
	st, err := os.Stat(name)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxSniffed || (in.max > 0 && st.Size() > in.max) {
		return nil, false
	}
	data, err := os.ReadFile(name)
	if err != nil || (in.max > 0 && int64(len(data)) > in.max) {
		return nil, false
	}
	seen := false
	for part := range bytes.SplitSeq(data, []byte("\n---")) {
		if len(bytes.TrimSpace(part)) == 0 {
			continue
		}
		if !bytes.Contains(part, []byte("CustomResourceDefinition")) {
			return nil, false
		}
		seen = true
	}
	return data, seen
}

// thinCRD is the part of a CRD document the second pass uses, which
// skips it: its position, apiVersion and kind, metadata.name, the
// annotation naming a rendered source and the text up to its first line
// of content (where a "# Source:" comment is).
func thinCRD(d crdschema.Document) crdschema.Document {
	const origin = "config.kubernetes.io/origin"
	meta := map[string]any{}
	if m, ok := d.Object["metadata"].(map[string]any); ok {
		if name, ok := m["name"]; ok {
			meta["name"] = name
		}
		if a, ok := m["annotations"].(map[string]any); ok {
			if o, ok := a[origin]; ok {
				meta["annotations"] = map[string]any{origin: o}
			}
		}
	}
	obj := map[string]any{"apiVersion": d.Object["apiVersion"], "kind": d.Object["kind"], "metadata": meta}
	return crdschema.Document{Position: d.Position, Object: obj, Text: bytes.Clone(leadingText(d.Text))}
}

// leadingText is text up to the end of its first line that is not blank,
// "---" or a comment: all renderedSource reads of it.
func leadingText(text []byte) []byte {
	for off := 0; off < len(text); {
		line, _, _ := bytes.Cut(text[off:], []byte("\n"))
		end := off + len(line)
		if t := bytes.TrimSpace(line); len(t) > 0 && string(t) != "---" && t[0] != '#' {
			return text[:end]
		}
		off = end + 1
	}
	return text
}
