package revision

import (
	"slices"
	"strings"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/revision/internal/revdiff"
)

// defaultChange classifies a default added, changed or removed by what a
// create that leaves the field out stores under each revision. A value
// the old revision stored and the new one stores differently (or not at
// all) is "default-changed": the same manifest means another object from
// now on, while objects stored before keep the default they were written
// with (defaults are persisted on write). A default where there was none
// is "safe": the field appears, on create and on reads of stored objects
// without it, and no value changes. A version the new revision does not
// serve defaults no request.
func (p *prober) defaultChange(d revdiff.Change, n uint64) Change {
	ch := Change{Kind: d.Kind, Version: p.version, Path: d.Path.String()}
	if !slices.Contains(p.new.ServedVersions(), p.version) {
		ch.Class, ch.Detail = "safe", d.Detail+"; "+p.version+" is not served: no request is defaulted at it"
		return ch
	}
	var missed miss
	for i, probe := range d.Probes {
		obj, _, why := p.stored(d, probe, n, uint64(i))
		missed.add(why)
		if obj == nil {
			continue
		}
		before := p.old.Write(p.ctx, obj, nil)
		after := p.new.Write(p.ctx, obj, nil)
		switch {
		case len(before.Errors) > 0:
			missed.note(notWritten, "a create at "+p.version+" under the old revision failed: "+errText(before.Errors[0]))
			continue
		case len(after.Errors) > 0:
			missed.note(notWritten, "a create at "+p.version+" under the new revision failed: "+errText(after.Errors[0]))
			continue
		case before.Object == nil || after.Object == nil:
			continue
		}
		was, hadWas := valueAt(before.Object, d.Path)
		now, hasNow := valueAt(after.Object, d.Path)
		field := d.Path.String()
		switch {
		case hadWas && (!hasNow || !jsonvalue.Equal(was, now)):
			ch.Class = "default-changed"
			stores := "stores no " + field
			if hasNow {
				stores = "stores " + field + " = " + compactJSON(now)
			}
			ch.Detail = d.Detail + "; a create without the field " + stores + " (the old revision stored " + compactJSON(was) + "): the same manifest makes another object from now on; objects stored before keep the default they were written with"
		case hasNow:
			ch.Class = "safe"
			ch.Detail = d.Detail + "; a create without the field stores " + field + " = " + compactJSON(now) + ", and stored objects without it read with it: the field appears, no value changes"
		default:
			ch.Class = "safe"
			ch.Detail = d.Detail + "; a create without the field stores the same object under both revisions"
		}
		return ch
	}
	return p.static(ch, d, false, missed)
}

// valueAt is the value at a change's path inside obj, descending into a
// list's first item and a map's first key in sorted order (as revdiff.Set
// places probes); false when there is none.
func valueAt(obj map[string]any, path revdiff.Path) (any, bool) {
	var cur any = obj
	for _, st := range path {
		switch st.Kind {
		case revdiff.Prop:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if cur, ok = m[st.Name]; !ok {
				return nil, false
			}
		case revdiff.Item:
			l, ok := cur.([]any)
			if !ok || len(l) == 0 {
				return nil, false
			}
			cur = l[0]
		default:
			m, ok := cur.(map[string]any)
			if !ok || len(m) == 0 {
				return nil, false
			}
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			cur = m[slices.MinFunc(keys, strings.Compare)]
		}
	}
	return cur, true
}
