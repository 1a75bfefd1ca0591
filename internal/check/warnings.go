package check

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/crdschema/crdschema/internal/model"
)

// The warnings a successful CRD create or update gets back: the CRD
// strategy's WarningsOnCreate and WarningsOnUpdate, passed through the
// apiserver's warning recorder (duplicates dropped, the Warning headers
// limited in size) and sorted.

// stringFormats are the formats recognised on a string (or untyped) node,
// with every "-" removed, as the apiserver compares them.
var stringFormats = normalizedSet(
	"bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac",
	"uuid", "uuid3", "uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard",
	"ssn", "hexcolor", "rgbcolor", "byte", "password", "date", "duration",
	"datetime", "k8s-short-name", "k8s-long-name",
)

// normalizedSet is the set of formats with every "-" removed.
func normalizedSet(formats ...string) map[string]bool {
	set := make(map[string]bool, len(formats))
	for _, f := range formats {
		set[strings.ReplaceAll(f, "-", "")] = true
	}
	return set
}

// formatRecognized reports whether a node of type typ may have format f.
func formatRecognized(typ, f string) bool {
	switch typ {
	case "", "string":
		return stringFormats[strings.ReplaceAll(f, "-", "")]
	case "integer":
		return f == "int32" || f == "int64"
	case "number":
		return f == "float" || f == "double"
	}
	return false
}

// eachSchema calls fn for every schema of spec (the shared one and each
// version's) and every node nested in them, at any depth.
func eachSchema(spec *model.CRDSpec, fn func(*model.Props)) {
	visit := func(p *model.Props) bool { fn(p); return false }
	if spec.Validation != nil {
		propsHas(spec.Validation.OpenAPIV3Schema, visit)
	}
	for i := range spec.Versions {
		if v := spec.Versions[i].Schema; v != nil {
			propsHas(v.OpenAPIV3Schema, visit)
		}
	}
}

// unrecognizedFormats returns the formats of spec's schemas that are not
// recognised for their node's type, in the order met, with repeats.
func unrecognizedFormats(spec *model.CRDSpec) []string {
	var out []string
	eachSchema(spec, func(p *model.Props) {
		if p.Format != "" && !formatRecognized(p.Type, p.Format) {
			out = append(out, p.Format)
		}
	})
	return out
}

// nonScalarSetWarnings returns the warnings for lists of type set whose
// items are objects or arrays, one per item type.
func nonScalarSetWarnings(spec *model.CRDSpec) []string {
	var out []string
	eachSchema(spec, func(p *model.Props) {
		if p.XListType == nil || *p.XListType != "set" || p.Items == nil || p.Items.Schema == nil {
			return
		}
		if t := p.Items.Schema.Type; t == "object" || t == "array" {
			w := fmt.Sprintf("x-kubernetes-list-type: set for items of type %q is not supported by server-side apply or CEL validation rules", t)
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	})
	return out
}

func formatWarning(f string) string { return fmt.Sprintf("unrecognized format %q", f) }

// CreateWarnings returns the warnings a create of a CRD with this spec
// gets when it is accepted: sorted, without duplicates, limited as the
// apiserver limits Warning headers.
func CreateWarnings(spec *model.CRDSpec) []string {
	var ws []string
	for _, f := range unrecognizedFormats(spec) {
		ws = append(ws, formatWarning(f))
	}
	return recordWarnings(append(ws, nonScalarSetWarnings(spec)...))
}

// UpdateWarnings returns the warnings an accepted update of the CRD spec
// old to spec gets: only those it introduces, compared by value (a format
// used anywhere in old is not reported again, wherever spec uses it).
func UpdateWarnings(spec, old *model.CRDSpec) []string {
	oldFormats := map[string]bool{}
	for _, f := range unrecognizedFormats(old) {
		oldFormats[f] = true
	}
	var ws []string
	for _, f := range unrecognizedFormats(spec) {
		if !oldFormats[f] {
			ws = append(ws, formatWarning(f))
		}
	}
	oldSets := nonScalarSetWarnings(old)
	for _, w := range nonScalarSetWarnings(spec) {
		if !slices.Contains(oldSets, w) {
			ws = append(ws, w)
		}
	}
	return recordWarnings(ws)
}

// The apiserver's limits on Warning headers: once the texts of a
// response's warnings exceed maxWarningRunes in total, every warning is cut
// to maxWarningItemRunes and those added after the total is reached again
// are dropped.
const (
	maxWarningRunes     = 4 * 1024
	maxWarningItemRunes = 256
)

// recordWarnings does what the apiserver's warning recorder does with
// warnings added in sorted order: drops empty and repeated ones and
// applies the header size limits. The result is sorted; nil when empty.
func recordWarnings(ws []string) []string {
	ws = slices.DeleteFunc(ws, func(w string) bool { return w == "" })
	slices.Sort(ws)
	ws = slices.Compact(ws)
	total := 0
	for _, w := range ws {
		total += utf8.RuneCountInString(w)
	}
	if total <= maxWarningRunes {
		return ws
	}
	// The warning that made the total exceed the limit turned truncation
	// on: it and all before it are kept, cut; after it, each is kept (cut)
	// while the running total of kept runes is below the limit.
	var out []string
	written, truncating := 0, false
	for _, w := range ws {
		n := utf8.RuneCountInString(w)
		if !truncating {
			if written+n <= maxWarningRunes {
				written += n
				out = append(out, w)
				continue
			}
			truncating = true
			written = 0
			out = append(out, w)
			for i := range out {
				out[i] = cutRunes(out[i], maxWarningItemRunes)
				written += utf8.RuneCountInString(out[i])
			}
			continue
		}
		if written >= maxWarningRunes {
			break
		}
		w = cutRunes(w, maxWarningItemRunes)
		written += utf8.RuneCountInString(w)
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// cutRunes returns s cut to at most n runes.
func cutRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
