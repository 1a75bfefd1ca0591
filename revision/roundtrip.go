package revision

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objdiff"
	"github.com/crdschema/crdschema/internal/objpath"
)

// Loss is a field a round trip between two versions, or a read under a
// new revision, loses or changes.
type Loss struct {
	// Path is the field, keys joined by "." and list indices as "[i]".
	Path string
	// Step is where it went: for a round trip "read at B", "write at B",
	// "read at A" (the first step that pruned it), or "round trip"
	// (changed along the way); for a replay "read at VERSION".
	Step string
	// Changed is set when the field is still there with another value (or
	// appeared); otherwise it was lost.
	Changed bool
}

// Trip is one round trip of RoundTrips: an object created at From, read
// at To, written back at To and read at From.
type Trip struct {
	From, To string
	// Object is the object as created at From.
	Object map[string]any
	// Losses are the fields lost or changed (RoundTrip).
	Losses []Loss
	// Errors are the errors of a step that failed, each detail prefixed
	// by the step ("create", "read at B", "write at B", "read at A").
	Errors field.ErrorList
}

// RoundTrip is what happens to obj, created at the version its apiVersion
// names (A), when a client reads it at version to (B), writes it back
// unchanged at B and a client reads it at A again, through the
// apiserver's paths (crd.Write, crd.Read; a CRD with strategy Webhook
// converts through the converter it was given with WithConverter). It
// returns every field of the object read at A after the create that the
// object read at A after the round trip lacks or holds differently,
// sorted by path; and the errors of a step that fails (a create or
// write-back the apiserver rejects, a read that fails), each detail
// prefixed by the step. obj is not changed.
func RoundTrip(ctx context.Context, crd *crdschema.CRD, obj map[string]any, to string) ([]Loss, field.ErrorList) {
	created := crd.Write(ctx, obj, nil)
	if created.Object == nil || len(created.Errors) > 0 {
		return nil, stepErrors("create", created.Errors)
	}
	from := versionOf(fmt.Sprint(obj["apiVersion"]))
	base := crd.Read(ctx, created.Object, from)
	if base.Object == nil {
		return nil, stepErrors("read at "+from, base.Errors)
	}
	atB := crd.Read(ctx, created.Object, to)
	if atB.Object == nil {
		return nil, stepErrors("read at "+to, atB.Errors)
	}
	written := crd.Write(ctx, atB.Object, created.Object)
	if written.Object == nil || len(written.Errors) > 0 {
		return nil, stepErrors("write at "+to, written.Errors)
	}
	back := crd.Read(ctx, written.Object, from)
	if back.Object == nil {
		return nil, stepErrors("read at "+from, back.Errors)
	}
	steps := []struct {
		name   string
		pruned []string
	}{{"read at " + to, atB.Pruned}, {"write at " + to, written.Pruned}, {"read at " + from, back.Pruned}}
	var losses []Loss
	objdiff.Walk(base.Object, back.Object, jsonvalue.Equal, func(at objpath.Steps, d objdiff.Kind, _ any) {
		path := at.String()
		changed := d != objdiff.Removed
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

// RoundTrips runs RoundTrip on n objects generated with seed
// (Schema.Samples) for every ordered pair of versions (A, B) crd serves,
// and returns every trip, in the order of ServedVersions. Deterministic
// by seed, it fits a fuzz target taking the seed as input. It fails only
// when crd serves no version, a served version's schema does not
// compile, or crd is one the apiserver would reject (its *RejectedError).
func RoundTrips(ctx context.Context, crd *crdschema.CRD, seed uint64, n int) ([]Trip, error) {
	versions := crd.ServedVersions()
	if len(versions) == 0 {
		return nil, errors.New("revision: " + crd.Name() + " serves no version")
	}
	var trips []Trip
	for _, a := range versions {
		s, err := crd.Version(a)
		if err != nil {
			return nil, err
		}
		objs := s.Samples(seed, n)
		for _, b := range versions {
			if a == b {
				continue
			}
			for _, obj := range objs {
				losses, errs := RoundTrip(ctx, crd, obj, b)
				trips = append(trips, Trip{From: a, To: b, Object: obj, Losses: losses, Errors: errs})
			}
		}
	}
	return trips, nil
}

// stepErrors are a failed step's errors, each detail naming the step.
func stepErrors(step string, errs field.ErrorList) field.ErrorList {
	out := make(field.ErrorList, len(errs))
	for i, e := range errs {
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

// versionOf is the version part of an apiVersion.
func versionOf(apiVersion string) string {
	if _, v, ok := strings.Cut(apiVersion, "/"); ok {
		return v
	}
	return apiVersion
}
