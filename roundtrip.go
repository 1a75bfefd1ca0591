package crdschema

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/conversion"
	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// Loss is a field a round trip between two versions loses or changes.
type Loss struct {
	// Path is the field, keys joined by "." and list indices as "[i]".
	Path string
	// Step is where it went: "read at B", "write at B", "read at A" (the
	// first step that pruned it), or "round trip" (changed along the way).
	Step string
	// Changed is set when the field is still there with another value (or
	// appeared); otherwise it was lost.
	Changed bool
}

// RoundTrip is what happens to obj, created at the version its apiVersion
// names (A), when a client reads it at version to (B), writes it back
// unchanged at B and a client reads it at A again, through the apiserver's
// paths (Write, ReadWith; conv converts for strategy Webhook). It returns
// every field of the object read at A after the create that the object
// read at A after the round trip lacks or holds differently, sorted by
// path; and the errors of a step that fails (a create or write-back the
// apiserver rejects, a read that fails), each detail prefixed by the step.
// obj is not changed.
func (c *CRD) RoundTrip(ctx context.Context, obj map[string]any, to string, conv *conversion.Converter) ([]Loss, field.ErrorList) {
	created := c.Write(ctx, obj, nil, conv)
	if created.Object == nil || len(created.Errors) > 0 {
		return nil, stepErrors("create", created)
	}
	_, from := splitAPIVersion(fmt.Sprint(obj["apiVersion"]))
	base := c.ReadWith(ctx, created.Object, from, conv)
	if base.Object == nil {
		return nil, stepErrors("read at "+from, base)
	}
	atB := c.ReadWith(ctx, created.Object, to, conv)
	if atB.Object == nil {
		return nil, stepErrors("read at "+to, atB)
	}
	written := c.Write(ctx, atB.Object, created.Object, conv)
	if written.Object == nil || len(written.Errors) > 0 {
		return nil, stepErrors("write at "+to, written)
	}
	back := c.ReadWith(ctx, written.Object, from, conv)
	if back.Object == nil {
		return nil, stepErrors("read at "+from, back)
	}
	steps := []struct {
		name   string
		pruned []string
	}{{"read at " + to, atB.Pruned}, {"write at " + to, written.Pruned}, {"read at " + from, back.Pruned}}
	var losses []Loss
	diffFields(base.Object, back.Object, "", func(path string, d fieldDiff, _ any) {
		changed := d != fieldMissing
		l := Loss{Path: path, Step: "round trip", Changed: changed}
		for _, s := range steps {
			if !changed && prunedAt(s.pruned, path) {
				l.Step = s.name
				break
			}
		}
		losses = append(losses, l)
	})
	sort.Slice(losses, func(i, j int) bool { return losses[i].Path < losses[j].Path })
	return losses, nil
}

// stepErrors are a failed step's errors, each detail naming the step.
func stepErrors(step string, r Result) field.ErrorList {
	out := make(field.ErrorList, len(r.Errors))
	for i, e := range r.Errors {
		c := *e
		c.Detail = step + ": " + c.Detail
		out[i] = &c
	}
	return out
}

// prunedAt reports whether path, or a field above it, is among pruned.
func prunedAt(pruned []string, path string) bool {
	for _, p := range pruned {
		if p == path || strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[") {
			return true
		}
	}
	return false
}

// fieldDiff is how a field of one object differs in another.
type fieldDiff int

const (
	// fieldMissing: the field of a is not in b.
	fieldMissing fieldDiff = iota
	// fieldChanged: a leaf (or a list of another length, or a value of
	// another type) differs.
	fieldChanged
	// fieldAdded: the field of b is not in a.
	fieldAdded
)

// diffFields walks a and b side by side, keys sorted, and calls report
// for every field where they differ: the one walker behind round trips'
// losses, Replay's losses and the change report's probes. bv is b's value
// of an added field (nil otherwise).
func diffFields(a, b any, path string, report func(path string, d fieldDiff, bv any)) {
	am, aIsMap := a.(map[string]any)
	bm, bIsMap := b.(map[string]any)
	if aIsMap && bIsMap {
		for _, k := range slices.Sorted(maps.Keys(am)) {
			p := joinPath(path, k)
			if bv, ok := bm[k]; ok {
				diffFields(am[k], bv, p, report)
			} else {
				report(p, fieldMissing, nil)
			}
		}
		var added []string // usually none: nothing to sort or allocate
		for k := range bm {
			if _, ok := am[k]; !ok {
				added = append(added, k)
			}
		}
		slices.Sort(added)
		for _, k := range added {
			report(joinPath(path, k), fieldAdded, bm[k])
		}
		return
	}
	al, aIsList := a.([]any)
	bl, bIsList := b.([]any)
	if aIsList && bIsList && len(al) == len(bl) {
		for i := range al {
			diffFields(al[i], bl[i], path+"["+strconv.Itoa(i)+"]", report)
		}
		return
	}
	if !jsonvalue.Equal(a, b) {
		report(path, fieldChanged, nil)
	}
}

func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}
